// Config changes: normalising values as PVE writes them, pending changes, applying them
// (immediately when stopped, hot-plugging what can be hot-plugged when running), and what
// happens to volumes when a disk is replaced or deleted (→ unusedN, or freed with force).
import {
  driveBusOf,
  isCloudinitDrive,
  isUnusedKey,
  normaliseTags,
  parseNewVolume,
  printTags,
  storedDescription,
  volumeOf,
} from "../../pve/index.js";
import { PveApiError } from "../contract.js";
import { driveVolume, inAllocationOrder, isCdrom, isDiskKey, materialiseDrive, ownsVolume } from "./drives.js";
import type { SimCluster } from "./model.js";
import { normaliseNic } from "./nics.js";
import type { ConfigValue, GuestConfig, GuestState, VolumeState } from "./types.js";
import { removeVolume } from "./volumes.js";

/** Options that always apply at once, also on a running guest. */
const FAST_PLUG = new Set([
  "description",
  "hookscript",
  "lock",
  "migrate_downtime",
  "migrate_speed",
  "name",
  "onboot",
  "protection",
  "shares",
  "startup",
  "tags",
  "vmstatestorage",
  "ciuser",
  "cipassword",
  "citype",
  "cicustom",
  "ciupgrade",
  "sshkeys",
  "nameserver",
  "searchdomain",
  "balloon",
  "cpuunits",
  "cpulimit",
]);

/** Config keys whose schema type is `number`: PVE returns them as strings. */
const NUMBER_KEYS = new Set(["cpulimit", "migrate_downtime"]);

export function checkLock(guest: GuestState, skiplock = false): void {
  const lock = guest.config.lock;
  if (lock !== undefined && !skiplock) {
    throw new PveApiError(500, `${guest.type === "qemu" ? "VM" : "CT"} is locked (${lock})`);
  }
}

function hotplugFeatures(config: GuestConfig): Set<string> {
  const raw = String(config.hotplug ?? "network,disk,usb");
  if (raw === "0") return new Set();
  if (raw === "1") return new Set(["network", "disk", "usb"]);
  return new Set(raw.split(","));
}

/** pve-container: options applied at once to a running container ($LXC_FASTPLUG_OPTIONS). */
const LXC_FAST_PLUG = new Set(["description", "onboot", "startup", "protection", "hostname", "hookscript", "cores", "tags", "lock"]);

/**
 * pve-container's vmconfig_hotplug_pending. Deleting: fast-plug options, unusedN (the volume is
 * freed), swap, cpulimit, cpuunits and net0..net9 (its pattern takes one digit, so deleting
 * net10 and up waits for a restart). Setting: fast-plug options, cpulimit, cpuunits, any netN,
 * memory and swap, and mpN/devN that do not exist yet (a changed mount point waits).
 */
function lxcHotpluggable(guest: GuestState, key: string, deleting: boolean): boolean {
  if (LXC_FAST_PLUG.has(key) || key === "cpulimit" || key === "cpuunits") return true;
  if (deleting) return key === "swap" || isUnusedKey(key) || /^net\d$/.test(key);
  if (/^net\d+$/.test(key) || key === "memory" || key === "swap") return true;
  return /^(mp|dev)\d+$/.test(key) && guest.config[key] === undefined;
}

function hotpluggable(guest: GuestState, key: string, deleting = false): boolean {
  if (guest.type === "lxc") return lxcHotpluggable(guest, key, deleting);
  if (FAST_PLUG.has(key) || /^ipconfig\d+$/.test(key)) return true;
  const features = hotplugFeatures(guest.config);
  if (/^net\d+$/.test(key)) return features.has("network");
  const bus = driveBusOf(key);
  if (bus === "scsi" || bus === "virtio" || isUnusedKey(key)) return features.has("disk");
  if (/^usb\d+$/.test(key) || key === "tablet") return features.has("usb");
  if (key === "vcpus") return features.has("cpu");
  if (key === "memory") return features.has("memory");
  return false;
}

/** The config with pending values applied (what GET config returns by default). */
export function effectiveConfig(guest: GuestState): GuestConfig {
  const out: GuestConfig = { ...guest.config, ...guest.pending };
  for (const key of Object.keys(guest.pendingDelete)) delete out[key];
  return out;
}

export function nextUnusedKey(guest: GuestState): string {
  let n = 0;
  while (guest.config[`unused${n}`] !== undefined || guest.pending[`unused${n}`] !== undefined) n++;
  return `unused${n}`;
}

function volumeInSnapshots(guest: GuestState, volid: string): boolean {
  return guest.snapshots.some((s) => Object.entries(s.config).some(([k, v]) => isDiskKey(guest.type, k) && volumeOf(String(v)) === volid));
}

/** A volume that leaves a disk slot: freed (force) or remembered as unusedN. */
function releaseVolume(model: SimCluster, guest: GuestState, value: ConfigValue, force: boolean): void {
  const volid = driveVolume(String(value));
  if (volid && isCloudinitDrive(volid) && ownsVolume(guest.vmid, volid)) {
    // a removed cloud-init drive is freed, never kept as unusedN
    removeVolume(model.state, volid, guest.node);
    return;
  }
  if (!volid || isCdrom(String(value)) || !ownsVolume(guest.vmid, volid)) return;
  const stillUsed = Object.values(guest.config).some((v) => typeof v === "string" && volumeOf(v) === volid);
  if (stillUsed) return;
  if (force && !volumeInSnapshots(guest, volid)) {
    removeVolume(model.state, volid, guest.node);
    return;
  }
  guest.config[nextUnusedKey(guest)] = volid;
}

