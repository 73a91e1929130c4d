// Option defaults in --help, written as a person types them. Commander prints a default with
// JSON.stringify, so a numeric flag whose default is the string "120" (flags arrive as strings)
// shows `default: "120"`, which reads as if the quotes were part of the value. Every command's
// options are rewritten here once, after registration, so no command has to remember it.
import type { Command } from "commander";

export function plainDefaultsInHelp(command: Command): void {
  for (const option of command.options) {
    const value: unknown = option.defaultValue;
    if (option.defaultValueDescription === undefined && (typeof value === "string" || typeof value === "number")) {
      option.defaultValueDescription = String(value);
    }
  }
  for (const sub of command.commands) plainDefaultsInHelp(sub);
}
