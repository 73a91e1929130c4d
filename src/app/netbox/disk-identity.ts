// Records mapped against the guests they already have, so each NetBox virtual disk keeps the
// slot recorded for it on the guest (sources/netbox/disk-slots.ts) instead of the slot its
// position would give it. Reads what that needs: the cluster listing (the guests' tags), the
// config of each guest a record already has (its disks and their sizes), and, for recorded
// virtual disks the record no longer lists, which record NetBox has them on now (if any).
import type { PveClient } from "../../api/index.js";
import { type GuestSummary, readCluster, readGuestsPerGuest } from "../../engine/cluster.js";
import { findGuest } from "../../engine/identity.js";
import type { NetboxClient } from "../../netbox/client.js";
import type { GuestPlan, Plan } from "../../plan/types.js";
import { kindOf, kindOfSpec, type LiveGuest } from "../../resources/index.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import { type GuestDisks, recordedDisks } from "../../sources/netbox/disk-slots.js";
import { type MappedVm, mapRecord } from "../../sources/netbox/mapping.js";
import { describeRecord } from "../../sources/netbox/records.js";

/** The guest's disks of the kind a record maps: a VM's disk drives (not CD-ROMs, not cloud-init), a container's volumes. */
function disksOf(live: LiveGuest): Map<string, number | undefined> {
  return kindOf(live).diskSizes(live);
}

/** Recorded virtual disks that the record no longer lists but NetBox still has: on which record they are now. */
async function disksElsewhere(netbox: NetboxClient, members: { m: MappedVm; guest: GuestSummary }[]): Promise<Map<number, string>> {
  const missing = new Set<number>();
  for (const { m, guest } of members) {
    const own = new Set(m.record.disks.map((d) => d.id));
    for (const r of recordedDisks(guest.tags)) if (!own.has(r.id)) missing.add(r.id);
  }
  if (missing.size === 0) return new Map();
  const found = await netbox.list("virtualization/virtual-disks", { id: [...missing] });
  return new Map(found.map((d) => [d.id, `${describeRecord(d.virtual_machine)} (virtual disk \`${d.name}\`)`]));
}

/**
 * The group's records mapped again with the guests they already have: disks by their recorded
 * identity. A record whose guest does not exist yet (or cannot be read: the plan says why) keeps
 * the mapping of a guest to build. Throws when the cluster or NetBox cannot be read.
 */
export async function mapByDiskIdentity(
  pve: PveClient,
  netbox: NetboxClient,
  config: NetboxConfig,
  members: MappedVm[],
): Promise<MappedVm[]> {
  const cluster = await readCluster(pve);
  const found: { m: MappedVm; guest: GuestSummary }[] = [];
  for (const m of members) {
    const { name, vmid, node } = m.spec;
    // The engine's own identity (vmid, else name among pvectl's guests), so this is the guest the plan will find.
    const match = findGuest({ name, node, kind: kindOfSpec(m.spec.kind).type, ...(vmid !== undefined ? { vmid } : {}) }, cluster.guests);
    if (match.kind === "found") found.push({ m, guest: match.guest });
  }
  if (found.length === 0) return members;
  const [reads, elsewhere] = await Promise.all([
    readGuestsPerGuest(
      pve,
      found.map((f) => f.guest),
    ),
    disksElsewhere(netbox, found),
  ]);
  const guests = new Map<MappedVm, GuestDisks>();
  const unread = new Map<MappedVm, string>();
  for (const { m, guest } of found) {
    const live = reads.live.get(guest.vmid);
    if (live !== undefined) guests.set(m, { vmid: guest.vmid, tags: live.tags, slots: disksOf(live) });
    // Deleted meanwhile: built again, by position. Unreadable: never mapped by position (that could grow or delete the wrong disk).
    else if (!reads.gone.has(guest.vmid))
      unread.set(
        m,
        `vmid ${guest.vmid}: its disks cannot be matched to the record's virtual disks, its config could not be read (${reads.failed.get(guest.vmid) ?? "no answer"}); nothing is changed, sync again`,
      );
  }
  return members.map((m) => {
    const why = unread.get(m);
    if (why !== undefined) return { ...m, diskErrors: [why] };
    const guest = guests.get(m);
    if (guest === undefined) return m;
    const again = mapRecord(m.record, config, { guest, elsewhere });
    // The record mapped once already; only its disks' slots can differ now.
    return again.ok ? again : { ...m, diskErrors: again.errors };
  });
}

/**
 * The plan with what the disks' identity says: a guest whose disk slots cannot be matched loses
 * its steps and carries the reason (no resize, no delete is sent); notes become warnings.
 */
export function withDiskIdentity(plan: Plan, byKey: ReadonlyMap<string, MappedVm>): Plan {
  const guests: GuestPlan[] = plan.guests.map((g) => {
    const m = byKey.get(g.key);
    if (m === undefined) return g;
    if (m.diskErrors.length > 0) return { ...g, steps: [], errors: [...g.errors, ...m.diskErrors] };
    return m.diskNotes.length > 0 ? { ...g, warnings: [...g.warnings, ...m.diskNotes] } : g;
  });
  return { ...plan, guests };
}
