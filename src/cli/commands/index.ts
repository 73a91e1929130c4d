// Every pvectl command registers itself here; one module per command (or command group).
import type { Command } from "commander";

export function registerCommands(program: Command): void {
  void program;
}
