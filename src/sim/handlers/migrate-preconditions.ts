// GET /nodes/{node}/{qemu|lxc}/{vmid}/migrate: what a migration would meet (qemu-server's and
// pve-container's migrate_vm_precondition). A VM reports every other node in
// `not_allowed_nodes` (an empty object when nothing stands in the way: PVE fills the hash for
// every node), its node-local volumes with their attributes, local and mapped resources; a
// container reports only allowed nodes and HA blockers (PVE 9.1). Neither checks node
// liveness or memory: PVE does not. The simulator has no resource mappings, so a mapped device
// is missing on every node.
import { tryParseSize } from "../../pve/index.js";
import { driveVolume, isCdrom, isVolumeKey } from "../cluster/drives.js";
import { checkLock } from "../cluster/guest-config.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestConfig, GuestState, GuestType } from "../cluster/types.js";
import { findStorage, storageOnNode } from "../cluster/volumes.js";
import type { HandlerContext, Router } from "../contract.js";
import { motionInfo } from "../ha/commands.js";
import { haManaged, sidOf } from "../ha/sid.js";
import { pathGuest, sim } from "./context.js";
import { localResources, option } from "./local-resources.js";

type Row = Record<string, unknown>;

const DRIVE_KEY = /^(?:ide|sata|scsi|virtio|efidisk|tpmstate)\d+$/;

/** foreach_volid's attributes of every node-local volume (current config, pending, snapshots). */
function localDisks(model: SimCluster, guest: GuestState): Row[] {
  const disks = new Map<string, Row>();
  const visit = (config: GuestConfig, snapshot: string | undefined, pending: boolean) => {
    for (const [key, raw] of Object.entries(config)) {
      if (!isVolumeKey("qemu", key) && key !== "vmstate") continue;
      const text = String(raw);
      const volid = key === "vmstate" ? text : text.split(",")[0]?.replace(/^file=/, "");
      if (!volid || volid === "none") continue;
      const storage = driveVolume(text) ? findStorage(model.state, volid.split(":")[0] ?? "") : undefined;
      if (storage?.shared || option(text, "shared") === "1") continue;
      const d = disks.get(volid) ?? { volid };
      const cdrom = key !== "vmstate" && isCdrom(text);
      d.cdrom = d.cdrom === undefined ? (cdrom ? 1 : 0) : d.cdrom === 1 && cdrom ? 1 : 0;
      d.is_cloudinit = d.is_cloudinit === 1 || /vm-\d+-cloudinit/.test(volid) ? 1 : 0;
      d.replicate = d.replicate === 1 || option(text, "replicate") !== "0" ? 1 : 0;
      d.shared = 0;
      const unused = /^unused\d+$/.test(key);
      d.is_unused = d.is_unused === 1 || unused ? 1 : 0;
      d.is_attached = d.is_attached === 1 || (!unused && snapshot === undefined && !pending) ? 1 : 0;
      if (snapshot !== undefined) d.referenced_in_snapshot = { ...((d.referenced_in_snapshot as Row) ?? {}), [snapshot]: 1 };
      if (pending) d.referenced_in_pending = 1;
      const size = tryParseSize(option(text, "size") ?? "");
      if (d.size === undefined && size) d.size = size;
      d.is_vmstate = d.is_vmstate === 1 || key === "vmstate" ? 1 : 0;
      d.is_tpmstate = d.is_tpmstate === 1 || key === "tpmstate0" ? 1 : 0;
      if (DRIVE_KEY.test(key)) d.drivename = key;
      disks.set(volid, d);
    }
  };
  visit(guest.config, undefined, false);
  if (Object.keys(guest.pending).length > 0) visit(guest.pending, undefined, true);
  for (const snap of guest.snapshots) visit(snap.config, snap.name, false);
  return [...disks.values()].sort((a, b) => String(a.volid).localeCompare(String(b.volid)));
}

/** check_local_storage_availability: storages of the current config's drives missing on a node. */
function unavailableStorages(model: SimCluster, guest: GuestState, node: string): string[] {
  const missing = new Set<string>();
  for (const [key, raw] of Object.entries(guest.config)) {
    if (!isVolumeKey("qemu", key) || /^unused\d+$/.test(key)) continue;
    const volid = driveVolume(String(raw));
    const storage = volid ? findStorage(model.state, volid.split(":")[0] ?? "") : undefined;
    if (storage && (!storage.enabled || !storageOnNode(storage, node))) missing.add(storage.id);
  }
  return [...missing].sort();
}

function haInfo(model: SimCluster, guest: GuestState) {
  return haManaged(guest) ? motionInfo(model, sidOf(guest)) : undefined;
}

function qemuPreconditions(ctx: HandlerContext): Row {
  return vmPreconditions(sim(ctx), pathGuest(ctx, "qemu"));
}

/** A VM's preconditions (also what migrateall checks before each VM). */
export function vmPreconditions(model: SimCluster, guest: GuestState): Row {
  checkLock(guest);
  const running = guest.status === "running";
  const { local, mapped } = localResources(guest.config, running);
  const ha = haInfo(model, guest);
  const allowed: string[] = [];
  const notAllowed: Record<string, Row> = {};
  for (const node of model.nodeNames()) {
    if (node === guest.node) continue;
    const reasons: Row = {};
    const storages = unavailableStorages(model, guest, node);
    if (storages.length > 0) reasons.unavailable_storages = storages;
    if (Object.keys(mapped).length > 0) reasons["unavailable-resources"] = Object.keys(mapped);
    const blocking = ha?.blockingByNode[node];
    if (blocking) reasons["blocking-ha-resources"] = blocking;
    notAllowed[node] = reasons;
    if (Object.keys(reasons).length === 0) allowed.push(node);
  }
  return {
    running: running ? 1 : 0,
    allowed_nodes: allowed,
    not_allowed_nodes: notAllowed,
    ...(ha ? { "dependent-ha-resources": ha.comigrated } : {}),
    local_disks: localDisks(model, guest),
    local_resources: local,
    "mapped-resources": Object.keys(mapped).sort(),
    "mapped-resource-info": mapped,
    "has-dbus-vmstate": 1,
  };
}

function lxcPreconditions(ctx: HandlerContext): Row {
  const guest = pathGuest(ctx, "lxc");
  const model = sim(ctx);
  checkLock(guest);
  const ha = haInfo(model, guest);
  const allowed: string[] = [];
  const notAllowed: Record<string, Row> = {};
  for (const node of model.nodeNames()) {
    if (node === guest.node) continue;
    const blocking = ha?.blockingByNode[node];
    if (blocking) notAllowed[node] = { "blocking-ha-resources": blocking };
    else allowed.push(node);
  }
  return {
    running: guest.status === "running" ? 1 : 0,
    "allowed-nodes": allowed,
    "not-allowed-nodes": notAllowed,
    ...(ha ? { "dependent-ha-resources": ha.comigrated } : {}),
  };
}

export function registerMigratePreconditionHandlers(router: Router): void {
  const byType: Record<GuestType, (ctx: HandlerContext) => Row> = { qemu: qemuPreconditions, lxc: lxcPreconditions };
  router.add("GET", "/nodes/{node}/qemu/{vmid}/migrate", byType.qemu);
  router.add("GET", "/nodes/{node}/lxc/{vmid}/migrate", byType.lxc);
}
