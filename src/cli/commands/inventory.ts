// `pvectl inventory`: Ansible's dynamic inventory protocol (`--list`, `--host NAME`).
// Ansible runs an executable inventory with exactly those flags, so everything else comes
// from the wrapper script's own flags (--config) or the PROXMOX_* environment.
import type { Command } from "commander";
import { type FactsLevel, generateInventory, InventoryError, loadInventoryConfig } from "../../inventory/index.js";
import { type ConnectionFlags, clientFromConnectionFlags } from "./connection-flags.js";

interface InventoryFlags extends ConnectionFlags {
  list?: boolean;
  host?: string;
  config?: string;
  facts?: FactsLevel;
  allowEmpty?: boolean;
  refresh?: boolean;
  pretty?: boolean;
  /** commander's negation of --no-placement-facts: false when given. */
  placementFacts?: boolean;
}

const LEVELS: readonly FactsLevel[] = ["basic", "config", "agent", "plugin"];

export function registerInventoryCommand(program: Command): void {
  program
    .command("inventory")
    .description("print an Ansible dynamic inventory of the cluster's guests (ansible-inventory -i / ansible-playbook -i)")
    .option("--list", "the whole inventory, with _meta.hostvars (the default)")
    .option("--host <name>", "the variables of one host")
    .option("-c, --config <file>", "inventory configuration (groups, filters, facts level, cache); see docs/inventory.md")
    .option("--facts <level>", "facts level: basic (one API call), config, agent, or plugin (the community plugin's want_facts variables)")
    .option("--no-placement-facts", "leave proxmox_node out of host variables (roles keyed on the hypervisor make guests unreproducible); per-node groups stay")
    .option("--allow-empty", "succeed with an empty inventory instead of failing")
    .option("--refresh", "ignore the cache")
    .option("--pretty", "indent the JSON")
    .option("-f, --file <path...>", "a spec file whose `connections:` define the cluster (with --connection)")
    .option("--connection <name>", "the connection of --file to use (may be left out when the file defines one)")
    .addHelpText(
      "after",
      "\nConnection: the PROXMOX_* environment variables (PROXMOX_HOST, PROXMOX_USER, PROXMOX_TOKEN_ID, PROXMOX_TOKEN_SECRET ...), or --file SPEC --connection NAME.\nAnsible setup: an executable file `inventory.sh` containing `exec pvectl inventory --config inventory.yaml \"$@\"`.",
    )
    .action(async (flags: InventoryFlags) => {
      const config = await loadInventoryConfig(flags.config);
      if (flags.facts) {
        if (!LEVELS.includes(flags.facts)) {
          throw new InventoryError(`unknown facts level '${flags.facts}'`, "use --facts basic, config, agent or plugin");
        }
        config.facts = flags.facts;
      }
      if (flags.allowEmpty) config.allowEmpty = true;
      if (flags.placementFacts === false) config.placementFacts = false;
      const client = await clientFromConnectionFlags(flags, "inventory");
      try {
        const inventory = await generateInventory(
          { api: client, endpoint: client.origin, identity: client.identity },
          config,
          { refresh: flags.refresh ?? false },
        );
        const output = flags.host !== undefined ? inventory._meta.hostvars[flags.host] : inventory;
        if (output === undefined) {
          throw new InventoryError(`no host named '${flags.host}' in the inventory`, "run `pvectl inventory --list` to see the host names");
        }
        process.stdout.write(`${JSON.stringify(output, null, flags.pretty ? 2 : undefined)}\n`);
      } finally {
        await client.close();
      }
    });
}
