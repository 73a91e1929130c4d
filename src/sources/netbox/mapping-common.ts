// What mapping a NetBox record takes the same way for a VM and a container: units, disk
// sizes and an interface's VLANs.
import { hostOf } from "../../netbox/ip.js";
import type { NetboxConfig, Unit } from "./config.js";
import type { InterfaceAddresses } from "./addresses.js";
import { type DiskPlacement, type GuestDisks, placeDisks, recordedDisks, diskTagOf, type SlotRules } from "./disk-slots.js";
import type { NetboxVmRecord } from "./records.js";

export const UNIT_BYTES: Record<Unit, number> = { MB: 1e6, MiB: 2 ** 20, GB: 1e9, GiB: 2 ** 30 };
export const MAX_NICS = 32;

/** The record's disk sizes in NetBox's unit: its virtual disks, else its disk size, else the default. */
export function diskSizes(record: NetboxVmRecord, config: NetboxConfig): { label: string; size: number; name?: string; id?: number }[] {
  const { vm } = record;
  const d = config.defaults;
  if (record.disks.length)
    return record.disks.map((disk) => ({ label: `virtual disk \`${disk.name}\``, size: disk.size, name: disk.name, id: disk.id }));
  if (vm.disk !== null && vm.disk !== undefined) return [{ label: "disk", size: vm.disk }];
  return d.diskSize !== undefined ? [{ label: "defaults.diskSize", size: d.diskSize }] : [];
}

/**
 * What the mapping knows of the guest a record already has (disk-slots.ts): its tags and disks,
 * and the recorded virtual disks that now belong to other records. Absent: a guest to be built.
 */
export interface DiskLayout {
  guest?: GuestDisks;
  /** Virtual disk id -> the record it now belongs to, described. */
  elsewhere?: ReadonlyMap<number, string>;
}

/**
 * The slot of each of the record's disks (by the identity recorded on the guest), sizes in
 * bytes by defaults.diskUnit (a size that is not a positive whole number has none: the caller
 * reports it).
 */
export function placeRecordDisks(
  sizes: ReturnType<typeof diskSizes>,
  config: NetboxConfig,
  rules: SlotRules,
  layout: DiskLayout | undefined,
): DiskPlacement {
  const unit = UNIT_BYTES[config.defaults.diskUnit];
  const disks = sizes.map((s) => ({
    label: s.label,
    ...(s.id !== undefined ? { id: s.id } : {}),
    ...(Number.isInteger(s.size) && s.size > 0 ? { sizeBytes: s.size * unit } : {}),
  }));
  const placement = placeDisks(disks, rules, layout?.guest, layout?.elsewhere);
  // Unmatched: the guest keeps the records it has, so nothing it knows is forgotten.
  if (placement.errors.length > 0) placement.tags = recordedDisks(layout?.guest?.tags ?? []).map((r) => diskTagOf(r.id, r.slot));
  return placement;
}

/** An interface's VLANs: the untagged one as the tag (access or tagged mode), the tagged ones as trunks. */
export function vlansOf(iface: NetboxVmRecord["interfaces"][number]): { tag?: number; trunks?: string } {
  const mode = iface.mode?.value;
  const out: { tag?: number; trunks?: string } = {};
  if ((mode === "access" || mode === "tagged") && iface.untagged_vlan) out.tag = iface.untagged_vlan.vid;
  if (mode === "tagged" && iface.tagged_vlans?.length)
    out.trunks = iface.tagged_vlans
      .map((v) => v.vid)
      .sort((a, b) => a - b)
      .join(";");
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

/**
 * The IPv4 gateway of an interface's address: the platform's `gw` (`platformKey` names it in
 * messages), else the gateway of the address's prefix; with where it came from.
 */
export function ipv4GatewayOf(
  a: Omit<InterfaceAddresses, "interfaceId">,
  platformGw: string | undefined,
  platformKey: string,
): { address: string; from: string } | undefined {
  if (platformGw !== undefined) return { address: platformGw, from: platformKey };
  return a.gw4 !== undefined ? { address: a.gw4, from: a.gw4From ?? "its prefix" } : undefined;
}

/**
 * What is wrong with an interface's IPv4 and its gateway, if anything: no gateway at all (the
 * platform names none and the prefix records none: pvectl does not guess the router), or an
 * address that is its own gateway.
 */
export function gatewayProblem(
  interfaceName: string,
  a: Omit<InterfaceAddresses, "interfaceId">,
  gw: { address: string; from: string } | undefined,
  platformKey: string,
): string | undefined {
  if (a.ip4 !== undefined && gw === undefined && a.gw4Missing !== undefined)
    return `interface ${interfaceName}: its IPv4 ${a.ip4} has no gateway: ${a.gw4Missing} (or set \`${platformKey}\`)`;
  return gatewayClash(interfaceName, a.ip4, gw);
}

/**
 * An address equal to its gateway: the guest would answer for the router and every other
 * guest would route through it. Refused (the record keeps its status), saying where the
 * gateway came from so the operator knows which of the two to change.
 */
export function gatewayClash(
  interfaceName: string,
  ip4: string | undefined,
  gw: { address: string; from: string } | undefined,
): string | undefined {
  if (ip4 === undefined || gw === undefined || hostOf(ip4) !== gw.address) return undefined;
  return (
    `interface ${interfaceName}: its IPv4 ${ip4} is its own gateway (${gw.address}, ${gw.from}); ` +
    "give the record another address in NetBox, or set the router's real address as the gateway"
  );
}
