// DELETE /nodes/{node}/{qemu|lxc}/{vmid}: referenced volumes are removed; with
// destroy-unreferenced-disks also every volume named for the vmid; purge cleans jobs and HA.
import { driveVolume, isVolumeKey, ownsVolume } from "../cluster/drives.js";
import { flockAtStart } from "../cluster/config-flock.js";
import { checkLock } from "../cluster/guest-config.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState, GuestType } from "../cluster/types.js";
import { removeVolume, storageOnNode, volumeOwner } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { flag, guestLabel, pathGuest, rootOnly, sim, startGuestTask } from "./context.js";
import { guestReplicationJob, removeGuestReplicationJobs } from "./replication-config.js";

/** Volumes a guest's config (current, pending and snapshots, with their RAM states) references and owns. */
export function referencedVolumes(guest: GuestState): string[] {
  const out = new Set<string>();
  const configs = [guest.config, guest.pending, ...guest.snapshots.map((s) => s.config)];
  for (const config of configs) {
    for (const [key, value] of Object.entries(config)) {
      if (!isVolumeKey(guest.type, key)) continue;
      const volid = driveVolume(String(value));
      if (volid && ownsVolume(guest.vmid, volid)) out.add(volid);
    }
  }
  // a snapshot's saved RAM is a volume of its own (vm-<vmid>-state-<snap>)
  for (const snap of guest.snapshots) if (snap.config.vmstate !== undefined) out.add(String(snap.config.vmstate));
  return [...out];
}

/** Removes a vmid from backup jobs (purge); a job left without guests is removed. */
function purgeFromJobs(model: SimCluster, vmid: number): void {
  model.state.backupJobs = model.state.backupJobs.filter((job) => {
    if (job.vmid === undefined) return true;
    const ids = String(job.vmid)
      .split(",")
      .filter((v) => v !== "" && Number(v) !== vmid);
    if (ids.length === 0) return false;
    job.vmid = ids.join(",");
    return true;
  });
}

const inUseByClones = (model: SimCluster, volid: string) => model.state.volumes.some((v) => v.parent === volid);

export function destroyGuest(
  model: SimCluster,
  guest: GuestState,
  opts: { unreferenced: boolean; purge: boolean },
  log: (l: string) => void,
): void {
  // qemu-server looks at a template's base volumes before freeing anything
  if (guest.type === "qemu" && guest.config.template === 1) {
    const used = referencedVolumes(guest).find((volid) => inUseByClones(model, volid));
    if (used) throw new Error(`base volume '${used}' is still in use by linked cloned`);
  }
  const previousLock = guest.config.lock;
  guest.config.lock = "destroyed";
  try {
    for (const volid of referencedVolumes(guest)) {
      // pve-container frees volume by volume: vdisk_free refuses a base in use, and what was
      // freed before it stays freed (the container and its config stay)
      if (inUseByClones(model, volid))
        throw new Error(`base volume '${volid.slice(volid.indexOf(":") + 1)}' is still in use by linked clones`);
      if (removeVolume(model.state, volid, guest.node)) log(`Removing image: 100% complete...done. (${volid})`);
    }
    if (opts.unreferenced) {
      for (const v of [...model.state.volumes]) {
        if (v.vmid !== guest.vmid && volumeOwner(v.volid) !== guest.vmid) continue;
        if (v.content !== "images" && v.content !== "rootdir") continue;
        const storage = model.state.storages.find((s) => s.id === v.storage);
        if (!storage || !storageOnNode(storage, guest.node)) continue;
        if (!storage.shared && v.node !== guest.node) continue;
        removeVolume(model.state, v.volid, guest.node);
        log(`Removing unreferenced volume '${v.volid}'`);
      }
    }
  } catch (err) {
    if (previousLock === undefined) delete guest.config.lock;
    else guest.config.lock = previousLock;
    throw err;
  }
  model.removeFromPools(guest.vmid);
  if (opts.purge) {
    purgeFromJobs(model, guest.vmid);
    removeGuestReplicationJobs(model.state, guest.vmid);
  }
  model.state.guests = model.state.guests.filter((g) => g !== guest);
}

function destroy(type: GuestType) {
  return (ctx: HandlerContext): string => {
    rootOnly(ctx, "skiplock");
    const guest = pathGuest(ctx, type);
    const model = sim(ctx);
    const label = guestLabel(guest);
    const vmid = guest.vmid;
    if (guest.config.protection === 1) {
      throw new PveApiError(500, `can't remove ${label} ${vmid} - protection mode enabled`);
    }
    if (guest.hastate !== undefined && !flag(ctx, "purge")) {
      throw new PveApiError(500, `unable to remove ${label} ${vmid} - used in HA resources and purge parameter not set.`);
    }
    const replicated = flag(ctx, "purge") ? undefined : guestReplicationJob(model.state, vmid);
    if (replicated)
      throw new PveApiError(500, `There is a replication job '${replicated.id}' for guest '${vmid}' - Please remove that first.`);
    // pve-container checks the lock at once and may stop a running CT first (`force`)
    const force = type === "lxc" && flag(ctx, "force");
    if (type === "lxc") checkLock(guest);
    if (guest.status === "running" && !force) {
      throw new PveApiError(
        500,
        type === "qemu" ? `VM ${vmid} is running - destroy failed` : `unable to destroy CT ${vmid} - container is running`,
      );
    }
    const skiplock = flag(ctx, "skiplock");
    const opts = { unreferenced: flag(ctx, "destroy-unreferenced-disks"), purge: flag(ctx, "purge") };
    const waitFlock = flockAtStart(model.state, type, vmid);
    return startGuestTask(ctx, {
      type: type === "qemu" ? "qmdestroy" : "vzdestroy",
      vmid,
      kind: "destroy",
      work: (task) => {
        waitFlock();
        if (!model.state.guests.includes(guest))
          throw new Error(
            `Configuration file 'nodes/${guest.node}/${type === "qemu" ? "qemu-server" : "lxc"}/${vmid}.conf' does not exist`,
          );
        if (guest.config.lock !== "suspended") checkLock(guest, skiplock);
        if (guest.status === "running" && force) {
          task.warn(`forced to stop CT ${vmid} before destroying!`);
          model.markStopped(guest);
        }
        if (guest.status === "running")
          throw new Error(
            type === "qemu" ? `VM ${vmid} is running - destroy failed` : `unable to destroy CT ${vmid} - container is running`,
          );
        destroyGuest(model, guest, opts, (l) => task.log(l));
        if (opts.purge) task.log(`purging ${label} ${vmid} from related configurations..`);
      },
    });
  };
}

export function registerGuestDestroy(router: Router): void {
  router.add("DELETE", "/nodes/{node}/qemu/{vmid}", destroy("qemu"));
  router.add("DELETE", "/nodes/{node}/lxc/{vmid}", destroy("lxc"));
}
