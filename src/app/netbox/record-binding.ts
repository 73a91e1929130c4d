// A guest belongs to the one NetBox record it was built for. Every guest a record builds carries
// that record's tag (`netbox-vm-<id>`, sources/netbox/record-tag.ts), so a record that names a
// guest built for another record (by its vmid custom field, or by name) is refused before
// anything is sent: sync, day 2 and serve do not rename, rewire or shrink it, and decommission
// does not destroy it. The refusal names both records.
//
// Guests built before pvectl wrote the record tag (and guests adopted with `adopt: true`) carry
// none. Such a guest is bound to the record that names it, unless another NetBox record names
// the same vmid in its vmid custom field (the one pvectl wrote back when it built the guest):
// then it is refused, naming the other records, until the operator clears the wrong vmid. The
// binding is written by the plan itself (the record tag is one of the spec's tags), so it
// holds from the first apply on.
import type { GuestSummary } from "../../engine/cluster.js";
import type { NetboxClient } from "../../netbox/client.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import { recordIdsIn, recordTagOf } from "../../sources/netbox/record-tag.js";
import { describeRecord, type NetboxVmRecord } from "../../sources/netbox/records.js";

function describeGuest(guest: GuestSummary): string {
  return `vmid ${guest.vmid} (${guest.name ?? "no name"} on ${guest.node})`;
}

/** The records with these ids, described; an id NetBox no longer has is said to be deleted. */
async function describeRecords(netbox: NetboxClient, ids: number[]): Promise<string[]> {
  const found = new Map((await netbox.list("virtualization/virtual-machines", { id: ids })).map((vm) => [vm.id, describeRecord(vm)]));
  return ids.map((id) => found.get(id) ?? `NetBox id ${id} (a record that no longer exists)`);
}

/** A guest tagged for other records: refused, naming them and how to release the guest. */
async function taggedForOthers(netbox: NetboxClient, record: NetboxVmRecord, guest: GuestSummary, others: number[]): Promise<string> {
  const owners = await describeRecords(netbox, others);
  return (
    `${describeGuest(guest)} was built for ${owners.join(" and ")} (tag ${others.map(recordTagOf).join(", ")}), not for ${describeRecord(record.vm)}; ` +
    "a guest belongs to the one record it was built for, so pvectl leaves it alone. Fix the vmid custom field or the name of this record; " +
    `if the guest really is this record's (the other record is gone), remove the tag ${recordTagOf(others[0]!)} from the guest in Proxmox VE`
  );
}

/** An untagged guest (built before the record tag, or adopted): other records naming its vmid make it ambiguous. */
async function untagged(
  netbox: NetboxClient,
  config: NetboxConfig,
  record: NetboxVmRecord,
  guest: GuestSummary,
): Promise<string | undefined> {
  const field = config.customFields.vmid;
  const claimants = (await netbox.list("virtualization/virtual-machines", { [`cf_${field}`]: String(guest.vmid) })).filter(
    (vm) => vm.id !== record.vm.id,
  );
  if (claimants.length === 0) return undefined;
  return (
    `${describeGuest(guest)} carries no record tag (built before pvectl recorded which record a guest belongs to), and ` +
    `${claimants.map(describeRecord).join(" and ")} ${claimants.length > 1 ? "name" : "names"} the same vmid in ${field}; pvectl will not guess which record owns it. ` +
    `Clear ${field} on the records it does not belong to; the next sync binds it (tag ${recordTagOf(record.vm.id)}) to the one left`
  );
}

/**
 * Why the record may not manage (or destroy) the guest it names; undefined when the guest is
 * the record's own, or an untagged guest no other record names.
 */
export async function bindingProblem(
  netbox: NetboxClient,
  config: NetboxConfig,
  record: NetboxVmRecord,
  guest: GuestSummary,
): Promise<string | undefined> {
  const ids = recordIdsIn(guest.tags);
  const others = ids.filter((id) => id !== record.vm.id);
  if (others.length > 0) return taggedForOthers(netbox, record, guest, others);
  if (ids.length > 0) return undefined;
  return untagged(netbox, config, record, guest);
}
