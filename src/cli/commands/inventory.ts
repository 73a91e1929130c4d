// `pvectl inventory`: Ansible's dynamic inventory protocol (`--list`, `--host NAME`), and
// `--graph` as ansible-inventory prints it. Ansible runs an executable inventory with exactly
// those flags, so everything else comes from the wrapper script's own flags (--config) or the
// PROXMOX_* environment. --config takes pvectl's file or the community plugin's proxmox.yml.
import type { Command } from "commander";
import { type AnsibleInventory, clusterInventory, type FactsLevel, InventoryError, renderGraph } from "../../app/inventory.js";
import type { ConnectionFlags } from "./connection-flags.js";
import { InventoryWarnings } from "./inventory-warnings.js";

interface InventoryFlags extends ConnectionFlags {
  list?: boolean;
  host?: string;
  graph?: string | boolean;
  config?: string;
  facts?: FactsLevel;
  allowEmpty?: boolean;
  refresh?: boolean;
  pretty?: boolean;
  json?: boolean;
  /** commander's negation of --no-placement-facts: false when given. */
  placementFacts?: boolean;
}

function output(inventory: AnsibleInventory, flags: InventoryFlags): string {
  if (flags.graph !== undefined) {
    if (flags.json)
      throw new InventoryError(
        "--graph prints a text tree and --json asks for JSON",
        "drop one of them (--list --json is the whole inventory as JSON)",
      );
    const start = typeof flags.graph === "string" ? flags.graph : "all";
    const graph = renderGraph(inventory, start);
    if (graph === undefined)
      throw new InventoryError(`no group named '${start}' in the inventory`, "run `pvectl inventory --graph` to see the groups");
    return graph;
  }
  const chosen = flags.host !== undefined ? inventory._meta.hostvars[flags.host] : inventory;
  if (chosen === undefined) {
    throw new InventoryError(`no host named '${flags.host}' in the inventory`, "run `pvectl inventory --list` to see the host names");
  }
  return JSON.stringify(chosen, null, flags.pretty ? 2 : undefined);
}

export function registerInventoryCommand(program: Command): void {
  program
    .command("inventory")
    .description("print an Ansible dynamic inventory of the cluster's guests (ansible-inventory -i / ansible-playbook -i)")
    .option("--list", "the whole inventory, with _meta.hostvars (the default)")
    .option("--host <name>", "the variables of one host")
    .option("--graph [group]", "the group tree as `ansible-inventory --graph` prints it (from group, default all)")
    .option("-c, --config <file>", "inventory configuration: pvectl's, or the community plugin's proxmox.yml as is; see docs/inventory.md")
    .option("--facts <level>", "facts level: basic (one API call), config, agent, or plugin (the community plugin's want_facts variables)")
    .option(
      "--no-placement-facts",
      "leave out where guests run: proxmox_node, the per-node groups, volumes' storages and NICs' bridges (roles keyed on them make guests unreproducible)",
    )
    .option("--allow-empty", "succeed with an empty inventory instead of failing")
    .option("--refresh", "ignore the cache")
    .option("--pretty", "indent the JSON")
    .option(
      "--json",
      "JSON output, as --list and --host always give (errors as one JSON object on stdout, as every command's --json); not with --graph",
    )
    .option("-f, --file <path...>", "a spec file whose `connections:` define the cluster (with --connection)")
    .option("--connection <name>", "the connection of --file to use (may be left out when the file defines one)")
    .addHelpText(
      "after",
      [
        "",
        "Connection: the PROXMOX_* environment variables (PROXMOX_HOST, PROXMOX_USER, PROXMOX_TOKEN_ID, PROXMOX_TOKEN_SECRET ...), --file SPEC --connection NAME,",
        "or the url/user/password/token_id/token_secret of the community plugin's file given to --config (plugin: community.general.proxmox or community.proxmox.proxmox).",
        'Ansible setup: an executable file `inventory.sh` containing `exec pvectl inventory --config inventory.yaml "$@"`.',
        "Warnings (TLS verification off, a compose or group entry skipped for a host) go to stderr only on a terminal or with --verbose;",
        "otherwise they are in the output's _meta.pvectl_warnings, because Ansible shows any stderr of an inventory script as an error.",
        "A host whose facts could not be read is always reported on stderr.",
      ].join("\n"),
    )
    .action(async (flags: InventoryFlags, command: Command) => {
      const verbose = Boolean(command.optsWithGlobals().verbose);
      const warnings = new InventoryWarnings(
        verbose || process.stderr.isTTY === true || process.env.PVECTL_INVENTORY_WARNINGS === "stderr",
      );
      let done = false;
      try {
        const { inventory, factsPrefix } = await clusterInventory({
          ...(flags.config !== undefined ? { configFile: flags.config } : {}),
          ...(flags.facts !== undefined ? { facts: flags.facts } : {}),
          ...(flags.allowEmpty ? { allowEmpty: true } : {}),
          ...(flags.placementFacts === false ? { placementFacts: false } : {}),
          ...(flags.refresh ? { refresh: true } : {}),
          connection: {
            ...(flags.file !== undefined ? { files: flags.file } : {}),
            ...(flags.connection !== undefined ? { connection: flags.connection } : {}),
          },
          onWarning: (message) => warnings.add(message),
        });
        warnings.reportFactFailures(inventory, factsPrefix);
        if (flags.host === undefined && flags.graph === undefined) warnings.attach(inventory);
        process.stdout.write(`${output(inventory, flags)}\n`);
        done = true;
      } finally {
        warnings.flush(!done);
      }
    });
}
