// `pvectl import --vmid 100 101 | --tag web | --node pve1 | --all [-o FILE]`: write a spec for
// guests that exist (vmids included, so the spec manages exactly these guests). A plan of the
// written spec against the same cluster is empty, except the adoption step of each guest
// pvectl did not create (written with `adopt: true`). Templates are written with
// `template: true`. Selected guests that cannot be written (a guest type pvectl does not
// manage) are named on stderr; when nothing asked for was written, nothing is written at all
// and the exit code is 1.
import { writeFile } from "node:fs/promises";
import { type Command, Option } from "commander";
import { holdsObjectSections, type ImportedSpec, importGuests, objectImportFlags, specGuests } from "../../app/show.js";
import type { ImportSelection as Selection } from "../../app/selection.js";
import { PvectlError } from "../../util/errors.js";
import { safeText } from "../../util/safe-text.js";
import { specYaml } from "../render/spec-yaml.js";
import { type ConnectionFlags, clientFromConnectionFlags } from "./connection-flags.js";
import { UsageError } from "./plan.js";

interface Flags extends ConnectionFlags {
  vmid?: string[];
  tag?: string[];
  node?: string[];
  all?: boolean;
  out?: string;
  json?: boolean;
}

/** The imported spec could not be written: nothing that was asked for can be imported. */
export class NothingImportedError extends PvectlError {
  readonly kind = "nothing-imported";

  constructor(readonly problems: string[]) {
    super(problems.length > 0 ? "no guest was imported (see the lines above)" : "no guest matches the selection");
    this.name = "NothingImportedError";
  }
  override userMessage(): string {
    const hint =
      this.problems.length > 0 ? "only VMs and containers can be imported" : "check the selection with `pvectl inventory --list`";
    return `${this.message}; nothing was written\n  ${hint}`;
  }
}

/** Each object family's flag (`--backup-jobs` ...), the section key it asks for, and where commander puts it in the flags. */
const FAMILY_FLAGS = objectImportFlags().map((f) => ({ ...f, attribute: new Option(f.flag).attributeName() }));

/** The families the flags ask for, by section key: its own flag, or --all for those it includes. */
function familiesAsked(flags: Flags): Record<string, boolean> {
  const given: Record<string, unknown> = { ...flags };
  return Object.fromEntries(FAMILY_FLAGS.map((f) => [f.key, given[f.attribute] === true || (f.inAll !== undefined && flags.all === true)]));
}

function selectionOf(flags: Flags): Selection {
  const vmids = (flags.vmid ?? [])
    .flatMap((v) => v.split(","))
    .map((v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 100)
        throw new UsageError(`'${v}' is not a vmid`, "vmids are whole numbers from 100, e.g. --vmid 100 101");
      return n;
    });
  const families = Object.values(familiesAsked(flags)).some(Boolean);
  if (!flags.all && !families && vmids.length === 0 && !flags.tag?.length && !flags.node?.length) {
    throw new UsageError("nothing selected", "usage: pvectl import --vmid 100 101 | --tag web | --node pve1 | --all [-o spec.yaml]");
  }
  return {
    vmids,
    ...(flags.tag ? { tags: flags.tag } : {}),
    ...(flags.node ? { nodes: flags.node } : {}),
    ...(flags.all ? { all: true } : {}),
  };
}

/** Says on stderr what was not written and why. */
function reportLeftOut(leftOut: string[]): void {
  for (const line of leftOut) process.stderr.write(`skipped ${safeText(line)}\n`);
}

async function writeSpec({ spec }: ImportedSpec, flags: Flags): Promise<void> {
  const text = flags.json ? `${JSON.stringify(spec, null, 2)}\n` : specYaml(spec);
  if (!flags.out) {
    process.stdout.write(text);
    return;
  }
  await writeFile(flags.out, text, "utf8");
  process.stderr.write(`wrote ${specGuests(spec).length} guest(s) to ${flags.out}; check it with: pvectl plan -f ${flags.out}\n`);
}

export function registerImportCommand(program: Command): void {
  const inAll = FAMILY_FLAGS.flatMap((f) => (f.inAll !== undefined ? [`, and ${f.inAll}`] : [])).join("");
  const command = program
    .command("import")
    .description(
      "write a spec file from existing VMs and containers (by vmid, tag, node, or all); templates are written with template: true",
    )
    .option("--vmid <vmid...>", "these guests")
    .option("--tag <tag...>", "guests with any of these tags")
    .option("--node <node...>", "guests on these nodes")
    .option("--all", `every VM and container of the cluster (templates included)${inAll}`);
  for (const f of FAMILY_FLAGS) command.option(f.flag, f.description);
  command
    .option("-o, --out <file>", "write the spec here instead of stdout")
    .option("--json", "JSON instead of YAML")
    .option("-f, --file <path...>", "a spec file whose `connections:` define the cluster (with --connection)")
    .option("--connection <name>", "the connection of --file to use (may be left out when the file defines one)")
    .addHelpText(
      "after",
      "\nConnection: the PROXMOX_* environment variables, or --file SPEC --connection NAME.\nExit code: 1 when a --vmid was not written or nothing at all was written.",
    )
    .action(async (flags: Flags) => {
      const selection = selectionOf(flags);
      const client = await clientFromConnectionFlags(flags, "import");
      try {
        const imported = await importGuests(client, selection, familiesAsked(flags));
        reportLeftOut(imported.leftOut);
        const guests = specGuests(imported.spec);
        if (guests.length === 0 && !holdsObjectSections(imported.spec)) throw new NothingImportedError(imported.leftOut);
        await writeSpec(imported, flags);
        // An explicitly named vmid that was not written is a failure even when others were.
        const written = new Set(guests.map((guest) => guest.vmid));
        if ((selection.vmids ?? []).some((vmid) => !written.has(vmid))) process.exitCode = 1;
      } finally {
        await client.close();
      }
    });
}
