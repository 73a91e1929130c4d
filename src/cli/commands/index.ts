// Every pvectl command registers itself here; one module per command (or command group).
// Modules are loaded on demand: a run of one command loads only that command's module (and
// what it imports), so `pvectl sim` does not carry the engine, the spec loader and NetBox in
// its memory, and every command starts faster. A run that names no command (`--version`,
// `--help`, an unknown command) loads none: the command list is built from the summaries
// below, which a test keeps equal to what the modules register (test/cli/startup.test.ts).
import { type Command, Help } from "commander";

type Registrar = (program: Command) => void;

interface CommandEntry {
  load: () => Promise<Registrar>;
  /** The command's line in `pvectl --help`, as commander writes it from the module. */
  term: string;
  description: string;
}

const COMMANDS: Record<string, CommandEntry> = {
  validate: {
    load: async () => (await import("./validate.js")).registerValidateCommand,
    term: "validate [options] [files...]",
    description: "check spec files offline (no cluster contacted): every problem with file:line:column",
  },
  plan: {
    load: async () => (await import("./plan.js")).registerPlanCommand,
    term: "plan [options] [files...]",
    description: "show what apply would change, step by step with severities (reads the cluster, changes nothing)",
  },
  apply: {
    load: async () => (await import("./apply.js")).registerApplyCommand,
    term: "apply [options] [files...]",
    description: "make the cluster match the spec: plan, confirm, run the steps (or apply a saved plan)",
  },
  destroy: {
    load: async () => (await import("./destroy.js")).registerDestroyCommand,
    term: "destroy [options] [files...]",
    description: "destroy the spec's guests (all, or those named with --name), naming every volume deleted",
  },
  demo: {
    load: async () => (await import("./demo.js")).registerDemoCommand,
    term: "demo [options]",
    description:
      "start the simulators in-process: plan and apply the example specs, show that a second plan is empty, build NetBox's planned VMs, print the inventory",
  },
  show: {
    load: async () => (await import("./show.js")).registerShowCommand,
    term: "show [options] [files...]",
    description: "print the spec's guests as they are live, in the spec's shape",
  },
  import: {
    load: async () => (await import("./import.js")).registerImportCommand,
    term: "import [options]",
    description:
      "write a spec file from existing VMs and containers (by vmid, tag, node, or all); templates are written with template: true",
  },
  inventory: {
    load: async () => (await import("./inventory.js")).registerInventoryCommand,
    term: "inventory [options]",
    description: "print an Ansible dynamic inventory of the cluster's guests (ansible-inventory -i / ansible-playbook -i)",
  },
  sim: {
    load: async () => (await import("./sim.js")).registerSimCommand,
    term: "sim [options]",
    description: "run a Proxmox VE 9 API simulator with its own in-memory cluster (for tests, CI and demos)",
  },
  netbox: {
    load: async () => (await import("./netbox.js")).registerNetboxCommand,
    term: "netbox",
    description: "NetBox as the source of truth: build planned VMs and containers, decommission retired ones",
  },
  snapshot: {
    load: async () => (await import("./snapshot.js")).registerSnapshotCommand,
    term: "snapshot",
    description: "take, list, delete, roll back and prune snapshots of selected guests (VMs and containers)",
  },
  backup: {
    load: async () => (await import("./backup.js")).registerBackupCommand,
    term: "backup",
    description: "back up guests, list and prune their archives, and find guests no backup job covers",
  },
  restore: {
    load: async () => (await import("./restore.js")).registerRestoreCommand,
    term: "restore [options] <archive>",
    description: "make a guest from a backup archive (a new vmid; over an existing guest only with --allow-data-loss)",
  },
  access: {
    load: async () => (await import("./access.js")).registerAccessCommand,
    term: "access",
    description: "least privilege: what the specs or a NetBox sync config need (needs), what a token lacks (check)",
  },
};

/**
 * The command a run names: the first argument that is not an option (pvectl's only global
 * options take no value), or the one after `help`. Undefined when it names none we know, and
 * when `-h`/`--help` comes before it (commander then shows the program's help, every command).
 */
export function namedCommand(argv: string[]): string | undefined {
  const args = argv.slice(2);
  const first = args.findIndex((a) => !a.startsWith("-"));
  if (first < 0 || args.slice(0, first).some((a) => a === "-h" || a === "--help")) return undefined;
  const words = args.slice(first).filter((a) => !a.startsWith("-"));
  const name = words[0] === "help" ? words[1] : words[0];
  return name !== undefined && Object.hasOwn(COMMANDS, name) ? name : undefined;
}

/**
 * Registers the command `argv` names, or, when it names none, every command's summary (enough
 * for `--help`, `--version` and commander's "unknown command" message). Without `argv` (tests,
 * embedding) every command module is loaded.
 */
export async function registerCommands(program: Command, argv?: string[]): Promise<void> {
  if (argv === undefined) return registerAllCommands(program);
  const named = namedCommand(argv);
  if (named !== undefined) (await (COMMANDS[named] as CommandEntry).load())(program);
  else registerSummaries(program);
}

export async function registerAllCommands(program: Command): Promise<void> {
  const registrars = await Promise.all(Object.values(COMMANDS).map((entry) => entry.load()));
  for (const register of registrars) register(program);
}

/** Placeholders that only list the commands; none of them can run (a named command is loaded). */
function registerSummaries(program: Command): void {
  const terms = new Map<Command, string>();
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const command = program
      .command(name)
      .description(entry.description)
      .action(() => {
        throw new Error(`internal: pvectl ${name} ran without its module`);
      });
    terms.set(command, entry.term);
  }
  const defaults = new Help();
  program.configureHelp({
    ...program.configureHelp(),
    subcommandTerm: (cmd: Command) => terms.get(cmd) ?? defaults.subcommandTerm(cmd),
  });
}
