// Every pvectl command registers itself here; one module per command (or command group).
import type { Command } from "commander";
import { registerApplyCommand } from "./apply.js";
import { registerDemoCommand } from "./demo.js";
import { registerDestroyCommand } from "./destroy.js";
import { registerImportCommand } from "./import.js";
import { registerInventoryCommand } from "./inventory.js";
import { registerNetboxCommand } from "./netbox.js";
import { registerPlanCommand } from "./plan.js";
import { registerShowCommand } from "./show.js";
import { registerSimCommand } from "./sim.js";
import { registerValidateCommand } from "./validate.js";

export function registerCommands(program: Command): void {
  registerValidateCommand(program);
  registerPlanCommand(program);
  registerApplyCommand(program);
  registerDestroyCommand(program);
  registerDemoCommand(program);
  registerShowCommand(program);
  registerImportCommand(program);
  registerInventoryCommand(program);
  registerSimCommand(program);
  registerNetboxCommand(program);
}
