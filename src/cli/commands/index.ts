// Every pvectl command registers itself here; one module per command (or command group).
// Modules are loaded on demand: a run of one command loads only that command's module (and
// what it imports), so `pvectl sim` does not carry the engine, the spec loader and NetBox in
// its memory, and every command starts faster. Help and unknown commands load them all.
import type { Command } from "commander";

type Registrar = (program: Command) => void;

const COMMANDS: Record<string, () => Promise<Registrar>> = {
  validate: async () => (await import("./validate.js")).registerValidateCommand,
  plan: async () => (await import("./plan.js")).registerPlanCommand,
  apply: async () => (await import("./apply.js")).registerApplyCommand,
  destroy: async () => (await import("./destroy.js")).registerDestroyCommand,
  demo: async () => (await import("./demo.js")).registerDemoCommand,
  show: async () => (await import("./show.js")).registerShowCommand,
  import: async () => (await import("./import.js")).registerImportCommand,
  inventory: async () => (await import("./inventory.js")).registerInventoryCommand,
  sim: async () => (await import("./sim.js")).registerSimCommand,
  netbox: async () => (await import("./netbox.js")).registerNetboxCommand,
  snapshot: async () => (await import("./snapshot.js")).registerSnapshotCommand,
  backup: async () => (await import("./backup.js")).registerBackupCommand,
  restore: async () => (await import("./restore.js")).registerRestoreCommand,
  access: async () => (await import("./access.js")).registerAccessCommand,
};

/** Registers the command named by `argv[2]` when there is one, else every command. */
export async function registerCommands(program: Command, argv: string[] = []): Promise<void> {
  const named = argv[2];
  const names = named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
  const registrars = await Promise.all(names.map((name) => (COMMANDS[name] as () => Promise<Registrar>)()));
  for (const register of registrars) register(program);
}
