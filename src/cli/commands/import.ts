// `pvectl import --vmid 100 101 | --tag web | --node pve1 | --all [-o FILE]`: write a spec for
// guests that exist (vmids included, so the spec manages exactly these guests). A plan of the
// written spec against the same cluster is empty, except the adoption step of each guest
// pvectl did not create (written with `adopt: true`).
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { stringify } from "yaml";
import { PveClient } from "../../api/index.js";
import { selectGuests } from "../../engine/show.js";
import { UsageError } from "./plan.js";

interface Flags {
  vmid?: string[];
  tag?: string[];
  node?: string[];
  all?: boolean;
  out?: string;
  json?: boolean;
}

export function registerImportCommand(program: Command): void {
  program
    .command("import")
    .description("write a spec file from existing guests (by vmid, tag, node, or all)")
    .option("--vmid <vmid...>", "these guests")
    .option("--tag <tag...>", "guests with any of these tags")
    .option("--node <node...>", "guests on these nodes")
    .option("--all", "every VM of the cluster (templates excepted)")
    .option("-o, --out <file>", "write the spec here instead of stdout")
    .option("--json", "JSON instead of YAML")
    .addHelpText("after", "\nConnection: the PROXMOX_* environment variables.")
    .action(async (flags: Flags) => {
      const vmids = (flags.vmid ?? []).flatMap((v) => v.split(",")).map((v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 100) throw new UsageError(`'${v}' is not a vmid`, "vmids are whole numbers from 100, e.g. --vmid 100 101");
        return n;
      });
      if (!flags.all && vmids.length === 0 && !flags.tag?.length && !flags.node?.length) {
        throw new UsageError("nothing selected", "usage: pvectl import --vmid 100 101 | --tag web | --node pve1 | --all [-o spec.yaml]");
      }
      const client = PveClient.fromEnv();
      try {
        const shown = await selectGuests(client, {
          vmids,
          ...(flags.tag ? { tags: flags.tag } : {}),
          ...(flags.node ? { nodes: flags.node } : {}),
          ...(flags.all ? { all: true } : {}),
        });
        for (const line of shown.missing) process.stderr.write(`skipped ${line}\n`);
        const document = { version: 1, vms: shown.vms };
        const text = flags.json ? `${JSON.stringify(document, null, 2)}\n` : stringify(document);
        if (flags.out) {
          await writeFile(flags.out, text, "utf8");
          process.stderr.write(`wrote ${shown.vms.length} guest(s) to ${flags.out}; check it with: pvectl plan -f ${flags.out}\n`);
        } else process.stdout.write(text);
        if (shown.missing.length > 0) process.exitCode = 1;
      } finally {
        await client.close();
      }
    });
}
