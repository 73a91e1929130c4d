// Live guests in the spec's shape: those a spec names (`pvectl show`) or those picked by vmid,
// tag or node (`pvectl import`). One cluster read plus one config read per guest.
import type { PveClient } from "../api/index.js";
import type { DesiredVm, LiveVm } from "../resources/vm/model.js";
import { type RawObject, liveToSpecVm } from "../resources/vm/to-spec.js";
import { readCluster, readGuests } from "./cluster.js";
import { findGuest } from "./identity.js";

export interface Selection {
  vmids?: number[];
  tags?: string[];
  nodes?: string[];
  all?: boolean;
}

export interface ShownGuests {
  vms: RawObject[];
  /** Spec guests that do not exist, or could not be matched (with why). */
  missing: string[];
}

function toSpec(lives: LiveVm[]): RawObject[] {
  return lives.sort((a, b) => a.vmid - b.vmid).map(liveToSpecVm);
}

export async function showSpecGuests(client: PveClient, desired: DesiredVm[], concurrency = 16): Promise<ShownGuests> {
  const cluster = await readCluster(client);
  const missing: string[] = [];
  const found = [];
  for (const vm of desired) {
    const match = findGuest(vm, cluster.guests);
    if (match.kind === "found") found.push(match.guest);
    else missing.push(match.kind === "error" ? `${vm.key}: ${match.message}` : `${vm.key}: does not exist`);
  }
  const live = await readGuests(client, found, concurrency);
  return { vms: toSpec([...live.values()]), missing };
}

export async function selectGuests(client: PveClient, selection: Selection, concurrency = 16): Promise<ShownGuests> {
  const cluster = await readCluster(client);
  const missing: string[] = [];
  const picked = cluster.guests.filter((g) => {
    if (g.type !== "qemu" || g.template) return false;
    if (selection.all) return true;
    if (selection.vmids?.includes(g.vmid)) return true;
    if (selection.tags?.some((t) => g.tags.includes(t))) return true;
    if (selection.nodes?.includes(g.node)) return true;
    return false;
  });
  for (const vmid of selection.vmids ?? []) {
    const guest = cluster.guests.find((g) => g.vmid === vmid);
    if (!guest) missing.push(`vmid ${vmid}: does not exist`);
    else if (guest.type !== "qemu") missing.push(`vmid ${vmid}: is a container (LXC), not a VM`);
  }
  const live = await readGuests(client, picked, concurrency);
  return { vms: toSpec([...live.values()]), missing };
}
