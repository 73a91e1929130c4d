// Snapshots of QEMU and LXC guests: list (with the synthetic "current" entry), create (qemu:
// optional vmstate), delete, rollback, and the snapshot's config.
import { driveSize, driveVolume, isDiskKey, isVolumeKey } from "../cluster/drives.js";
import { checkLock } from "../cluster/guest-config.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestConfig, GuestState, GuestType, SnapshotState } from "../cluster/types.js";
import { findVolume } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { flag, pathGuest, sim, startGuestTask, str } from "./context.js";
import { snapshotsPossible } from "./feature.js";
import { startVm } from "./qemu-power.js";

type Entry = Record<string, string | number>;

const NOT_IN_SNAPSHOT = new Set(["lock", "parent", "snaptime", "vmstate", "snapstate", "description"]);

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

function requireSnapshot(guest: GuestState, name: string): SnapshotState {
  const snap = guest.snapshots.find((s) => s.name === name);
  if (!snap) throw new PveApiError(500, `snapshot '${name}' does not exist`);
  return snap;
}

/**
 * Runs a snapshot operation under a config lock that is visible while its task runs
 * (`snapshot`, `snapshot-delete`, `rollback`). A guest already locked fails the task.
 */
function lockedTask(
  ctx: HandlerContext,
  guest: GuestState,
  options: { type: string; lock: string; work: (log: (l: string) => void) => void },
): string {
  const alreadyLocked = guest.config.lock;
  if (alreadyLocked === undefined) guest.config.lock = options.lock;
  return startGuestTask(ctx, {
    type: options.type,
    vmid: guest.vmid,
    kind: "snapshot",
    onFailure: () => {
      if (alreadyLocked === undefined && guest.config.lock === options.lock) delete guest.config.lock;
    },
    work: (task) => {
      if (alreadyLocked !== undefined) checkLock(guest);
      try {
        options.work((l) => task.log(l));
      } finally {
        if (guest.config.lock === options.lock) delete guest.config.lock;
      }
    },
  });
}

function snapshotConfig(config: GuestConfig): GuestConfig {
  const out: GuestConfig = {};
  for (const [k, v] of Object.entries(config)) if (!NOT_IN_SNAPSHOT.has(k)) out[k] = v;
  if (config.description !== undefined) out.description = config.description;
  return out;
}

function createSnapshot(type: GuestType) {
  return (ctx: HandlerContext): string => {
    const guest = pathGuest(ctx, type);
    const model = sim(ctx);
    const name = str(ctx, "snapname") ?? "";
    if (name === "current" || name === "pending") {
      throw new PveApiError(500, `unable to use snapshot name '${name}' (reserved name)`);
    }
    const description = str(ctx, "description") ?? "";
    const vmstate = type === "qemu" && flag(ctx, "vmstate") && guest.status === "running";
    return lockedTask(ctx, guest, {
      type: type === "qemu" ? "qmsnapshot" : "vzsnapshot",
      lock: "snapshot",
      work: (log) => {
        if (guest.config.template === 1) throw new Error(`you can't take a snapshot if it's a template`);
        if (guest.snapshots.some((s) => s.name === name)) throw new Error(`snapshot name '${name}' already used`);
        if (!snapshotsPossible(model, guest, guest.config)) throw new Error("snapshot feature is not available");
        const snap: SnapshotState = {
          name,
          description,
          snaptime: model.now(),
          vmstate,
          config: snapshotConfig(guest.config),
        };
        if (guest.config.parent !== undefined) snap.parent = String(guest.config.parent);
        guest.snapshots.push(snap);
        guest.config.parent = name;
        if (vmstate) log("saving VM state and RAM using storage 'local-lvm'");
      },
    });
  };
}

