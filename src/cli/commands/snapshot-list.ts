// `pvectl snapshot list [selection]`: the snapshots of the selected guests, read-only. Guests
// pvectl did not create are listed too (reading changes nothing); templates are left out.
import type { Command } from "commander";
import { getGuestSnapshots, type ListedSnapshot } from "../../api/endpoints/snapshots.js";
import { readCluster } from "../../engine/cluster.js";
import { guestKeys } from "../../engine/snapshot-plan.js";
import { selectGuests } from "../../engine/selection.js";
import { errorText } from "../../engine/retry-policy.js";
import { mapConcurrent } from "../../util/concurrency.js";
import { safeLine } from "../../util/safe-text.js";
import { paletteFor } from "../render/plan.js";
import { selectionJson, selectionNotes } from "../render/selection.js";
import { addSelectionOptions, openSelection, type SelectionFlags } from "./selection-flags.js";

interface ListFlags extends SelectionFlags {
  json?: boolean;
}

interface GuestSnapshots {
  key: string;
  vmid: number;
  name?: string;
  node: string;
  kind: "qemu" | "lxc";
  snapshots: Array<{ name: string; snaptime?: number; description?: string; parent?: string; vmstate?: boolean }>;
  error?: string;
}

function entry(s: ListedSnapshot): GuestSnapshots["snapshots"][number] {
  return {
    name: s.name,
    ...(s.snaptime !== undefined ? { snaptime: Number(s.snaptime) } : {}),
    ...(s.description ? { description: s.description } : {}),
    ...(s.parent !== undefined ? { parent: s.parent } : {}),
    ...(s.vmstate !== undefined ? { vmstate: Boolean(Number(s.vmstate)) } : {}),
  };
}

function when(seconds: number | undefined): string {
  return seconds === undefined ? "" : new Date(seconds * 1000).toISOString().replace(/\.\d+Z$/, "Z");
}

/** A plain table, columns padded to their widest cell. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return (
    rows
      .map((r) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
          .join("  ")
          .trimEnd(),
      )
      .join("\n") + "\n"
  );
}

export function renderSnapshotTable(guests: GuestSnapshots[]): string {
  const rows = [["VMID", "GUEST", "NODE", "SNAPSHOT", "TAKEN", "RAM", "DESCRIPTION"]];
  for (const g of guests) {
    if (g.error !== undefined) rows.push([String(g.vmid), safeLine(g.key), safeLine(g.node), "(unreadable)", "", "", safeLine(g.error)]);
    else if (g.snapshots.length === 0) rows.push([String(g.vmid), safeLine(g.key), safeLine(g.node), "(none)", "", "", ""]);
    for (const s of g.snapshots) {
      rows.push([
        String(g.vmid),
        safeLine(g.key),
        safeLine(g.node),
        safeLine(s.name),
        when(s.snaptime),
        s.vmstate ? "yes" : "",
        safeLine((s.description ?? "").split("\n")[0]!),
      ]);
    }
  }
  return table(rows);
}

export function registerSnapshotListCommand(snapshot: Command): void {
  addSelectionOptions(snapshot.command("list").description("list the snapshots of the selected guests, oldest first (read-only)"))
    .option("--json", "the snapshots as JSON, with the skipped and not-found guests")
    .action(async (flags: ListFlags) => {
      const { client, selector } = await openSelection(flags, "snapshot list");
      try {
        const cluster = await readCluster(client);
        // Reading is harmless: guests pvectl did not create are listed too.
        const selection = selectGuests(cluster.guests, { ...selector, includeForeign: true, excludeTemplates: true });
        const keys = guestKeys(selection.guests);
        const guests = await mapConcurrent(selection.guests, 16, async (g): Promise<GuestSnapshots> => {
          const base = {
            key: keys.get(g.vmid)!,
            vmid: g.vmid,
            ...(g.name !== undefined ? { name: g.name } : {}),
            node: g.node,
            kind: g.type,
          };
          try {
            const listed = await getGuestSnapshots(client, g.type, g.node, g.vmid);
            const snapshots = listed
              .filter((s) => s.name !== "current")
              .map(entry)
              .sort((a, b) => (a.snaptime ?? 0) - (b.snaptime ?? 0));
            return { ...base, snapshots };
          } catch (err) {
            return { ...base, snapshots: [], error: errorText(err).split("\n")[0]! };
          }
        });
        if (flags.json) process.stdout.write(`${JSON.stringify({ guests, ...selectionJson(selection) }, null, 2)}\n`);
        else {
          process.stdout.write(selectionNotes(selection, paletteFor(process.stdout)));
          process.stdout.write(guests.length > 0 ? renderSnapshotTable(guests) : "No guests selected have snapshots to list.\n");
        }
        if (guests.some((g) => g.error !== undefined)) process.exitCode = 1;
      } finally {
        await client.close();
      }
    });
}
