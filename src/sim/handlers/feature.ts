// GET …/{qemu|lxc}/{vmid}/feature: can the guest's volumes be snapshotted, cloned, copied?
import type { SimCluster } from "../cluster/model.js";
import type { GuestConfig, GuestState, GuestType } from "../cluster/types.js";
import { snapshotDiskVolids } from "../cluster/snapshot-space.js";
import { findStorage, findVolume, storageOnNode } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { pathGuest, sim, str } from "./context.js";

/** True when every disk of the config can take a snapshot. */
export function snapshotsPossible(model: SimCluster, guest: GuestState, config: GuestConfig): boolean {
  return snapshotDiskVolids(guest, config).every((v) => canSnapshot(model, guest, v));
}

/** Storage types and formats that take snapshots (file storages only with qcow2). */
export function canSnapshot(model: SimCluster, guest: GuestState, volid: string): boolean {
  const storage = findStorage(model.state, volid.split(":")[0] ?? "");
  if (!storage) return false;
  // btrfs snapshots raw images and subvolumes (as subvolume snapshots) and qcow2 files
  if (["lvmthin", "zfspool", "rbd", "btrfs"].includes(storage.type)) return true;
  if (storage.type === "lvm") return false;
  return findVolume(model.state, volid, guest.node)?.format === "qcow2";
}

function feature(type: GuestType) {
  return (ctx: HandlerContext): Record<string, unknown> => {
    const guest = pathGuest(ctx, type);
    const model = sim(ctx);
    let config = guest.config;
    const snapname = str(ctx, "snapname");
    if (snapname !== undefined) {
      const snap = guest.snapshots.find((s) => s.name === snapname);
      if (!snap) throw new PveApiError(500, `snapshot '${snapname}' does not exist`);
      config = snap.config;
    }
    const wanted = str(ctx, "feature");
    const vols = snapshotDiskVolids(guest, config);
    // copy works everywhere; snapshots need a snapshot-capable storage/format; linked clones
    // (feature "clone") need that too and a base image (template) or a snapshot as source
    const linkable = vols.every((v) => canSnapshot(model, guest, v));
    let has = true;
    if (wanted === "snapshot") has = linkable;
    if (wanted === "clone") has = linkable && (guest.config.template === 1 || snapname !== undefined);
    if (type === "lxc") return { hasFeature: has ? 1 : 0 };
    // nodes that see every volume: all nodes for shared storages, else only this one
    const nodes = model.state.nodes
      .filter((n) =>
        vols.every((v) => {
          const s = findStorage(model.state, v.split(":")[0] ?? "");
          return s !== undefined && storageOnNode(s, n.name) && (s.shared || n.name === guest.node);
        }),
      )
      .map((n) => n.name);
    return { hasFeature: has ? 1 : 0, nodes };
  };
}

export function registerFeatureHandlers(router: Router): void {
  router.add("GET", "/nodes/{node}/qemu/{vmid}/feature", feature("qemu"));
  router.add("GET", "/nodes/{node}/lxc/{vmid}/feature", feature("lxc"));
}
