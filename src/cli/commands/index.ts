// Every pvectl command registers itself here; one module per command (or command group).
import type { Command } from "commander";
import { registerInventoryCommand } from "./inventory.js";
import { registerSimCommand } from "./sim.js";

export function registerCommands(program: Command): void {
  registerInventoryCommand(program);
  registerSimCommand(program);
}
