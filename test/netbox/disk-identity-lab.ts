// Disk identity with both simulators: a record with two virtual disks (OS 32 GiB, data 100 GiB)
// built and converged by `netbox sync`, and what its guest holds in each slot. Shared by the
// disk identity tests (NetboxLab) and the journey (its desk: `{ nb: desk.nb, pve: desk.root }`,
// syncing through the CLI), so the scenario's steps and checks live in one place.
import assert from "node:assert/strict";
import type { PveClient } from "../../src/api/index.js";
import type { SyncReport } from "../../src/app/netbox/sync.js";
import type { NetboxSimAdmin } from "../../src/netbox/sim/index.js";
import type { Plan } from "../../src/plan/types.js";
import { tryParseSize } from "../../src/pve/size.js";
import { diskTagOf, recordedDisks } from "../../src/sources/netbox/disk-slots.js";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { FAST_APPLY, type NetboxLab } from "../support/netbox-lab.js";

/** What the helpers need: NetBox's admin side and a root PVE client (a NetboxLab, or the journey's desk). */
export interface DiskParts {
  nb: { admin: NetboxSimAdmin };
  pve: PveClient;
}

export const VMS = "virtualization/virtual-machines";
export const DISKS = "virtualization/virtual-disks";
export const GIB_IN_MIB = 1024;
export const GIB = 2 ** 30;

/** A NetBox config (the demo's by default) that converges built records too (day 2). */
export function day2Config(base = DEMO_CONFIG): string {
  return `${base}select:\n  status: [planned, staged, active]\n`;
}
export const DAY2_CONFIG = day2Config();

export interface TwoDiskRecord {
  name: string;
  /** NetBox id of the virtual machine. */
  vmId: number;
  /** NetBox ids of its virtual disks. */
  os: number;
  data: number;
}

/** A `planned` record on the demo cluster (Debian ISO platform) with an OS disk of 32 GiB and a data disk of 100 GiB, in that order. */
export function createTwoDiskRecord(lab: DiskParts, name = "app-01"): TwoDiskRecord {
  const cluster = lab.nb.admin.idOf("virtualization/clusters", { name: "pve-lab" });
  const platform = lab.nb.admin.idOf("dcim/platforms", { slug: "debian-13" });
  const vm = lab.nb.admin.create(VMS, { name, status: "planned", cluster, platform, vcpus: 2, memory: 2048 });
  const vmId = Number(vm.id);
  const os = Number(lab.nb.admin.create(DISKS, { virtual_machine: vmId, name: "os", size: 32 * GIB_IN_MIB }).id);
  const data = Number(lab.nb.admin.create(DISKS, { virtual_machine: vmId, name: "data", size: 100 * GIB_IN_MIB }).id);
  return { name, vmId, os, data };
}

