// A restore to another vmid than the archive's makes a copy of the guest, not the guest again.
// A copy of a pvectl guest would carry the archive's name and pvectl's tag: every spec (and
// NetBox record) that finds its guest by name would then find two and refuse as ambiguous, or
// take the copy for the guest. So the copy is renamed (`web` -> `web-copy-751`, or --name):
// renaming keeps it pvectl's (pvectl made it, and commands over pvectl's guests reach it),
// where dropping the tag would have needed the archive's whole tag list (PVE takes `tags` as
// the whole list) and turned the copy into a guest pvectl may not touch. Started, a copy
// without --unique has the original's MACs and network config: refused while the original runs.
import type { GuestSummary } from "../engine/cluster.js";
import { errorText } from "../engine/retry-policy.js";
import type { GuestType } from "../plan/intent.js";
import type { PreflightProblem } from "../plan/types.js";
import { parseTags } from "../pve/index.js";
import { GUEST_KINDS } from "../resources/index.js";
import { OWNERSHIP_TAG } from "../resources/ownership.js";

export interface CopyRequest {
  archive: string;
  kind: GuestType;
  vmid: number;
  node: string;
  name?: string;
  start: boolean;
  unique: boolean;
  allowDuplicateMacs: boolean;
}

export interface CopyPlan {
  /** The copy's name (qemu `name`, lxc `hostname`), given with the restore; undefined: the archive's. */
  name?: string;
  warnings: string[];
  problems: PreflightProblem[];
}

/** The vmid the archive was made of (`vzdump-qemu-701-…`). */
export function archiveVmid(archive: string): number | undefined {
  const m = /vzdump-(?:qemu|lxc)-(\d+)-/.exec(archive);
  return m ? Number(m[1]) : undefined;
}

/** The name and the start check of a copy (undefined when the restore is to the archive's own vmid). */
/** The archive's guest config (GET …/vzdump/extractconfig, parsed), read at most once per restore plan. */
export type ArchiveConfigReader = () => Promise<Record<string, string>>;

export async function planCopy(
  readArchiveConfig: ArchiveConfigReader,
  request: CopyRequest,
  guests: GuestSummary[],
): Promise<CopyPlan | undefined> {
  const source = archiveVmid(request.archive);
  if (source === undefined || source === request.vmid) return undefined;
  const plan: CopyPlan = { warnings: [], problems: [] };
  if (request.name !== undefined) plan.name = request.name;
  else {
    const named = await archiveIdentity(readArchiveConfig, request);
    if (typeof named === "string") plan.problems.push({ kind: "storage", message: named });
    else if (named.owned) plan.name = `${named.name ?? `vmid${source}`}-copy-${request.vmid}`;
  }
  if (request.start && !request.unique) startCheck(plan, source, guests, request.allowDuplicateMacs);
  return plan;
}

/** The archive's name and whether it is a pvectl guest's, or why it could not be read. */
async function archiveIdentity(
  readArchiveConfig: ArchiveConfigReader,
  request: CopyRequest,
): Promise<{ name?: string; owned: boolean } | string> {
  try {
    const config = await readArchiveConfig();
    const name = config[GUEST_KINDS[request.kind].nameKey];
    return { ...(name !== undefined ? { name } : {}), owned: parseTags(config.tags).includes(OWNERSHIP_TAG) };
  } catch (err) {
    return `cannot read the config in ${request.archive} (${errorText(err).split("\n")[0]}), which says whether the copy needs a name of its own; give it one with --name`;
  }
}

function startCheck(plan: CopyPlan, source: number, guests: GuestSummary[], allowed: boolean): void {
  const original = guests.find((g) => g.vmid === source);
  const what = original ? `${original.name ?? `vmid ${source}`} (vmid ${source})` : `the original (vmid ${source})`;
  const same = `the copy starts with the MAC addresses and network configuration (static IPs) of ${what}`;
  if (original?.status === "running" && !allowed) {
    plan.problems.push({
      kind: "clone",
      message: `${same}, which is running: they would clash on the network. Give --unique for new MACs (change static IPs before starting), restore without --start, or --allow-duplicate-macs if the networks are apart`,
    });
  } else {
    const state = original === undefined ? "" : original.status === "running" ? " (running: --allow-duplicate-macs)" : " (stopped now)";
    plan.warnings.push(`${same}${state}: do not run both on one network; --unique gives the copy new MACs`);
  }
}
