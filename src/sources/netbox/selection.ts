// Which NetBox records a command reads: the config's `select:` narrowed by the command's flags
// (sync, decommission and diff all merge them the same way). A flag can only narrow what the
// config selects, never widen it: the config is what the operator reviewed, a flag is a quick
// "only these" at the prompt. In NetBox's filter terms: clusters and sites each match any of
// their values, so the flags and the config are intersected; tags must all match, so they are
// added together; names and ids come only from the command.
import { UsageProblem } from "../../util/errors.js";
import type { NetboxConfig } from "./config.js";
import type { RecordSelection } from "./records.js";

/** What a command narrows the configured selection by (CLI flags, serve's webhook ids). */
export type SelectionFlags = Omit<RecordSelection, "status">;

/** A flag names a cluster or site the config's `select:` leaves out: it would widen, not narrow. */
export class SelectionOutsideConfig extends UsageProblem {}

/**
 * The values of one any-of filter: the config's, narrowed to the flag's when a flag is given.
 * Empty means "no filter" to loadRecords, so an empty intersection is refused here rather than
 * silently selecting every record.
 */
function narrowAnyOf(config: NetboxConfig, key: "clusters" | "sites", flag: string[] | undefined): string[] {
  const configured = config.select[key];
  if (!flag?.length) return configured;
  if (configured.length === 0) return flag;
  const kept = flag.filter((v) => configured.includes(v));
  if (kept.length > 0) return kept;
  const option = key === "clusters" ? "--cluster" : "--site";
  throw new SelectionOutsideConfig(
    `${option} ${flag.join(", ")}: not in select.${key} of ${config.file} (${configured.join(", ")}); a flag can only narrow the configured selection`,
    `give one of ${configured.join(", ")}, or add it to select.${key} in ${config.file}`,
  );
}

/**
 * The selection a command reads: `status` is the caller's (sync: the configured statuses,
 * decommission: decommission.status, diff: every status), the rest the config's narrowed by `flags`.
 */
export function recordSelection(
  config: NetboxConfig,
  flags: SelectionFlags | undefined,
  status: RecordSelection["status"],
): RecordSelection {
  const tags = [...new Set([...config.select.tags, ...(flags?.tags ?? [])])];
  return {
    ...(status !== undefined ? { status } : {}),
    clusters: narrowAnyOf(config, "clusters", flags?.clusters),
    sites: narrowAnyOf(config, "sites", flags?.sites),
    tags,
    ...(flags?.names?.length ? { names: flags.names } : {}),
    ...(flags?.ids?.length ? { ids: flags.ids } : {}),
  };
}