/** A virtual disk added to the record (size in GiB). */
export function addVirtualDisk(lab: DiskParts, vmId: number, name: string, gib: number): number {
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
export async function guestDisks(lab: DiskParts, vmId: number): Promise<GuestDiskView> {
  const vmid = Number(obj(lab.nb.admin.get(VMS, vmId)?.custom_fields).proxmox_vmid);
  const config = (await lab.pve.request("GET", `/nodes/${await nodeOf(lab, vmid)}/qemu/${vmid}/config`)) as Record<string, unknown>;
  const sizes: Record<string, number> = {};
  for (const [key, value] of Object.entries(config)) {
    if (!/^scsi\d+$/.test(key) || typeof value !== "string" || value.includes("media=cdrom")) continue;
    const size = /(?:^|,)size=([^,]+)/.exec(value)?.[1];
    sizes[key] = size === undefined ? -1 : (tryParseSize(size) ?? -1);
  }
  const tags = String(config.tags ?? "")
    .split(/[;, ]/)
    .filter((t) => t !== "");
  const holds = Object.fromEntries(recordedDisks(tags).map((r) => [r.slot, r.id]));
  return { vmid, sizes, holds, tags };
}

/** Takes the identity tags off the guest, as a guest built before pvectl recorded them has none. */
export async function forgetDiskIdentity(lab: DiskParts, view: GuestDiskView): Promise<void> {
  const kept = view.tags.filter((t) => !Object.entries(view.holds).some(([slot, id]) => t === diskTagOf(id, slot)));
  await lab.pve.request("PUT", `/nodes/${await nodeOf(lab, view.vmid)}/qemu/${view.vmid}/config`, { tags: kept.join(";") });
}

async function nodeOf(lab: DiskParts, vmid: number): Promise<string> {
  const rows = (await lab.pve.request("GET", "/cluster/resources", { type: "vm" })) as { vmid: number; node: string }[];
  const row = rows.find((r) => r.vmid === vmid);
  assert.ok(row, `vmid ${vmid} exists`);
  return row.node;
}

/** The plan's entry for a record's guest. */
export function guestPlanOf(plans: Record<string, Plan>, name: string) {
  const guest = Object.values(plans)
    .flatMap((p) => p.guests)
    .find((g) => g.name === name);
  assert.ok(guest, `the plan has ${name}`);
  return guest;
}

export const diskSteps = <S extends { action: string }>(steps: S[]): S[] => steps.filter((s) => s.action.startsWith("disk-"));

/**
 * The whole scenario of issue #37, with its checks: build a record with an OS and a data disk,
 * delete the OS disk's virtual disk in NetBox, sync (the removal of scsi0 alone is planned and
 * held back, nothing grows), sync with allowDataLoss (scsi0 removed, the data disk untouched in
 * scsi1), add a virtual disk (it takes a free slot), sync once more (nothing left to do).
 * `sync` runs `netbox sync` of that record alone with a day-2 config (day2Config) and returns
 * its report (the CLI's `--json` output is the same report).
 */
export async function runDiskIdentityScenario(
  parts: DiskParts,
  sync: (opts: { allowDataLoss?: boolean }) => Promise<SyncReport>,
  name = "app-01",
): Promise<void> {
  const rec = createTwoDiskRecord(parts, name);
  const result = (r: SyncReport) => r.records.find((o) => o.name === name)?.result;
  const built = await sync({});
  assert.equal(result(built), "staged", JSON.stringify(built.records));
  const before = await guestDisks(parts, rec.vmId);
  assert.deepEqual(before.sizes, { scsi0: 32 * GIB, scsi1: 100 * GIB });

  parts.nb.admin.remove(DISKS, rec.os);
  const held = await sync({});
  const steps = diskSteps(guestPlanOf(held.plans, name).steps);
  assert.deepEqual(
    steps.map((s) => s.action),
    ["disk-delete"],
    JSON.stringify(steps),
  );
  assert.match(steps[0]?.summary ?? "", /^delete scsi0 /);
  assert.equal(result(held), "held", "the removal waits for --allow-data-loss");
  assert.deepEqual((await guestDisks(parts, rec.vmId)).sizes, before.sizes, "nothing grown, nothing removed without the flag");
  assert.deepEqual(before.holds, { scsi0: rec.os, scsi1: rec.data }, "the build recorded which virtual disk each slot holds");

  const removed = await sync({ allowDataLoss: true });
  assert.equal(result(removed), "converged", JSON.stringify(removed.records));
  assert.deepEqual((await guestDisks(parts, rec.vmId)).sizes, { scsi1: 100 * GIB }, "the data disk is where it was, as large as it was");

  const logs = addVirtualDisk(parts, rec.vmId, "logs", 10);
  const added = await sync({});
  assert.equal(result(added), "converged", JSON.stringify(added.records));
  const after = await guestDisks(parts, rec.vmId);
  assert.equal(after.sizes.scsi1, 100 * GIB);
  assert.equal(after.holds.scsi1, rec.data);
  const logsSlot = Object.entries(after.holds).find(([, id]) => id === logs)?.[0];
  assert.ok(logsSlot !== undefined && logsSlot !== "scsi1", `the new virtual disk took a free slot (${JSON.stringify(after.holds)})`);
  assert.equal(after.sizes[logsSlot], 10 * GIB);

  const again = await sync({});
  assert.deepEqual(guestPlanOf(again.plans, name).steps, [], "converged: nothing left to do");
}
