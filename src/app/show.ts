// Live guests in the spec's shape: those a spec names (`pvectl show`), or existing guests picked
// by vmid, tag or node and written as a new spec (`pvectl import`).
import type { PveClient } from "../api/index.js";
import { type Selection, type ShownGuests, selectGuests, showSpecGuests } from "../engine/show.js";
import { importObjects, type ObjectSectionKey, type ShownSections, showObjects, specSectionKeys } from "../resources/objects.js";
import type { RawObject } from "../resources/qemu/to-spec.js";
import { desiredOf, type SpecGuests } from "./plan-spec.js";

// `pvectl import`'s flag per object family (`--backup-jobs` ...), as each family declares it.
export { type ObjectImportFlag, objectImportFlags } from "../resources/objects.js";

/**
 * A spec document: VMs under `vms:`, containers under `containers:` (left out when there are
 * none), and each object family's section under its key (backupJobs, access: present when asked
 * for, or when the shown spec declares it; never a secret).
 */
export interface GuestsSpec extends ShownSections {
  version: 1;
  vms: RawObject[];
  containers?: RawObject[];
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

/** Whether a written spec holds any object family's section (an import of objects alone wrote something). */
export function holdsObjectSections(spec: GuestsSpec): boolean {
  const byKey: Partial<Record<string, unknown>> = { ...spec };
  return specSectionKeys().some((key) => byKey[key] !== undefined);
}

/** Every guest of a written spec (VMs, then containers). */
export function specGuests(spec: GuestsSpec): RawObject[] {
  return [...spec.vms, ...(spec.containers ?? [])];
}

export async function showSpec(client: PveClient, spec: SpecGuests): Promise<ShownSpec> {
  const shown: ShownGuests = await showSpecGuests(client, desiredOf(spec));
  const sections: GuestsSpec = specSections(shown.vms);
  const objects = await showObjects(client, spec);
  return { spec: { ...sections, ...objects.sections }, missing: [...shown.missing, ...objects.missing] };
}

/**
 * Existing guests as a new spec; with a family's section key (`backupJobs`, `access`), every
 * object of that family on the cluster too (a spec that writes the section manages them all:
 * pvectl's objects it does not list are deleted, so an import writes every one, foreign ones
 * with `adopt: true`).
 */
export async function importGuests(
  client: PveClient,
  selection: Selection,
  options: Partial<Record<ObjectSectionKey, boolean>> = {},
): Promise<ImportedSpec> {
  const shown = await selectGuests(client, selection);
  const spec: GuestsSpec = { ...specSections(shown.vms), ...(await importObjects(client, options)) };
  return { spec, leftOut: [...shown.missing, ...(shown.skipped ?? [])] };
}
