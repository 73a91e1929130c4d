// Disk identity in the NetBox lab (both simulators): a record with two virtual disks (OS 32 GiB,
// data 100 GiB) built and converged by `netbox sync`, and what its guest holds in each slot.
// Shared by the disk identity tests and the journey (one place for the scenario's steps).
import { tryParseSize } from "../../src/pve/size.js";
import { diskTagOf, recordedDisks } from "../../src/sources/netbox/disk-slots.js";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "./helpers.js";
import { FAST_APPLY, type NetboxLab } from "./lab.js";

export const VMS = "virtualization/virtual-machines";
export const DISKS = "virtualization/virtual-disks";
export const GIB_IN_MIB = 1024;
export const GIB = 2 ** 30;

/** The demo config converging built records too (day 2). */
export const DAY2_CONFIG = `${DEMO_CONFIG}select:\n  status: [planned, staged, active]\n`;

export interface TwoDiskRecord {
  name: string;
  /** NetBox id of the virtual machine. */
  vmId: number;
  /** NetBox ids of its virtual disks. */
  os: number;
  data: number;
}

/** A `planned` record on the demo cluster (Debian ISO platform) with an OS disk of 32 GiB and a data disk of 100 GiB, in that order. */
export function createTwoDiskRecord(lab: NetboxLab, name = "app-01"): TwoDiskRecord {
  const cluster = lab.nb.admin.idOf("virtualization/clusters", { name: "pve-lab" });
  const platform = lab.nb.admin.idOf("dcim/platforms", { slug: "debian-13" });
  const vm = lab.nb.admin.create(VMS, { name, status: "planned", cluster, platform, vcpus: 2, memory: 2048 });
  const vmId = Number(vm.id);
  const os = Number(lab.nb.admin.create(DISKS, { virtual_machine: vmId, name: "os", size: 32 * GIB_IN_MIB }).id);
  const data = Number(lab.nb.admin.create(DISKS, { virtual_machine: vmId, name: "data", size: 100 * GIB_IN_MIB }).id);
  return { name, vmId, os, data };
}

/** A virtual disk added to the record (size in GiB). */
export function addVirtualDisk(lab: NetboxLab, vmId: number, name: string, gib: number): number {
  return Number(lab.nb.admin.create(DISKS, { virtual_machine: vmId, name, size: gib * GIB_IN_MIB }).id);
}

/** `netbox sync` of this record alone (day 2 config), with the fast apply; `allowDataLoss` releases disk removals. */
export function syncRecord(lab: NetboxLab, name: string, opts: { allowDataLoss?: boolean; planOnly?: boolean } = {}) {
  return lab.sync({
    selection: { names: [name] },
    apply: { ...FAST_APPLY, ...(opts.allowDataLoss ? { allowDataLoss: true } : {}) },
    ...(opts.planOnly ? { planOnly: true } : {}),
  });
}

export interface GuestDiskView {
  vmid: number;
  /** scsiN -> size in bytes. */
  sizes: Record<string, number>;
  /** scsiN -> NetBox virtual disk id, as the guest's identity tags record it. */
  holds: Record<string, number>;
  tags: string[];
}

/** The record's guest (by the vmid written back): its SCSI disks' sizes and the identity its tags record. */
export async function guestDisks(lab: NetboxLab, vmId: number): Promise<GuestDiskView> {
  const vmid = Number(obj(lab.nb.admin.get(VMS, vmId)?.custom_fields).proxmox_vmid);
  const config = (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as Record<string, unknown>;
  const sizes: Record<string, number> = {};
  for (const [key, value] of Object.entries(config)) {
    if (!/^scsi\d+$/.test(key) || typeof value !== "string" || value.includes("media=cdrom")) continue;
    const size = /(?:^|,)size=([^,]+)/.exec(value)?.[1];
    sizes[key] = size === undefined ? -1 : (tryParseSize(size) ?? -1);
  }
  const tags = String(config.tags ?? "").split(/[;, ]/).filter((t) => t !== "");
  const holds = Object.fromEntries(recordedDisks(tags).map((r) => [r.slot, r.id]));
  return { vmid, sizes, holds, tags };
}

/** Takes the identity tags off the guest, as a guest built before pvectl recorded them has none. */
export async function forgetDiskIdentity(lab: NetboxLab, view: GuestDiskView): Promise<void> {
  const kept = view.tags.filter((t) => !Object.entries(view.holds).some(([slot, id]) => t === diskTagOf(id, slot)));
  await lab.pve.request("PUT", `/nodes/pve1/qemu/${view.vmid}/config`, { tags: kept.join(";") });
}
