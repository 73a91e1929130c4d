// How long a freed vmid stays in quarantine on each PVE connection. The backup archives of a
// destroyed guest stay on their storages until the retention of the job that made them prunes
// them; a new guest given the vmid meanwhile finds them under its id (docs/backups.md). So the
// quarantine lasts at least as long as "the retention": the longest span any backup job on the
// cluster keeps archives for, from its `prune-backups` as a time (keep-hourly=N: N hours,
// keep-daily: days, keep-weekly: weeks, keep-monthly: 31-day months, keep-yearly: 366-day years,
// keep-last=N: N days, as if the job ran daily). A job without `prune-backups` (the storage's
// retention, or keep everything) adds nothing: no quarantine outlasts "forever", and `backup
// list`/`prune` tell a previous guest's archives apart anyway.
// Without `vmidQuarantine` in the config the quarantine is the longer of 24h and the retention;
// a configured one shorter than the retention is used as written, with a warning saying why.
import type { PveClient } from "../../api/index.js";
import { readBackupJobs } from "../../resources/objects.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import { formatDuration } from "../../util/duration.js";
import { userMessageOf } from "../../util/errors.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SPAN_OF: Record<string, number> = {
  "keep-last": DAY,
  "keep-hourly": HOUR,
  "keep-daily": DAY,
  "keep-weekly": 7 * DAY,
  "keep-monthly": 31 * DAY,
  "keep-yearly": 366 * DAY,
};

/** The longest time `keep-daily=7,keep-weekly=4` keeps an archive, and which key says so. */
export function retentionSpanMs(pruneBackups: string): { ms: number; key: string } | undefined {
  let best: { ms: number; key: string } | undefined;
  for (const part of pruneBackups.split(",")) {
    const [key = "", value = ""] = part.split("=");
    const ms = (SPAN_OF[key.trim()] ?? 0) * Number(value);
    if (ms > 0 && (best === undefined || ms > best.ms)) best = { ms, key: `${key.trim()}=${value.trim()}` };
  }
  return best;
}

export interface QuarantineSpans {
  /** Per connection ("" = the PROXMOX_* one): how long its freed vmids stay in quarantine. */
  spans: Map<string, number>;
  warnings: string[];
}

/** The quarantine per connection from the configured one and its backup jobs' retention. */
export async function quarantineSpans(
  config: NetboxConfig,
  connections: string[],
  pveClient: (connection: string | undefined) => PveClient,
): Promise<QuarantineSpans> {
  const spans = new Map<string, number>();
  const warnings: string[] = [];
  for (const connection of connections) {
    let longest: { ms: number; why: string } | undefined;
    let jobs: Awaited<ReturnType<typeof readBackupJobs>>;
    try {
      jobs = await readBackupJobs(pveClient(connection === "" ? undefined : connection));
    } catch (err) {
      warnings.push(
        `could not read the backup jobs${connection === "" ? "" : ` of connection ${connection}`} (${userMessageOf(err)}), so the vmid quarantine there is ${formatDuration(config.vmidQuarantineMs)} whatever their retention`,
      );
      spans.set(connection, config.vmidQuarantineMs);
      continue;
    }
    for (const job of jobs) {
      if (job.params.enabled === "0") continue;
      const span = retentionSpanMs(job.params["prune-backups"] ?? "");
      if (span !== undefined && (longest === undefined || span.ms > longest.ms))
        longest = { ms: span.ms, why: `backup job ${job.id} keeps archives ${span.key}` };
    }
    const configured = config.vmidQuarantineConfigured === true;
    spans.set(connection, configured || longest === undefined ? config.vmidQuarantineMs : Math.max(config.vmidQuarantineMs, longest.ms));
    if (configured && longest !== undefined && config.vmidQuarantineMs < longest.ms) {
      const where = connection === "" ? "" : ` on connection ${connection}`;
      const length = config.vmidQuarantineMs === 0 ? "0 (none)" : formatDuration(config.vmidQuarantineMs);
      warnings.push(
        `vmidQuarantine ${length} is shorter than the backup retention${where} (${formatDuration(longest.ms)}: ${longest.why}): a guest given a freed vmid inherits the old guest's archives until they are pruned; leave vmidQuarantine out to follow the retention, or set it to at least ${formatDuration(longest.ms)}`,
      );
    }
  }
  return { spans, warnings };
}
