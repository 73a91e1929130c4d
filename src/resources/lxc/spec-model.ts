// An LXC container as read from a spec file, after validation and normalization. Plain config
// keys are already in PVE's names and canonical text (the options table's fields and
// extraConfig alike: `memory: "2048"`, `features: "keyctl=1,nesting=1"`), so turning a
// container into the engine's DesiredCt is a copy. Same identity rule as VMs: the vmid when
// given, else the hostname among the connection's guests.
import type { GuestSpecBase } from "../spec-section/guest-base.js";

/** Where the root password comes from: an environment variable or a file (absolute path). */
export type CtSecretRef = { env: string } | { file: string };

/** rootfs or a mount point: a new volume (`storage` + `sizeBytes`) or a bind mount (`bindPath`). */
export interface CtMountSpec {
  storage?: string;
  sizeBytes?: number;
  /** An absolute host path (bind or device mount); only root@pam may write one. */
  bindPath?: string;
  /** Where it appears in the container (mount points only). */
  mountpoint?: string;
  /** acl, backup, quota, replicate, ro, shared, mountoptions ...: those the spec sets, canonical text. */
  options: Record<string, string>;
}

export interface CtNicSpec {
  /** Interface name in the container; `eth<N>` for `net<N>` when the spec leaves it out. */
  name: string;
  bridge?: string;
  /** Upper case; undefined: the live MAC is kept (PVE generates one on create). */
  hwaddr?: string;
  /** ip, gw, ip6, gw6, tag, trunks, firewall, rate, mtu, link_down, type: those the spec sets, canonical text. */
  options: Record<string, string>;
}

/** A container's desired state; `name` is its hostname (`hostname:` or its alias `name:`). */
export interface ContainerSpec extends GuestSpecBase {
  kind: "container";
  /** `storage:vztmpl/file`, used when the container is created. */
  ostemplate?: string;
  /** Plain config keys the spec sets (table fields and extraConfig), PVE names, canonical text. */
  options: Record<string, string>;
  /** Create only: root's authorized keys. */
  sshPublicKeys?: string[];
  /** Create only: the root password's source (never the password). */
  password?: CtSecretRef;
  /** The root file system; undefined: not managed (a create then needs it: plan says so). */
  rootfs?: CtMountSpec;
  /** Mount points keyed by slot (mp0..mp255). */
  mounts: Record<string, CtMountSpec>;
  /** Mount point slots left out of `mounts` whose volumes are kept (detached as unusedN). */
  detach?: string[];
  /** NICs keyed by slot (net0..net31). */
  nics: Record<string, CtNicSpec>;
  /** `mounts:` / `nics:` left out entirely: the container's own are kept as they are. */
  unmanaged?: Array<"mounts" | "nics">;
}

/** "container 200 (web1)" or "container web1" — how messages name a container. */
export function describeCt(ct: Pick<ContainerSpec, "vmid" | "name">): string {
  return ct.vmid === undefined ? `container ${ct.name}` : `container ${ct.vmid} (${ct.name})`;
}
