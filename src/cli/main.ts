// pvectl's command-line entry: builds the commander program from the command modules
// and turns any error that escapes a command into one readable line (never a stack trace).
import { Command, CommanderError } from "commander";
import { registerCommands } from "./commands/index.js";
import { renderError } from "./render-error.js";
import { plainDefaultsInHelp } from "./render/help-defaults.js";

/** The program for `argv` (only the named command's module is loaded; see commands/index.ts). */
export async function buildProgram(argv: string[] = []): Promise<Command> {
  const program = new Command("pvectl")
    .description("Desired-state automation for Proxmox VE")
    .version("0.1.0")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();
  await registerCommands(program, argv);
  plainDefaultsInHelp(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = await buildProgram(argv);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(`${renderError(err)}\n`);
    process.exitCode = process.exitCode && process.exitCode !== 0 ? process.exitCode : 1;
  }
}

// Run directly through tsx (development): `tsx src/cli/main.ts ...`
if (import.meta.url === `file://${process.argv[1]}`) {
  await main(process.argv);
}
