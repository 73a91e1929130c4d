// The engine's view of a QEMU guest, desired and live, after normalization: values are
// strings in one canonical form (numbers without trailing zeros, booleans as "1"/"0",
// sizes in bytes), disks and NICs keyed by slot, tags sorted. Both sides are brought to this
// shape before anything is compared, so a difference here is a real difference.

import type { CloneSpec, HaState, PowerState } from "../kind.js";
import type { Retention } from "../snapshot-prune.js";

export type { PowerState };

/** The device sections of a spec, as `VmSpec.unmanaged` names them (`cloudInit`: the cloud-init drive). */
export type DeviceKind = "disks" | "cdroms" | "nics" | "cloudInit";

export interface DesiredDisk {
  /** `scsi0`, `virtio1`, `ide2` ... */
  slot: string;
  kind: "disk" | "cdrom" | "cloudinit";
  /** Disks and the cloud-init drive: the storage that holds (or will hold) the volume. */
  storage?: string;
  sizeBytes?: number;
  /** Image format (`raw`, `qcow2`, `vmdk`): a new volume's, and an existing one is moved to it when it differs; undefined: not managed. */
  format?: string;
  /** New volumes only: create from this image (PVE `import-from`). */
  importFrom?: string;
  /** CD-ROMs: a volume id such as `local:iso/debian.iso`, or `none`. */
  iso?: string;
  /** Drive sub-options the spec sets (discard, ssd, iothread, cache, backup ...), normalized. */
  options: Record<string, string>;
}

export interface DesiredNic {
  /** `net0` ... */
  slot: string;
  /** Undefined: the spec leaves the model out; an existing NIC keeps its model, a new one gets virtio. */
  model?: string;
  bridge: string;
  /** Only when the spec names a MAC; otherwise the guest's generated one is kept. */
  macaddr?: string;
  /** tag, firewall, mtu, queues, rate, link_down, trunks: only those the spec sets. */
  options: Record<string, string>;
}

export interface DesiredVm {
  /** Absent: qemu (kept optional so every DesiredVm made before containers still is one). */
  kind: "qemu";
  /** The guest's name in the spec: how plans, reports and errors refer to it. */
  key: string;
  name: string;
  vmid?: number;
  node: string;
  /** Plain config keys the spec sets (cores, memory, ostype ...), normalized. */
  options: Record<string, string>;
  /** Sorted, without pvectl's ownership tag; undefined: tags are not managed. */
  tags?: string[];
  disks: DesiredDisk[];
  nics: DesiredNic[];
  /** Disk slots to detach (volume kept as unusedN) rather than delete when the spec drops them. */
  detach?: string[];
  /**
   * Device kinds the spec left out entirely (no `disks:`, `cdroms:`, `nics:` or `cloudInit:`
   * key): live devices of that kind that the spec does not list are kept, never removed.
   * Absent: all managed.
   */
  unmanaged?: DeviceKind[];
  /** efidisk0 / tpmstate0 as new-volume strings (`local-lvm:1,efitype=4m`); added when missing. */
  special: Record<string, string>;
  /** Absent: the spec does not care whether the guest runs. */
  power?: PowerState;
  /** true: a template (converted once, never started); false: must not be one; absent: not managed. */
  template?: boolean;
  /** The spec asks for the guest to be gone. */
  absent?: boolean;
  /** The pool the guest belongs to (joined, left or moved to); undefined: membership not managed. */
  pool?: string;
  /**
   * The spec entry says `adopt: true`: an existing guest pvectl did not create (no ownership
   * tag) may be managed; the plan adds the ownership tag as its own step.
   */
  adopt?: boolean;
  /** Made by cloning another guest when it does not exist yet (ignored once it exists). */
  clone?: CloneSpec;
  /** Snapshot retention (`snapshots:`): apply prunes beyond it; undefined: snapshots are not managed. */
  snapshots?: Retention;
}

export interface LiveDisk {
  slot: string;
  kind: "disk" | "cdrom" | "cloudinit";
  /** The volume id (`local-lvm:vm-100-disk-0`), `none` for an empty drive, or a path. */
  volume: string;
  storage?: string;
  sizeBytes?: number;
  /** The volume's image format (pve-storage's: a file's extension, raw on block storages); undefined when not known. */
  format?: string;
  /** Every other sub-option as written in the config, normalized (without file/size/media). */
  options: Record<string, string>;
}

export interface LiveNic {
  slot: string;
  model: string;
  macaddr?: string;
  bridge?: string;
  options: Record<string, string>;
}

export interface LiveVm {
  /** Absent: qemu (read before containers); tells a LiveVm from a LiveCt in the LiveGuest union. */
  kind: "qemu";
  vmid: number;
  node: string;
  name?: string;
  status: PowerState;
  lock?: string;
  template: boolean;
  /** The guest has snapshots (PVE refuses to destroy a volume one of them uses). */
  snapshotted?: true;
  digest?: string;
  /** Effective config (pending values applied) without disks, NICs and tags, normalized. */
  options: Record<string, string>;
  /** All tags, sorted, including the ownership tag. */
  tags: string[];
  disks: Record<string, LiveDisk>;
  nics: Record<string, LiveNic>;
  /** Volumes the guest holds as `unusedN` (detached, not deleted). */
  unused: Record<string, string>;
  /** Keys with a change waiting in PVE's pending section (applied at the next reboot). */
  pendingKeys: string[];
  /** The options in effect now, when something is pending (kind.ts LiveBase). */
  optionsInEffect?: Record<string, string>;
  /** The guest's `hotplug` features (PVE default `network,disk,usb`). */
  hotplug: string[];
  /** The pool the guest is a member of (from /cluster/resources); undefined: none. */
  pool?: string;
  /** Its HA resource (kind.ts HaState); undefined: not one. */
  ha?: HaState;
}

/** The ownership tag is every kind's (resources/ownership.ts); the qemu modules take it from here. */
export { OWNERSHIP_TAG } from "../ownership.js";

export const NIC_SLOT = /^net(\d+)$/;
