// Snapshots of QEMU and LXC guests: the list (with the synthetic "current" entry), a snapshot's
// config section, and the routes of create, delete and rollback (snapshot-ops.ts).
import type { GuestConfig, GuestType } from "../cluster/types.js";
import type { HandlerContext, Router } from "../contract.js";
import { pathGuest, sim, str } from "./context.js";
import { createSnapshot, deleteSnapshot, requireSnapshot, rollbackSnapshot } from "./snapshot-ops.js";

type Entry = Record<string, string | number>;

function listSnapshots(type: GuestType) {
  return (ctx: HandlerContext): Entry[] => {
    const guest = pathGuest(ctx, type);
    const model = sim(ctx);
    const out: Entry[] = guest.snapshots
      .slice()
      .sort((a, b) => a.snaptime - b.snaptime)
      .map((s) => {
        const e: Entry = { name: s.name, description: s.description, snaptime: s.snaptime };
        if (type === "qemu") e.vmstate = s.vmstate ? 1 : 0;
        if (s.parent) e.parent = s.parent;
        return e;
      });
    const current: Entry = {
      name: "current",
      description: "You are here!",
      digest: model.digest(guest),
      running: guest.status === "running" ? 1 : 0,
    };
    if (guest.config.parent !== undefined) current.parent = String(guest.config.parent);
    out.push(current);
    return out;
  };
}

function snapshotConfigGet(type: GuestType) {
  return (ctx: HandlerContext): GuestConfig => {
    const guest = pathGuest(ctx, type);
    const snap = requireSnapshot(guest, str(ctx, "snapname") ?? "");
    // the section as written in the config: `vmstate` is the state volume, only when saved
    const out: GuestConfig = { ...snap.config, snaptime: snap.snaptime, digest: sim(ctx).digest(guest) };
    if (snap.parent) out.parent = snap.parent;
    if (snap.description) out.description = snap.description;
    return out;
  };
}

function snapshotConfigPut(type: GuestType) {
  return (ctx: HandlerContext): null => {
    const guest = pathGuest(ctx, type);
    const snap = requireSnapshot(guest, str(ctx, "snapname") ?? "");
    const description = str(ctx, "description");
    if (description !== undefined) snap.description = description;
    return null;
  };
}

function snapshotIndex(type: GuestType) {
  return (ctx: HandlerContext): Array<Record<string, string>> => {
    requireSnapshot(pathGuest(ctx, type), str(ctx, "snapname") ?? "");
    return [
      { rel: "child", href: "config" },
      { rel: "child", href: "rollback" },
    ];
  };
}

export function registerSnapshotHandlers(router: Router): void {
  for (const type of ["qemu", "lxc"] as const) {
    const base = `/nodes/{node}/${type}/{vmid}/snapshot`;
    router.add("GET", base, listSnapshots(type));
    router.add("POST", base, createSnapshot(type));
    router.add("GET", `${base}/{snapname}`, snapshotIndex(type));
    router.add("DELETE", `${base}/{snapname}`, deleteSnapshot(type));
    router.add("POST", `${base}/{snapname}/rollback`, rollbackSnapshot(type));
    router.add("GET", `${base}/{snapname}/config`, snapshotConfigGet(type));
    router.add("PUT", `${base}/{snapname}/config`, snapshotConfigPut(type));
  }
}
