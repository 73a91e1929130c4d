// Backup retention as pve-storage computes it (prune_mark_backup_group): backups are grouped by
// guest type and vmid, sorted newest first, and each keep-* option keeps the newest backup of
// each of the N most recent periods (last: every backup; hourly, daily, ISO-weekly, monthly,
// yearly) not already kept by an earlier option; the rest are marked for removal. Protected
// backups are never removed and do not count. Times are taken in UTC (the simulated nodes' zone).

export type PruneMark = "keep" | "remove" | "protected";

export interface PruneEntry {
  volid: string;
  /** qemu | lxc */
  type: string;
  vmid: number;
  ctime: number;
  mark?: PruneMark;
}

export type KeepOptions = Partial<Record<(typeof KEEP_KEYS)[number], number>>;

const KEEP_KEYS = ["keep-all", "keep-last", "keep-hourly", "keep-daily", "keep-weekly", "keep-monthly", "keep-yearly"] as const;

/** Parses a `prune-backups` property string (already schema-checked by the API). */
export function parseKeep(text: string): KeepOptions {
  const out: KeepOptions = {};
  for (const part of text.split(",")) {
    const [k, v] = part.split("=");
    if ((KEEP_KEYS as readonly string[]).includes(k ?? "")) out[k as keyof KeepOptions] = Number(v);
  }
  return out;
}

export function printKeep(keep: KeepOptions): string {
  return KEEP_KEYS.filter((k) => keep[k] !== undefined)
    .map((k) => `${k}=${keep[k]}`)
    .join(", ");
}

/** True when the options remove nothing (keep-all, or no positive keep-* at all). */
export function keepsEverything(keep: KeepOptions): boolean {
  return keep["keep-all"] === 1 || !KEEP_KEYS.some((k) => k !== "keep-all" && (keep[k] ?? 0) > 0);
}

/** ISO 8601 week as strftime's %G/%V: the week belongs to the year of its Thursday. */
export function isoWeek(d: Date): string {
  const monday = (d.getUTCDay() + 6) % 7;
  const thursday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - monday + 3);
  const year = new Date(thursday).getUTCFullYear();
  const week = 1 + Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * 86_400_000));
  return `${year}/${String(week).padStart(2, "0")}`;
}

const PERIOD: Record<Exclude<(typeof KEEP_KEYS)[number], "keep-all">, (t: number) => string> = {
  "keep-last": (t) => String(t),
  "keep-hourly": (t) => new Date(t * 1000).toISOString().slice(0, 13),
  "keep-daily": (t) => new Date(t * 1000).toISOString().slice(0, 10),
  "keep-weekly": (t) => isoWeek(new Date(t * 1000)),
  "keep-monthly": (t) => new Date(t * 1000).toISOString().slice(0, 7),
  "keep-yearly": (t) => new Date(t * 1000).toISOString().slice(0, 4),
};

function markPeriods(sorted: PruneEntry[], count: number | undefined, period: (t: number) => string): void {
  if (!count) return;
  const alreadyKept = new Set(sorted.filter((e) => e.mark === "keep").map((e) => period(e.ctime)));
  const newlyKept = new Set<string>();
  for (const entry of sorted) {
    const id = period(entry.ctime);
    if (entry.mark !== undefined || alreadyKept.has(id)) continue;
    if (newlyKept.has(id)) {
      entry.mark = "remove";
      continue;
    }
    if (newlyKept.size >= count) break;
    newlyKept.add(id);
    entry.mark = "keep";
  }
}

/** Marks one group (same type and vmid); protected entries must already be marked. */
function markGroup(group: PruneEntry[], keep: KeepOptions): void {
  if (keepsEverything(keep)) {
    for (const e of group) if (e.mark === undefined || e.mark === "remove") e.mark = "keep";
    return;
  }
  const sorted = [...group].sort((a, b) => b.ctime - a.ctime);
  for (const key of Object.keys(PERIOD) as Array<keyof typeof PERIOD>) markPeriods(sorted, keep[key], PERIOD[key]);
  for (const e of sorted) e.mark ??= "remove";
}

/** Marks every entry keep, remove or protected; returns the same entries. */
export function markBackups(entries: PruneEntry[], keep: KeepOptions): PruneEntry[] {
  const groups = new Map<string, PruneEntry[]>();
  for (const e of entries) {
    const key = `${e.type}/${e.vmid}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  for (const group of groups.values()) markGroup(group, keep);
  return entries;
}
