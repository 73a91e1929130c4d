// Live guests in the spec's shape: those a spec names (`pvectl show`), or existing guests picked
// by vmid, tag or node and written as a new spec (`pvectl import`).
import type { PveClient } from "../api/index.js";
import { type Selection, selectGuests, type ShownGuests, showSpecGuests } from "../engine/show.js";
import type { RawObject } from "../resources/qemu/to-spec.js";
import { desiredOf, type SpecGuests } from "./plan-spec.js";

export interface ImportedSpec {
  /** A spec document of the guests, each with its vmid (and `adopt: true` when pvectl did not create it). */
  spec: { version: 1; vms: RawObject[] };
  /** Selected guests that were not written, with why: vmids that do not exist, containers, templates. */
  leftOut: string[];
}

export function showSpec(client: PveClient, spec: SpecGuests): Promise<ShownGuests> {
  return showSpecGuests(client, desiredOf(spec));
}

export async function importGuests(client: PveClient, selection: Selection): Promise<ImportedSpec> {
  const shown = await selectGuests(client, selection);
  return { spec: { version: 1, vms: shown.vms }, leftOut: [...shown.missing, ...(shown.skipped ?? [])] };
}