function applyOne(model: SimCluster, guest: GuestState, key: string): void {
  if (key in guest.pendingDelete) {
    const force = guest.pendingDelete[key] ?? false;
    delete guest.pendingDelete[key];
    const old = guest.config[key];
    if (old === undefined) return;
    delete guest.config[key];
    if (isUnusedKey(key)) {
      const volid = volumeOf(String(old)) ?? "";
      if (!volumeInSnapshots(guest, volid)) removeVolume(model.state, volid, guest.node);
    } else if (isDiskKey(guest.type, key)) {
      // containers have no force: a removed mount point always becomes unusedN
      releaseVolume(model, guest, old, guest.type === "qemu" && force);
    }
    return;
  }
  if (!(key in guest.pending)) return;
  // a container's mount point kept pending as asked (STORAGE:SIZE) gets its volume only now
  const value = isDeferredMountPoint(guest, key, guest.pending[key] as ConfigValue)
    ? normaliseValue(model, guest, key, guest.pending[key] as ConfigValue, [])
    : (guest.pending[key] as ConfigValue);
  delete guest.pending[key];
  const old = guest.config[key];
  guest.config[key] = value;
  if (isDiskKey(guest.type, key)) {
    const newVol = volumeOf(String(value));
    // re-attaching a detached volume removes its unusedN entry
    for (const [k, v] of Object.entries(guest.config)) {
      if (isUnusedKey(k) && volumeOf(String(v)) === newVol) delete guest.config[k];
    }
    if (old !== undefined && volumeOf(String(old)) !== newVol) releaseVolume(model, guest, old, false);
  }
}

/**
 * pve-container writes a changed mount point of a running CT to pending as given and allocates
 * a `STORAGE:SIZE` volume only when the change is applied (apply_pending_mountpoint at the next
 * start); a new mount point is hot-plugged, and allocated, at once. qemu-server allocates at once.
 */
function isDeferredMountPoint(guest: GuestState, key: string, value: ConfigValue): boolean {
  if (guest.type !== "lxc" || !/^mp\d+$/.test(key)) return false;
  return parseNewVolume(volumeOf(String(value)) ?? "") !== undefined;
}

/** Applies every pending change (stopped guest, start, reboot). */
export function applyPending(model: SimCluster, guest: GuestState): void {
  for (const key of Object.keys(guest.pendingDelete)) applyOne(model, guest, key);
  for (const key of Object.keys(guest.pending)) applyOne(model, guest, key);
}

/** Applies what a running guest can take live; the rest stays pending. */
export function hotplugPending(model: SimCluster, guest: GuestState): void {
  for (const key of Object.keys(guest.pendingDelete)) if (hotpluggable(guest, key, true)) applyOne(model, guest, key);
  for (const key of Object.keys(guest.pending)) if (hotpluggable(guest, key)) applyOne(model, guest, key);
}

export interface ConfigUpdate {
  set: Record<string, ConfigValue>;
  delete: string[];
  revert: string[];
  force: boolean;
}

/** Normalises a value as PVE stores it (MACs, volumes, tags, generated ids). */
export function normaliseValue(
  model: SimCluster,
  guest: GuestState,
  key: string,
  value: ConfigValue,
  allocated: VolumeState[],
): ConfigValue {
  if (/^net\d+$/.test(key)) {
    return normaliseNic(guest.type, key, String(value), () => model.newMac());
  }
  if (isDiskKey(guest.type, key)) {
    return materialiseDrive({
      state: model.state,
      type: guest.type,
      vmid: guest.vmid,
      node: guest.node,
      key,
      value: String(value),
      now: model.now(),
      allocated,
    });
  }
  if (key === "tags") return printTags(normaliseTags(String(value)));
  // What PVE reads back from the `#` lines it wrote (qemu trims, containers end each line in \n).
  if (key === "description") return storedDescription(guest.type, String(value));
  if (key === "vmgenid" && (value === "1" || value === 1)) return model.newUuid();
  if (NUMBER_KEYS.has(key)) return String(value);
  return value;
}

/** Writes a config update into the guest (pending first, then applied or hot-plugged). */
export function updateGuestConfig(model: SimCluster, guest: GuestState, update: ConfigUpdate, warn: (line: string) => void): void {
  const allocated: VolumeState[] = [];
  const values: GuestConfig = {};
  try {
    for (const key of inAllocationOrder(guest.type, Object.keys(update.set))) {
      const value = update.set[key] as ConfigValue;
      const deferred = guest.status === "running" && guest.config[key] !== undefined && isDeferredMountPoint(guest, key, value);
      values[key] = deferred ? value : normaliseValue(model, guest, key, value, allocated);
    }
  } catch (err) {
    for (const v of allocated) removeVolume(model.state, v.volid, guest.node);
    throw err;
  }
  for (const key of update.delete) {
    if (guest.config[key] === undefined && guest.pending[key] === undefined) {
      warn(`cannot delete '${key}' - not set in current configuration!`);
      continue;
    }
    delete guest.pending[key];
    if (guest.config[key] !== undefined) guest.pendingDelete[key] = update.force;
  }
  for (const key of update.revert) {
    const reverted = guest.pending[key];
    delete guest.pending[key];
    delete guest.pendingDelete[key];
    // a volume allocated for a reverted pending disk is kept as unusedN, not lost
    if (reverted !== undefined && isDiskKey(guest.type, key)) {
      const volid = driveVolume(String(reverted));
      const inUse = Object.values(guest.config).some((v) => typeof v === "string" && volumeOf(v) === volid);
      if (volid && !inUse && ownsVolume(guest.vmid, volid)) guest.config[nextUnusedKey(guest)] = volid;
    }
  }
  for (const [key, value] of Object.entries(values)) {
    guest.pending[key] = value;
    delete guest.pendingDelete[key];
  }
  if (guest.status !== "running") applyPending(model, guest);
  else hotplugPending(model, guest);
}
