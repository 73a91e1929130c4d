// What mapping a NetBox record takes the same way for a VM and a container: units, disk
// sizes and an interface's VLANs.
import type { NetboxConfig, Unit } from "./config.js";
import type { InterfaceAddresses } from "./addresses.js";
import type { NetboxVmRecord } from "./records.js";

export const UNIT_BYTES: Record<Unit, number> = { MB: 1e6, MiB: 2 ** 20, GB: 1e9, GiB: 2 ** 30 };
export const MAX_NICS = 32;

/** The record's disk sizes in NetBox's unit: its virtual disks, else its disk size, else the default. */
export function diskSizes(record: NetboxVmRecord, config: NetboxConfig): { label: string; size: number; name?: string }[] {
  const { vm } = record;
  const d = config.defaults;
  if (record.disks.length) return record.disks.map((disk) => ({ label: `virtual disk \`${disk.name}\``, size: disk.size, name: disk.name }));
  if (vm.disk !== null && vm.disk !== undefined) return [{ label: "disk", size: vm.disk }];
  return d.diskSize !== undefined ? [{ label: "defaults.diskSize", size: d.diskSize }] : [];
}

/** An interface's VLANs: the untagged one as the tag (access or tagged mode), the tagged ones as trunks. */
export function vlansOf(iface: NetboxVmRecord["interfaces"][number]): { tag?: number; trunks?: string } {
  const mode = iface.mode?.value;
  const out: { tag?: number; trunks?: string } = {};
  if ((mode === "access" || mode === "tagged") && iface.untagged_vlan) out.tag = iface.untagged_vlan.vid;
  if (mode === "tagged" && iface.tagged_vlans?.length) out.trunks = iface.tagged_vlans.map((v) => v.vid).sort((a, b) => a - b).join(";");
  return out;
}


/**
 * The addresses of the record's interface at `index`: as loaded (loadGuestAddresses), else the
 * primary IPv4 on the first interface (a record read without its addresses, as before they were).
 */
export function addressesOn(record: NetboxVmRecord, interfaceId: number, index: number): Omit<InterfaceAddresses, "interfaceId"> {
  if (record.addresses) return record.addresses.find((a) => a.interfaceId === interfaceId) ?? {};
  const primary = index === 0 ? record.vm.primary_ip4?.address : undefined;
  return primary ? { ip4: primary } : {};
}
