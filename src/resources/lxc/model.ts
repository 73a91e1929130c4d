// The engine's view of an LXC container, desired and live, after normalization (the same
// canonical forms as qemu/model.ts: numbers without trailing zeros, booleans "1"/"0", sizes in
// bytes, tags sorted). Mount points and NICs are keyed by slot (`rootfs`, `mp0`, `net0`), so a
// change to one never recreates another, and a NIC keeps its MAC unless the spec names one.

import type { SecretRef } from "../../plan/types.js";
import type { DesiredBase, LiveBase, PowerState } from "../kind.js";

/** The device sections of a container spec, as `DesiredCt.unmanaged` names them. */
export type CtDeviceKind = "mounts" | "nics";

/** `rootfs` or `mp0` .. `mp255`. */
export const MOUNT_SLOT = /^(rootfs|mp(\d+))$/;
export const CT_NIC_SLOT = /^net(\d+)$/;

export interface DesiredMount {
  slot: string;
  /** A new volume is allocated on this storage (with `sizeBytes`); also the target of a move. */
  storage?: string;
  sizeBytes?: number;
  /**
   * A bind mount: the host path mounted into the container (`/srv/data`). Only root@pam may
   * write one (pve-container's check_ct_modify_config_perm), so plans flag it.
   */
  bindPath?: string;
  /** Where the volume appears in the container (mount points only; rootfs is `/`). */
  mountpoint?: string;
  /** backup, acl, quota, replicate, ro, shared, mountoptions: only those the spec sets, normalized. */
  options: Record<string, string>;
}

export interface DesiredCtNic {
  /** `net0` ... */
  slot: string;
  /** The interface name inside the container (`eth0`); PVE requires it. */
  name: string;
  bridge?: string;
  /** Only when the spec names a MAC; otherwise the container's generated one is kept. */
  hwaddr?: string;
  /** ip, gw, ip6, gw6, tag, trunks, firewall, rate, mtu, link_down, type: only those the spec sets. */
  options: Record<string, string>;
}

/**
 * Where a create-time secret comes from (the root password): resolved by the executor when
 * it sends the create call, never stored in a plan. Which variables and files a spec may
 * name is the operator's secret policy (sources/secret-policy.ts). Defined with the plan's
 * calls, which carry it.
 */
export type { SecretRef } from "../../plan/types.js";

export interface DesiredCt extends DesiredBase {
  kind: "lxc";
  /** The container's hostname (PVE's `hostname`; `name` in the spec is its alias). */
  name: string;
  /** Create only: the template volume (`local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst`). */
  ostemplate?: string;
  /** Plain config keys the spec sets (cores, memory, features, unprivileged ...), normalized. */
  options: Record<string, string>;
  /** Create only: public SSH keys for root, one per line. */
  sshPublicKeys?: string;
  /** Create only: where the root password comes from. */
  password?: SecretRef;
  /** Sorted, without pvectl's ownership tag; undefined: tags are not managed. */
  tags?: string[];
  /** rootfs and mount points the spec lists, in slot order. */
  mounts: DesiredMount[];
  nics: DesiredCtNic[];
  /** Mount point slots to detach (volume kept as unusedN) rather than delete when the spec drops them. */
  detach?: string[];
  /** true: a template (converted once, never started); false: must not be one; absent: not managed. */
  template?: boolean;
  /** Device sections the spec left out entirely: live devices of that kind are kept. Absent: all managed. */
  unmanaged?: CtDeviceKind[];
  power?: PowerState;
  /** The pool the container belongs to; undefined: membership not managed. */
  pool?: string;
}

export interface LiveMount {
  slot: string;
  /** The volume id (`local-lvm:vm-200-disk-0`) or, for a bind mount, the host path. */
  volume: string;
  storage?: string;
  sizeBytes?: number;
  mountpoint?: string;
  /** Every other sub-option as written in the config, normalized (without volume/size/mp). */
  options: Record<string, string>;
}

export interface LiveCtNic {
  slot: string;
  name?: string;
  hwaddr?: string;
  bridge?: string;
  options: Record<string, string>;
}

export interface LiveCt extends LiveBase {
  kind: "lxc";
  name?: string;
  status: PowerState;
  lock?: string;
  template: boolean;
  /** The container has snapshots (PVE refuses to destroy a volume one of them uses). */
  snapshotted?: true;
  /** Effective config (pending values applied) without mount points, NICs and tags, normalized. */
  options: Record<string, string>;
  /** All tags, sorted, including the ownership tag. */
  tags: string[];
  mounts: Record<string, LiveMount>;
  nics: Record<string, LiveCtNic>;
  /** Volumes the container holds as `unusedN` (detached, not deleted). */
  unused: Record<string, string>;
  pool?: string;
}
