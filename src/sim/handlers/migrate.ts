// POST /nodes/{node}/{qemu|lxc}/{vmid}/migrate: move a guest to another node (qmigrate /
// vzmigrate). Node-local volumes move along (offline, or online with with-local-disks); what
// the API refuses answers the request, what the migration's prepare/scan refuses ends the task;
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

/** `storage 'X' is not available on node 'Y'` (PVE's storage_check_enabled) for a volume's storage, if so. */
function unavailableOn(model: SimCluster, volid: string, node: string): string | undefined {
  const storage = findStorage(model.state, volid.split(":")[0] ?? "");
  if (!storage || storageOnNode(storage, node)) return undefined;
  return storage.enabled ? `storage '${storage.id}' is not available on node '${node}'` : `storage '${storage.id}' is disabled`;
}

/**
 * The checks the API makes before it forks (errors answer the request). qemu-server's
 * migrate_vm also checks the lock and that every volume of the current config has its storage
 * on the target (check_storage_availability); pve-container's leaves both to the task.
 */
function checkRequest(ctx: HandlerContext, model: SimCluster, guest: GuestState, target: string): void {
  if (target === guest.node) throw new PveApiError(400, "Parameter verification failed.", { target: "target is local node." });
  if (!model.node(target)) throw new PveApiError(500, `no such cluster node '${target}'`);
  const running = guest.status === "running";
  if (guest.type === "lxc") {
    if (running && !flag(ctx, "online") && !flag(ctx, "restart")) {
      throw new PveApiError(500, "can't migrate running container without --online or --restart");
    }
    return;
  }
  checkLock(guest);
  if (running && !flag(ctx, "online")) throw new PveApiError(500, "can't migrate running VM without --online");
  for (const [key, value] of Object.entries(guest.config)) {
    if (!isVolumeKey("qemu", key) || /^unused\d+$/.test(key)) continue;
    const volid = driveVolume(String(value));
    const problem = volid === undefined ? undefined : unavailableOn(model, volid, target);
    if (problem) throw new PveApiError(500, problem);
  }
}

/**
 * The task's prepare step (QemuMigrate / LXC::Migrate `prepare`): its error aborts the migration
 * before anything moves. `lockedBefore` is the lock the guest had when the request came (the
 * container's lock is checked here, not in the API).
 */
function prepareProblem(
  model: SimCluster,
  guest: GuestState,
  target: string,
  online: boolean,
  lockedBefore: string | undefined,
  used: UsedVolume[],
): string | undefined {
  if (guest.type === "lxc") {
    if (lockedBefore !== undefined) return `CT is locked (${lockedBefore})`;
    if (guest.status === "running" && online) return "lxc live migration is currently not implemented";
  }
  for (const v of used) {
    const problem = unavailableOn(model, v.volid, target);
    if (problem) return problem;
  }
  // the ssh test to the target
  if (!model.node(target)?.online) return "Can't connect to destination address using public key";
  return undefined;
}

/**
 * QemuMigrate's scan_local_volumes (phase 1): a warning per problem (volumes sorted, then the
 * others), then the migration aborts. Besides the CD-ROMs, a running VM's attached local disk
 * without `with-local-disks`.
 */
function scanProblems(model: SimCluster, guest: GuestState, used: UsedVolume[], withLocalDisks: boolean): string[] {
  const problems = cdromProblems(model, guest, used);
  if (guest.status === "running" && !withLocalDisks) {
    for (const v of used) {
      const storage = findStorage(model.state, v.volid.split(":")[0] ?? "");
      const attached = Object.entries(guest.config).some(
        ([k, value]) => isVolumeKey("qemu", k) && !/^unused\d+$/.test(k) && driveVolume(String(value)) === v.volid,
      );
      if (!storage || storage.shared || v.cdrom || !attached) continue;
      problems.push(`can't migrate local disk '${v.volid}': can't live migrate attached local disks without with-local-disks option`);
    }
  }
  const volumeProblems = problems.filter((p) => p.startsWith("can't migrate local disk ")).sort();
  return [...volumeProblems, ...problems.filter((p) => !p.startsWith("can't migrate local disk "))];
}

function migrate(type: GuestType) {
  return (ctx: HandlerContext): string => {
    const guest = pathGuest(ctx, type);
    const model = sim(ctx);
    const target = str(ctx, "target") ?? "";
    checkRequest(ctx, model, guest, target);
    const running = guest.status === "running";
    const online = flag(ctx, "online");
    const restart = type === "lxc" && flag(ctx, "restart");
    const lockedBefore = guest.config.lock === undefined ? undefined : String(guest.config.lock);
    // the migration holds `lock: migrate` while it runs (a container locked otherwise fails in the task)
    if (lockedBefore === undefined) guest.config.lock = "migrate";
    const ownLock = () => {
      if (lockedBefore === undefined && guest.config.lock === "migrate") delete guest.config.lock;
    };
    const used = usedVolumes(guest);
    const source = guest.node;
    const targetNode = model.requireNode(target);
    const sizes = used.map((v) => findVolume(model.state, v.volid, source)).filter((v): v is VolumeState => v?.node !== undefined);
    return startGuestTask(ctx, {
      type: type === "qemu" ? "qmigrate" : "vzmigrate",
      vmid: guest.vmid,
      kind: "clone",
      bytes: sizes.reduce((sum, v) => sum + v.size, 0) + (running ? 1024 ** 3 : 0),
      onFailure: ownLock,
      work: (task) => {
        const abort = (reason: string): never => {
          ownLock();
          task.log(`ERROR: migration aborted (duration 00:00:00): ${reason}`);
          throw new Error("migration aborted");
        };
        const prepare = prepareProblem(model, guest, target, online, lockedBefore, used);
        if (prepare) abort(prepare);
        task.log(`starting migration of ${type === "qemu" ? "VM" : "CT"} ${guest.vmid} to node '${target}' (${targetNode.ip})`);
        if (type === "qemu") {
          const problems = scanProblems(model, guest, used, flag(ctx, "with-local-disks"));
          if (problems.length > 0) {
            for (const problem of problems) task.log(problem);
            abort("Problem found while scanning volumes - can't migrate VM - check log");
          }
        }
        const local: VolumeState[] = [];
        for (const vol of used) {
          const storage = findStorage(model.state, vol.volid.split(":")[0] ?? "");
          if (!storage || storage.shared || (vol.cdrom && !vol.cloudinit)) continue;
          if (vol.cloudinit) task.log(`found generated disk '${vol.volid}' (in current VM config)`);
          const volume = findVolume(model.state, vol.volid, guest.node);
          if (volume) local.push(volume);
        }
        for (const volume of local) {
          volume.node = target;
          task.log(`volume '${volume.volid}' is '${volume.volid}' on the target`);
        }
        guest.node = target;
        ownLock();
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
