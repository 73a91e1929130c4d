// `pvectl netbox diff`: where NetBox records and the guests in PVE disagree, both ways, as text
// or JSON. It only reads. Exit code 0 when they agree, 2 when they do not (as `plan
// --detailed-exitcode` says "there are changes"), 1 on errors and records that cannot be mapped.
import type { Command } from "commander";
import { type Difference, diffNetbox, type NetboxDiffReport, type RecordDrift, type UnrecordedGuest } from "../../app/netbox/diff.js";
import { loadNetboxConfig } from "../../app/netbox/setup.js";
import { safeLine } from "../../util/safe-text.js";
import { type Palette, paletteFor } from "../render/plan.js";
import { addRecordFlags, type CommonFlags, netboxClient, pveClients, selectionOf } from "./netbox-setup.js";

/** Exit code when NetBox and PVE disagree. */
export const EXIT_DRIFT = 2;

function differenceLine(d: Difference): string {
  return `      ${safeLine(d.field)}: NetBox ${safeLine(d.netbox ?? "(not set)")}, PVE ${safeLine(d.pve ?? "(not set)")}`;
}

function recordLines(r: RecordDrift, p: Palette): string[] {
  const who = safeLine(`${r.name} (NetBox id ${r.id}, ${r.status})`);
  const guest = r.vmid !== undefined ? ` ${r.vmid} on ${r.node ?? "?"}` : "";
  const head: Record<RecordDrift["state"], string> = {
    "in-sync": `${p.green("in sync      ")} ${who}:${guest}`,
    drift: `${p.yellow("drift        ")} ${who}:${guest}, ${r.differences.length} ${r.differences.length === 1 ? "difference" : "differences"}`,
    "guest-missing": `${p.red("guest missing")} ${who}: the record says it exists; PVE has no such guest`,
    "not-built": `${p.cyan("not built    ")} ${who}: planned, no guest yet (netbox sync builds it)`,
    retired: `${p.red("retired      ")} ${who}:${guest}: the record is ${safeLine(r.status)} but the guest still exists`,
    invalid: `${p.red("invalid      ")} ${who}`,
  };
  return [head[r.state], ...r.differences.map(differenceLine), ...r.notes.map((n) => `      ${safeLine(n)}`)];
}

function unrecordedLine(g: UnrecordedGuest, p: Palette): string {
  const where = g.connection ? ` (connection ${safeLine(g.connection)})` : "";
  const why =
    g.goneRecords.length > 0
      ? `built by pvectl for NetBox record ${g.goneRecords.join(", ")}, which no longer exists`
      : g.ownedByPvectl
        ? "built by pvectl, not for a NetBox record (a spec file's guest, or built before record tags): not NetBox's, not drift"
        : "not created by pvectl";
  return `${p.yellow("no record    ")} ${g.kind} ${g.vmid} ${safeLine(g.name ?? "")} on ${safeLine(g.node)}${where}: ${why}`;
}

export function renderNetboxDiff(report: NetboxDiffReport, p: Palette): string {
  const lines = [...report.records.flatMap((r) => recordLines(r, p)), ...report.unrecorded.map((g) => unrecordedLine(g, p))];
  const count = (s: RecordDrift["state"]) => report.records.filter((r) => r.state === s).length;
  lines.push(
    `${count("in-sync")} in sync, ${count("drift")} drifting, ${count("guest-missing")} guest missing, ${count("retired")} retired but present, ` +
      `${count("not-built")} not built, ${count("invalid")} invalid, ${report.unrecorded.length} guests without a record`,
  );
  return `${lines.join("\n")}\n`;
}

export function registerNetboxDiff(netbox: Command): void {
  addRecordFlags(
    netbox.command("diff").description("list where NetBox records and the guests in Proxmox VE disagree (both ways); writes nothing"),
  )
    .addHelpText(
      "after",
      "\nEvery record of the selected clusters is compared, in any status, as `netbox sync` would map it: vCPUs, memory,\n" +
        "disks, MACs, VLANs, tags, power state. Guests with no record are listed too; a guest pvectl built from a spec\n" +
        "file (no netbox-vm-<id> tag) shares the cluster and is not drift.\n" +
        "\nExit codes: 0 NetBox and PVE agree, 2 they disagree, 1 an error or a record that cannot be mapped.",
    )
    .action(async (flags: CommonFlags) => {
      const config = await loadNetboxConfig(flags.config);
      const client = netboxClient(config, flags);
      const pve = pveClients(config);
      try {
        const report = await diffNetbox({ config, netbox: client, pveClient: pve.get, selection: selectionOf(flags) });
        process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : renderNetboxDiff(report, paletteFor(process.stdout)));
        if (report.records.some((r) => r.state === "invalid")) process.exitCode = 1;
        else if (!report.inSync) process.exitCode = EXIT_DRIFT;
      } finally {
        await client.close();
        await pve.close();
      }
    });
}
