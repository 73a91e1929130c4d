// `pvectl snapshot list [selection]`: the snapshots of the selected guests as a table or JSON
// (the listing itself is app/snapshot-list.ts).
import type { Command } from "commander";
import { type GuestSnapshots, listSnapshots } from "../../app/snapshot-list.js";
import { safeLine } from "../../util/safe-text.js";
import { paletteFor } from "../render/plan.js";
import { selectionJson, selectionNotes } from "../render/selection.js";
import { addSelectionOptions, openSelection, type SelectionFlags } from "./selection-flags.js";

interface ListFlags extends SelectionFlags {
  json?: boolean;
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
        const { guests, selection } = await listSnapshots(client, selector);
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
