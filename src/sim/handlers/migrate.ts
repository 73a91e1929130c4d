// POST /nodes/{node}/{qemu|lxc}/{vmid}/migrate: move a guest to another node (qmigrate /
// vzmigrate). Node-local volumes move along (offline, or online with with-local-disks);
// the guest holds `lock: migrate` while the task runs.
import { volumeOf } from "../../pve/index.js";
import { driveVolume, isCdrom, isVolumeKey } from "../cluster/drives.js";
import { checkLock } from "../cluster/guest-config.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState, GuestType, VolumeState } from "../cluster/types.js";
import { findStorage, findVolume, storageOnNode } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { flag, pathGuest, sim, startGuestTask, str } from "./context.js";

interface UsedVolume {
  key: string;
  volid: string;
  cdrom: boolean;
  /** A VM's cloud-init drive (vm-<vmid>-cloudinit): QemuMigrate calls it a generated disk. */
  cloudinit: boolean;
}

/** Every volume the guest uses (current config and snapshots), with whether it is a CD-ROM. */
function usedVolumes(guest: GuestState): UsedVolume[] {
  const out: UsedVolume[] = [];
  for (const config of [guest.config, ...guest.snapshots.map((s) => s.config)]) {
    for (const [key, value] of Object.entries(config)) {
      if (!isVolumeKey(guest.type, key)) continue;
      const volid = driveVolume(String(value));
      if (!volid || out.some((v) => v.volid === volid)) continue;
      const cdrom = isCdrom(String(value));
      out.push({ key, volid, cdrom, cloudinit: cdrom && /vm-\d+-cloudinit/.test(volid) });
    }
  }
  return out;
}

/**
 * What QemuMigrate's scan_local_volumes refuses among CD-ROMs: the host's drive (`cdrom`) and a
 * CD-ROM image on a node-local storage. A local cloud-init drive is not among them: it is a
 * generated disk and moves along.
 */
function cdromProblems(model: SimCluster, guest: GuestState, used: UsedVolume[]): string[] {
  const problems: string[] = [];
  const configs = [guest.config, ...guest.snapshots.map((s) => s.config)];
  const hostDrive = configs.some((c) => Object.entries(c).some(([k, v]) => isVolumeKey(guest.type, k) && volumeOf(String(v)) === "cdrom"));
  if (hostDrive) problems.push("can't migrate local cdrom drive");
  for (const v of used) {
    if (!v.cdrom || v.cloudinit || findStorage(model.state, v.volid.split(":")[0] ?? "")?.shared) continue;
    problems.push(`can't migrate local disk '${v.volid}': local cdrom image`);
  }
  return problems;
}

function migrate(type: GuestType) {
  return (ctx: HandlerContext): string => {
    const guest = pathGuest(ctx, type);
    const model = sim(ctx);
    const target = str(ctx, "target") ?? "";
    if (target === guest.node) throw new PveApiError(400, "Parameter verification failed.", { target: "target is local node." });
    const targetNode = model.requireNode(target);
    if (!targetNode.online) throw new PveApiError(500, `target node '${target}' is not online`);
    const running = guest.status === "running";
    const online = flag(ctx, "online");
    const restart = type === "lxc" && flag(ctx, "restart");
    if (running && type === "qemu" && !online) throw new PveApiError(500, "can't migrate running VM without --online");
    if (running && type === "lxc" && !restart && !online) {
      throw new PveApiError(500, "can't migrate running container without --online or --restart");
    }
    checkLock(guest);
    const used = usedVolumes(guest);
    const problems = type === "qemu" ? cdromProblems(model, guest, used) : [];
    const local: VolumeState[] = [];
    const generated: string[] = [];
    for (const vol of used) {
      const storage = findStorage(model.state, vol.volid.split(":")[0] ?? "");
      if (!storage || storage.shared || (vol.cdrom && !vol.cloudinit)) continue;
      if (!storageOnNode(storage, target)) {
        throw new PveApiError(500, `storage '${storage.id}' is not available on node '${target}'`);
      }
      if (vol.cloudinit) generated.push(vol.volid);
      else if (type === "qemu" && running && !flag(ctx, "with-local-disks")) {
        throw new PveApiError(500, "can't live migrate attached local disks without with-local-disks option");
      }
      const volume = findVolume(model.state, vol.volid, guest.node);
      if (volume) local.push(volume);
    }
    guest.config.lock = "migrate";
    const source = guest.node;
    return startGuestTask(ctx, {
      type: type === "qemu" ? "qmigrate" : "vzmigrate",
      vmid: guest.vmid,
      kind: "clone",
      bytes: local.reduce((sum, v) => sum + v.size, 0) + (running ? 1024 ** 3 : 0),
      onFailure: () => {
        if (guest.config.lock === "migrate") delete guest.config.lock;
      },
      work: (task) => {
        // pve-container accepts `online` in the API and refuses it in LXC::Migrate's prepare
        if (type === "lxc" && running && online && !restart) {
          if (guest.config.lock === "migrate") delete guest.config.lock;
          throw new Error("lxc live migration is currently not implemented");
        }
        task.log(`starting migration of ${type === "qemu" ? "VM" : "CT"} ${guest.vmid} to node '${target}' (${targetNode.ip})`);
        if (problems.length > 0) {
          // scan_local_volumes warns about each, then phase 1 aborts the migration
          for (const problem of problems) task.log(problem);
          if (guest.config.lock === "migrate") delete guest.config.lock;
          task.log("ERROR: migration aborted (duration 00:00:00): Problem found while scanning volumes - can't migrate VM - check log");
          throw new Error("migration aborted");
        }
        for (const volid of generated) task.log(`found generated disk '${volid}' (in current VM config)`);
        for (const volume of local) {
          volume.node = target;
          task.log(`volume '${volume.volid}' is '${volume.volid}' on the target`);
        }
        guest.node = target;
        if (guest.config.lock === "migrate") delete guest.config.lock;
        if (restart && running) {
          model.markStopped(guest);
          model.markRunning(guest);
        }
        task.log(`migration finished successfully (from ${source})`);
      },
    });
  };
}

export function registerMigrateHandlers(router: Router): void {
  router.add("POST", "/nodes/{node}/qemu/{vmid}/migrate", migrate("qemu"));
  router.add("POST", "/nodes/{node}/lxc/{vmid}/migrate", migrate("lxc"));
}
