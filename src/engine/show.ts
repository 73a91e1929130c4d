// Live guests in the spec's shape: those a spec names (`pvectl show`) or those picked by vmid,
// tag or node (`pvectl import`). One cluster read plus one config read per guest.
import type { PveClient } from "../api/index.js";
import { type DesiredGuest, kindOf, kindOfType, type LiveGuest, type SpecObject } from "../resources/index.js";
import { type GuestSummary, readCluster, readGuests } from "./cluster.js";
import { findGuest } from "./identity.js";

export interface Selection {
  vmids?: number[];
  tags?: string[];
  nodes?: string[];
  all?: boolean;
}

export interface ShownGuests {
  vms: SpecObject[];
  /** Spec guests that do not exist, or could not be matched (with why). */
  missing: string[];
  /** Selected guests that exist but were not written, with why (types pvectl does not manage). */
  skipped?: string[];
}

/** Why a selected guest cannot be imported, or undefined when it can. */
function unimportable(g: GuestSummary): string | undefined {
  const who = `vmid ${g.vmid}${g.name ? ` (${g.name})` : ""} on ${g.node}`;
  if (kindOfType(g.type) === undefined) return `${who}: a guest of type ${g.type}, which this build of pvectl does not manage`;
  return undefined;
}

/** Each live guest in its kind's spec shape, by vmid. */
function toSpec(lives: Map<number, LiveGuest>): SpecObject[] {
  // Each live guest carries its kind (read by that kind), so show needs no guess by type.
  return [...lives.values()].sort((a, b) => a.vmid - b.vmid).map((live) => kindOf(live).toSpec(live));
}

export async function showSpecGuests(client: PveClient, desired: DesiredGuest[], concurrency = 16): Promise<ShownGuests> {
  const cluster = await readCluster(client);
  const missing: string[] = [];
  const found = [];
  for (const vm of desired) {
    const match = findGuest(vm, cluster.guests);
    if (match.kind === "found") found.push(match.guest);
    else missing.push(match.kind === "error" ? `${vm.key}: ${match.message}` : `${vm.key}: does not exist`);
  }
  const live = await readGuests(client, found, concurrency);
  return { vms: toSpec(live), missing };
}

export async function selectGuests(client: PveClient, selection: Selection, concurrency = 16): Promise<ShownGuests> {
  const cluster = await readCluster(client);
  const missing: string[] = [];
  const skipped: string[] = [];
  const selected = cluster.guests.filter((g) => {
    if (selection.all) return true;
    if (selection.vmids?.includes(g.vmid)) return true;
    if (selection.tags?.some((t) => g.tags.includes(t))) return true;
    if (selection.nodes?.includes(g.node)) return true;
    return false;
  });
  const picked = selected.filter((g) => {
    const why = unimportable(g);
    if (why !== undefined) skipped.push(why);
    return why === undefined;
  });
  for (const vmid of selection.vmids ?? []) {
    if (!cluster.guests.some((g) => g.vmid === vmid)) missing.push(`vmid ${vmid}: does not exist`);
  }
  const live = await readGuests(client, picked, concurrency);
  return { vms: toSpec(live), missing, skipped };
}
