// Live guests in the spec's shape: those a spec names (`pvectl show`), or existing guests picked
// by vmid, tag or node and written as a new spec (`pvectl import`).
import type { PveClient } from "../api/index.js";
import { type Selection, type ShownGuests, selectGuests, showSpecGuests } from "../engine/show.js";
import { accessToSpec, readAccess } from "../resources/access/index.js";
import { backupJobToSpec, readBackupJobs } from "../resources/backup-job/index.js";
import type { RawObject } from "../resources/qemu/to-spec.js";
import { desiredOf, type SpecGuests } from "./plan-spec.js";
import { shownAccess } from "./show-access.js";

/** A spec document: VMs under `vms:`, containers under `containers:` (left out when there are none). */
export interface GuestsSpec {
  version: 1;
  vms: RawObject[];
  containers?: RawObject[];
  /** Backup jobs (present when asked for, or when the shown spec declares them). */
  backupJobs?: RawObject[];
  /** Access objects (present when asked for, or when the shown spec declares them); never a secret. */
  access?: Record<string, unknown>;
}

export interface ImportedSpec {
  /** A spec document of the guests, each with its vmid (and `adopt: true` when pvectl did not create it). */
  spec: GuestsSpec;
  /** Selected guests that were not written, with why: vmids that do not exist, guest types pvectl does not manage. */
  leftOut: string[];
}

/** What `show` prints: the spec's guests as they are live, and those it could not find. */
export interface ShownSpec {
  spec: GuestsSpec;
  missing: string[];
}

/**
 * The guests in their spec sections. Each kind writes its own shape (resources/<kind>/to-spec):
 * a container's entry is the one keyed by `hostname`, a VM's by `name`.
 */
export function specSections(guests: RawObject[]): GuestsSpec {
  const containers = guests.filter((g) => g.hostname !== undefined);
  const vms = guests.filter((g) => g.hostname === undefined);
  return { version: 1, vms, ...(containers.length > 0 ? { containers } : {}) };
}

/** Every guest of a written spec (VMs, then containers). */
export function specGuests(spec: GuestsSpec): RawObject[] {
  return [...spec.vms, ...(spec.containers ?? [])];
}

export async function showSpec(client: PveClient, spec: SpecGuests): Promise<ShownSpec> {
  const shown: ShownGuests = await showSpecGuests(client, desiredOf(spec));
  const sections: GuestsSpec = specSections(shown.vms);
  const access = spec.access?.[0]?.desired;
  const missing = [...shown.missing];
  if (access !== undefined) {
    const result = shownAccess(access, await readAccess(client, access));
    sections.access = result.access;
    missing.push(...result.missing);
  }
  if (spec.backupJobs === undefined) return { spec: sections, missing };
  const live = new Map((await readBackupJobs(client)).map((job) => [job.id, job]));
  const jobs: RawObject[] = [];
  for (const { id } of spec.backupJobs) {
    const job = live.get(id);
    if (job) jobs.push(backupJobToSpec(job) as RawObject);
    else missing.push(`backup job ${id}: does not exist`);
  }
  return { spec: { ...sections, backupJobs: jobs }, missing };
}

/**
 * Existing guests as a new spec; with `backupJobs`, every backup job of the cluster too (a spec
 * that writes `backupJobs:` manages them all: pvectl's jobs it does not list are deleted, so an
 * import writes every job, foreign ones with `adopt: true`).
 */
export async function importGuests(
  client: PveClient,
  selection: Selection,
  options: { backupJobs?: boolean; access?: boolean } = {},
): Promise<ImportedSpec> {
  const shown = await selectGuests(client, selection);
  const spec = specSections(shown.vms);
  // Every list, so the written spec manages them all (foreign objects with adopt: true).
  if (options.access)
    spec.access = accessToSpec(await readAccess(client, { roles: [], groups: [], users: [], tokens: [], acls: [], pools: [] }));
  if (options.backupJobs) spec.backupJobs = (await readBackupJobs(client)).map((job) => backupJobToSpec(job) as RawObject);
  return { spec, leftOut: [...shown.missing, ...(shown.skipped ?? [])] };
}
