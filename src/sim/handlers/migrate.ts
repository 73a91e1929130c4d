// POST /nodes/{node}/{qemu|lxc}/{vmid}/migrate: move a guest to another node (qmigrate /
// vzmigrate). Node-local volumes move along (offline, or online with with-local-disks);
// the guest holds `lock: migrate` while the task runs.
import { driveVolume, isCdrom, isVolumeKey } from "../cluster/drives.js";
import { checkLock } from "../cluster/guest-config.js";
import type { GuestState, GuestType, VolumeState } from "../cluster/types.js";
import { findStorage, findVolume, storageOnNode } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { flag, pathGuest, sim, startGuestTask, str } from "./context.js";

/** Every volume the guest uses (current config and snapshots), with whether it is a CD-ROM. */
function usedVolumes(guest: GuestState): Array<{ key: string; volid: string; cdrom: boolean }> {
  const out: Array<{ key: string; volid: string; cdrom: boolean }> = [];
  for (const config of [guest.config, ...guest.snapshots.map((s) => s.config)]) {
    for (const [key, value] of Object.entries(config)) {
      if (!isVolumeKey(guest.type, key)) continue;
      const volid = driveVolume(String(value));
      if (volid && !out.some((v) => v.volid === volid)) out.push({ key, volid, cdrom: isCdrom(String(value)) });
    }
  }
  return out;
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
    const local: VolumeState[] = [];
    for (const used of usedVolumes(guest)) {
      const storage = findStorage(model.state, used.volid.split(":")[0] ?? "");
      if (!storage || storage.shared) continue;
      if (used.cdrom) throw new PveApiError(500, `can't migrate local cdrom drive (referenced in '${used.key}')`);
      if (!storageOnNode(storage, target)) {
        throw new PveApiError(500, `storage '${storage.id}' is not available on node '${target}'`);
      }
      if (type === "qemu" && running && !flag(ctx, "with-local-disks")) {
        throw new PveApiError(500, "can't live migrate attached local disks without with-local-disks option");
      }
      const volume = findVolume(model.state, used.volid, guest.node);
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
