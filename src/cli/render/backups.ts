// Tables of the read-only backup views (`backup list`, `backup status`); what a selection left
// out is rendered by render/selection.ts, as for snapshots.
import type { ArchiveEntry, UncoveredGuest } from "../../app/backup-list.js";
import { safeLine } from "../../util/safe-text.js";

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join("\n")}\n`;
}

/** 1.5 GiB, 300 MiB: binary units, as PVE's GUI shows sizes. */
export function humanSize(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

function when(ctime: number | undefined): string {
  return ctime === undefined ? "-" : new Date(ctime * 1000).toISOString().slice(0, 19).replace("T", " ");
}

export function renderArchives(archives: ArchiveEntry[]): string {
  if (archives.length === 0) return "No backup archives of the selected guests.\n";
  const rows = archives.map((a) => [
    String(a.vmid),
    // Not this guest's: a guest destroyed before it had the same vmid (ArchiveEntry.previousGuest).
    a.previousGuest ? "(previous guest)" : safeLine(a.name ?? "-"),
    safeLine(a.volid),
    humanSize(a.size),
    when(a.ctime),
    a.protected ? "yes" : "no",
    safeLine(a.notes ?? ""),
  ]);
  return table(["VMID", "NAME", "ARCHIVE", "SIZE", "CREATED (UTC)", "PROTECTED", "NOTES"], rows);
}

export function renderUncovered(guests: UncoveredGuest[]): string {
  if (guests.length === 0) return "Every guest is in a backup job.\n";
  const rows = guests.map((g) => [String(g.vmid), safeLine(g.name ?? "-"), g.type, safeLine(g.node ?? "-")]);
  return `${guests.length} guest(s) in no backup job:\n${table(["VMID", "NAME", "TYPE", "NODE"], rows)}`;
}
