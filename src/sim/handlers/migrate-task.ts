// The migration task (qmigrate / vzmigrate) as QemuMigrate and LXC::Migrate run it, started by
// POST …/migrate and by the simulated HA manager alike: prepare, scan of the local volumes,
// then node-local volumes move along (to a mapped storage with targetstorage) and the guest's
// node changes. The guest holds `lock: migrate` while the task runs.
import { volumeOf } from "../../pve/index.js";
import { driveVolume, isCdrom, isVolumeKey, withVolume } from "../cluster/drives.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState, VolumeState } from "../cluster/types.js";
import { addVolume, dropVolume, findStorage, findVolume, storageOnNode, volumeName } from "../cluster/volumes.js";
import type { TaskManager } from "../contract.js";
import { localResources } from "./local-resources.js";

export interface UsedVolume {
  key: string;
  volid: string;
  cdrom: boolean;
  /** A VM's cloud-init drive (vm-<vmid>-cloudinit): QemuMigrate calls it a generated disk. */
  cloudinit: boolean;
}

/** Every volume the guest uses (current config and snapshots), with whether it is a CD-ROM. */
export function usedVolumes(guest: GuestState): UsedVolume[] {
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
export function unavailableOn(model: SimCluster, volid: string, node: string): string | undefined {
  const storage = findStorage(model.state, volid.split(":")[0] ?? "");
  if (!storage || storageOnNode(storage, node)) return undefined;
  return storage.enabled ? `storage '${storage.id}' is not available on node '${node}'` : `storage '${storage.id}' is disabled`;
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
  force: boolean,
): string | undefined {
  if (guest.type === "lxc") {
    if (lockedBefore !== undefined) return `CT is locked (${lockedBefore})`;
    if (guest.status === "running" && online) return "lxc live migration is currently not implemented";
  }
  if (guest.type === "qemu") {
    const devices = deviceProblem(guest, target, force);
    if (devices) return devices;
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
 * QemuMigrate's prepare on local and mapped devices: local ones need `force` (root only); a
 * mapped one must exist on the target (the simulator has no mappings: it never does) and be
 * live-migratable when the VM runs.
 */
function deviceProblem(guest: GuestState, target: string, force: boolean): string | undefined {
  const running = guest.status === "running";
  const { local, mapped } = localResources(guest.config, running);
  const blocking = local.filter((key) => mapped[key] === undefined);
  if (blocking.length > 0 && !force) return `can't migrate VM which uses local devices: ${blocking.join(", ")}`;
  const keys = Object.keys(mapped).sort();
  if (keys.length > 0) return `can't migrate to '${target}': missing mapped devices ${keys.join(", ")}`;
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

/** A parsed storage map (PVE::JSONSchema::parse_idmap): `1` (identity), a default, source:target pairs. */
export interface StorageMap {
  identity?: boolean;
  default?: string;
  entries: Record<string, string>;
}

/** The storage a local volume of `storage` lands on. */
export function mappedStorage(map: StorageMap | undefined, storage: string): string {
  if (!map || map.identity) return storage;
  return map.entries[storage] ?? map.default ?? storage;
}

export interface MigrationOptions {
  target: string;
  online: boolean;
  /** Containers: stop before and start after (restart mode). */
  restart: boolean;
  withLocalDisks: boolean;
  /** Migrate a VM with local devices anyway (root@pam only; the HA stack always sets it). */
  force?: boolean;
  storageMap?: StorageMap;
  /** The task's user when not the caller (the HA stack migrates as root@pam). */
  user?: string;
  /** Called when the task has ended (`ok` false when it failed or was cut short). */
  onDone?: (ok: boolean) => void;
}

/** Moves the node-local volumes to the target (renamed onto a mapped storage) and rewrites the config. */
function moveLocalVolumes(
  model: SimCluster,
  guest: GuestState,
  volumes: VolumeState[],
  opts: MigrationOptions,
  log: (l: string) => void,
): void {
  for (const volume of volumes) {
    const storage = mappedStorage(opts.storageMap, volume.storage);
    const volid = `${storage}:${volumeName(volume.volid)}`;
    const shared = findStorage(model.state, storage)?.shared ?? false;
    if (volid === volume.volid) {
      volume.node = opts.target;
    } else {
      dropVolume(model.state, volume);
      const moved: VolumeState = { ...volume, volid, storage };
      if (shared) delete moved.node;
      else moved.node = opts.target;
      addVolume(model.state, moved);
      for (const [key, value] of Object.entries(guest.config)) {
        if (isVolumeKey(guest.type, key) && driveVolume(String(value)) === volume.volid) {
          guest.config[key] = withVolume(guest.type, key, String(value), volid);
        }
      }
    }
    log(`volume '${volume.volid}' is '${volid}' on the target`);
  }
}

/** Starts the migration task on the guest's node; the guest holds `lock: migrate` from now on. */
export function startMigration(model: SimCluster, tasks: TaskManager, guest: GuestState, opts: MigrationOptions): string {
  const { target } = opts;
  const type = guest.type;
  const running = guest.status === "running";
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
  return tasks.start({
    node: source,
    type: type === "qemu" ? "qmigrate" : "vzmigrate",
    id: String(guest.vmid),
    kind: "migrate",
    bytes: sizes.reduce((sum, v) => sum + v.size, 0) + (running && type === "qemu" ? guestMemory(guest) : 0),
    ...(opts.user ? { user: opts.user } : {}),
    onFailure: () => {
      ownLock();
      opts.onDone?.(false);
    },
    work: (task) => {
      const abort = (reason: string): never => {
        ownLock();
        task.log(`ERROR: migration aborted (duration 00:00:00): ${reason}`);
        opts.onDone?.(false);
        throw new Error("migration aborted");
      };
      const prepare = prepareProblem(model, guest, target, opts.online, lockedBefore, used, opts.force === true);
      if (prepare) abort(prepare);
      task.log(`starting migration of ${type === "qemu" ? "VM" : "CT"} ${guest.vmid} to node '${target}' (${targetNode.ip})`);
      if (type === "qemu") {
        const problems = scanProblems(model, guest, used, opts.withLocalDisks);
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
      const restarting = opts.restart && running && type === "lxc";
      if (restarting) model.markStopped(guest);
      moveLocalVolumes(model, guest, local, opts, (l) => task.log(l));
      guest.node = target;
      ownLock();
      if (restarting) model.markRunning(guest);
      task.log(`migration finished successfully (from ${source})`);
      opts.onDone?.(true);
    },
  });
}

/** The VM's configured memory in bytes (what an online migration copies). */
function guestMemory(guest: GuestState): number {
  const mib = Number.parseInt(String(guest.config.memory ?? "2048"), 10);
  return (Number.isFinite(mib) ? mib : 2048) * 1024 * 1024;
}
