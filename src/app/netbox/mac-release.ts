// Which MACs on a retired record's interfaces pvectl wrote, so decommission releases those and
// nothing else. A MAC a person set by hand (a DHCP reservation) is the one the guest was built
// with (the mapping copies the interface's MAC into the NIC), so "equals the guest's MAC" proves
// nothing; the proofs are what pvectl itself leaves:
// - the `pvectl: <name>` description on the MAC objects it creates (NetBox >= 4.2), as on the
//   addresses it allocates;
// - the journal entry a sync writes when it succeeds, which lists each MAC it wrote back
//   (`eth0 MAC BC:24:11:...`): the proof for MAC objects an older pvectl created without the
//   description, and for the interface's `mac_address` before NetBox 4.2 (a field, nothing to mark).
// Without either (journal off or deleted), the MAC stays: keeping a stale MAC costs a person a
// click, deleting a reservation breaks a network.
import type { NetboxClient } from "../../netbox/client.js";
import { describeRecord, type NetboxVmRecord } from "../../sources/netbox/records.js";

const VMINTERFACE = "virtualization.vminterface";

/** The description pvectl gives the MAC objects it creates for a record. */
export function macMarker(name: string): string {
  return `pvectl: ${name}`;
}

/** "eth0 BC:24:11:00:00:01" for each MAC a sync's success journal entry says pvectl wrote. */
async function macsTheJournalNames(netbox: NetboxClient, record: NetboxVmRecord): Promise<Set<string>> {
  const notes = await netbox.list("extras/journal-entries", {
    assigned_object_type: "virtualization.virtualmachine",
    assigned_object_id: record.vm.id,
  });
  const out = new Set<string>();
  for (const note of notes) {
    const wrote = /^pvectl .*?; wrote (.*)$/s.exec(note.comments)?.[1] ?? "";
    for (const m of wrote.matchAll(/(?:^|, )(\S+) MAC ([0-9A-Fa-f:]{17})(?=,|$)/g)) out.add(`${m[1]} ${m[2]?.toUpperCase()}`);
  }
  return out;
}

/** Deletes the MACs pvectl wrote on the record's interfaces; returns what went ("MAC ..."). */
export async function releaseMacs(netbox: NetboxClient, record: NetboxVmRecord): Promise<string[]> {
  const released: string[] = [];
  const subject = describeRecord(record.vm);
  const ifaceIds = record.interfaces.map((i) => i.id);
  if (ifaceIds.length === 0) return released;
  let journal: Set<string> | undefined;
  const journalNames = async (ifaceId: number | null | undefined, mac: string) => {
    journal ??= await macsTheJournalNames(netbox, record);
    const iface = record.interfaces.find((i) => i.id === ifaceId);
    return iface !== undefined && journal.has(`${iface.name} ${mac.toUpperCase()}`);
  };
  if (await netbox.atLeast(4, 2)) {
    const macs = await netbox.list("dcim/mac-addresses", { assigned_object_type: VMINTERFACE, assigned_object_id: ifaceIds });
    for (const mac of macs) {
      const ours =
        mac.description === macMarker(record.vm.name) ||
        (!mac.description && (await journalNames(mac.assigned_object_id, mac.mac_address)));
      if (!ours) continue;
      await netbox.delete("dcim/mac-addresses", mac.id, `MAC ${mac.mac_address} of ${subject}`);
      released.push(`MAC ${mac.mac_address}`);
    }
    return released;
  }
  for (const iface of record.interfaces) {
    if (!iface.mac_address || !(await journalNames(iface.id, iface.mac_address))) continue;
    await netbox.request("PATCH", `virtualization/interfaces/${iface.id}/`, { body: { mac_address: null }, subject });
    released.push(`MAC ${iface.mac_address}`);
  }
  return released;
}