function deleteSnapshot(type: GuestType) {
  return (ctx: HandlerContext): string => {
    const guest = pathGuest(ctx, type);
    const name = str(ctx, "snapname") ?? "";
    // PVE checks the snapshot inside the worker: a missing one fails the task
    return lockedTask(ctx, guest, {
      type: type === "qemu" ? "qmdelsnapshot" : "vzdelsnapshot",
      lock: "snapshot-delete",
      work: () => {
        const snap = requireSnapshot(guest, name);
        for (const s of guest.snapshots) {
          if (s.parent === name) {
            if (snap.parent) s.parent = snap.parent;
            else delete s.parent;
          }
        }
        if (guest.config.parent === name) {
          if (snap.parent) guest.config.parent = snap.parent;
          else delete guest.config.parent;
        }
        guest.snapshots = guest.snapshots.filter((s) => s !== snap);
      },
    });
  };
}

function volumesOf(guest: GuestState, config: GuestConfig): Set<string> {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(config)) {
    if (!isVolumeKey(guest.type, k)) continue;
    const volid = driveVolume(String(v));
    if (volid) out.add(volid);
  }
  return out;
}

function restore(model: SimCluster, guest: GuestState, snap: SnapshotState): void {
  const keep = volumesOf(guest, snap.config);
  const restored: GuestConfig = { ...snap.config, parent: snap.name };
  delete restored.description;
  if (snap.config.description !== undefined) restored.description = snap.config.description;
  let n = 0;
  for (const volid of volumesOf(guest, guest.config)) {
    if (keep.has(volid)) continue;
    while (restored[`unused${n}`] !== undefined) n++;
    restored[`unused${n}`] = volid;
  }
  for (const [k, v] of Object.entries(snap.config)) {
    if (!isDiskKey(guest.type, k)) continue;
    const volume = findVolume(model.state, driveVolume(String(v)) ?? "", guest.node);
    const size = driveSize(guest.type, k, String(v));
    if (volume && size > 0) volume.size = size;
  }
  guest.config = restored;
  guest.pending = {};
  guest.pendingDelete = {};
}

function rollback(type: GuestType) {
  return (ctx: HandlerContext): string => {
    const guest = pathGuest(ctx, type);
    const model = sim(ctx);
    const name = str(ctx, "snapname") ?? "";
    const start = flag(ctx, "start");
    return lockedTask(ctx, guest, {
      type: type === "qemu" ? "qmrollback" : "vzrollback",
      lock: "rollback",
      work: () => {
        const snap = requireSnapshot(guest, name);
        if (guest.status === "running") model.markStopped(guest);
        restore(model, guest, snap);
        guest.config.lock = "rollback";
        if (snap.vmstate || start) {
          delete guest.config.lock;
          if (type === "qemu") startVm(model, guest, true);
          else model.markRunning(guest);
        }
      },
    });
  };
}

function snapshotConfigGet(type: GuestType) {
  return (ctx: HandlerContext): GuestConfig => {
    const guest = pathGuest(ctx, type);
    const snap = requireSnapshot(guest, str(ctx, "snapname") ?? "");
    const out: GuestConfig = { ...snap.config, snaptime: snap.snaptime, digest: sim(ctx).digest(guest) };
    if (type === "qemu") out.vmstate = snap.vmstate ? 1 : 0;
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
    return [{ rel: "child", href: "config" }, { rel: "child", href: "rollback" }];
  };
}

export function registerSnapshotHandlers(router: Router): void {
  for (const type of ["qemu", "lxc"] as const) {
    const base = `/nodes/{node}/${type}/{vmid}/snapshot`;
    router.add("GET", base, listSnapshots(type));
    router.add("POST", base, createSnapshot(type));
    router.add("GET", `${base}/{snapname}`, snapshotIndex(type));
    router.add("DELETE", `${base}/{snapname}`, deleteSnapshot(type));
    router.add("POST", `${base}/{snapname}/rollback`, rollback(type));
    router.add("GET", `${base}/{snapname}/config`, snapshotConfigGet(type));
    router.add("PUT", `${base}/{snapname}/config`, snapshotConfigPut(type));
  }
}
