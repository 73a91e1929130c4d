// The desired state read from spec files, after validation and normalization. This is what
// the engine consumes: every value here has already been checked (slots, enums, ranges, the
// escape hatch against PVE's schema) and put in one canonical shape (sizes in bytes, memory in
// MiB, tags sorted, drives keyed by slot). Nothing in this file talks to a cluster.
//
// Identity rule: a VM is identified by its vmid. When a spec gives no vmid, the name is the
// identity *within its connection*: the engine looks the name up in the cluster and refuses to
// guess when several guests share it. A name is otherwise only a label.
import type { SpecFieldRow } from "../../resources/qemu/options-table.js";
import type { CloneSpec } from "../../resources/index.js";
import type { Retention } from "../../resources/snapshot-prune.js";
import type { ObjectSections } from "../../resources/objects.js";
import type { ContainerSpec } from "./container-model.js";

/** Where something was written, for messages ("web.yaml:12:5"). Line and column are 1-based. */
import type { SourceLocation } from "../../resources/spec-section/issues.js";
export type { SourceLocation };

/**
 * The result of loading one or more spec files. Besides guests, each registered object family
 * (resources/objects.ts) has its section under its key (`backupJobs`, `access`): present when
 * any file writes it (even empty), absent otherwise (then that family is not managed).
 */
export interface SpecDocument extends ObjectSections {
  /** The files that were read, in the order given. */
  files: string[];
  /** Named cluster connections declared by the specs (secrets only referenced, never inline). */
  connections: Record<string, ConnectionSpec>;
  /** Every VM of every file, in file order. */
  vms: VmSpec[];
  /** Every LXC container of every file, in file order (`kind: "container"`). */
  containers: ContainerSpec[];
}

/**
 * A cluster connection as written in a spec. Secrets are never stored here: only the name of
 * the environment variable or the path of the file that holds them.
 */
export interface ConnectionSpec {
  name: string;
  host: string;
  port?: number;
  /** e.g. "automation@pve" */
  user?: string;
  /** Token name only (the part after `!`), e.g. "pvectl". */
  tokenId?: string;
  /** Name of the environment variable holding the password. */
  passwordEnv?: string;
  /** Path of a file holding the password (first line used). */
  passwordFile?: string;
  /** Name of the environment variable holding the API token secret. */
  tokenSecretEnv?: string;
  /** Path of a file holding the API token secret (first line used). */
  tokenSecretFile?: string;
  /** SHA-256 fingerprint of the server certificate to pin ("AB:CD:..."), upper case. */
  fingerprint?: string;
  /** Path of a PEM CA bundle that signs the cluster's certificate. */
  caPath?: string;
  /** Default true. `false` is allowed but loud. */
  validateCerts?: boolean;
  source: SourceLocation;
}

export type VmState = "present" | "absent";
/** Device sections, and the cloud-init drive, that a spec may leave out (then not managed). */
export type DeviceSection = "disks" | "cdroms" | "nics" | "cloudInit";
export type PowerState = "running" | "stopped";

/** Drive option values the way PVE writes them in a property string (booleans as booleans). */
export type DriveOptionValue = string | number | boolean;

/** The normalized value of each spec kind (resources/qemu/options-table.ts). */
interface SpecKindValues {
  "pve-string": string;
  MiB: number;
  "default-key": string;
  "boot-order": string[];
  agent: AgentSpec;
  "ssh-keys": string[];
  addresses: string[];
  words: string[];
}
/** A `pve` kind takes the type PVE's schema gives the key. */
type PveValue<V> = V extends "integer" | "number" ? number : V extends "boolean" ? boolean : string;
type ValueOf<Row> = Row extends { value: infer V; spec: { kind: infer K } }
  ? K extends "pve"
    ? PveValue<V>
    : K extends keyof SpecKindValues
      ? SpecKindValues[K]
      : never
  : never;

/** The fields the options table gives the VM (`Section` undefined) or a section; absent: not managed. */
type OptionFields<Section extends "cloudInit" | undefined> = { [Row in SpecFieldRow<Section> as Row["spec"]["field"]]?: ValueOf<Row> };

/**
 * A VM's desired state. Optional fields that are absent are not managed (live value kept).
 * Its plain options (cores, memory in MiB, bios, boot order, agent ...) come from the options
 * table (resources/qemu/options-table.ts), with the JSON Schema's descriptions there.
 */
export interface VmSpec extends OptionFields<undefined> {
  kind: "vm";
  /** The identity when given (recommended). */
  vmid?: number;
  name: string;
  node: string;
  /** Name of the connection in `SpecDocument.connections`; undefined: the PROXMOX_* environment. */
  connection?: string;
  /** Resource pool; undefined: membership is not managed. */
  pool?: string;
  /** `adopt: true`: an existing guest without pvectl's ownership tag may be managed (and gets the tag). */
  adopt?: boolean;
  /** Created by cloning this source when the VM does not exist yet. */
  clone?: CloneSpec;
  /** Snapshot retention (`snapshots:`); undefined: snapshots are not managed. */
  snapshots?: Retention;
  state: VmState;
  /** Desired power state; undefined: leave it as it is. */
  power?: PowerState;
  /** `template: true`: converted to a template (one way); false: must not be one; undefined: not managed. */
  template?: boolean;

  efidisk?: EfiDiskSpec;
  tpm?: TpmSpec;
  /** Sorted, de-duplicated (PVE sorts tags; an unsorted list would diff forever). */
  tags?: string[];

  /**
   * Device sections the spec left out entirely (no `disks:` key, ...; no `cloudInit:` key for
   * the cloud-init drive): the VM's existing devices of that kind are not managed (kept as
   * they are), instead of "the VM has none".
   * `disks: {}` written explicitly means "no disks". Absent or empty: every section is managed.
   */
  unmanaged?: DeviceSection[];
  /** Disks keyed by slot: "scsi0".."scsi30", "virtio0".."virtio15", "sata0".."sata5", "ide0".."ide3". */
  disks: Record<string, DiskSpec>;
  /**
   * Disk slots the spec no longer lists whose volumes are to be kept: the disk is detached
   * (volume kept as `unusedN`) instead of deleted. Never overlaps `disks`.
   */
  detach?: string[];
  /** CD-ROM drives keyed by slot (ide/sata/scsi). */
  cdroms: Record<string, CdromSpec>;
  /** NICs keyed by slot: "net0".."net31". */
  nics: Record<string, NicSpec>;
  cloudInit?: CloudInitSpec;
  /**
   * Any other key of PVE's VM config (the `qm set` escape hatch), validated against the schema:
   * e.g. { rng0: "source=/dev/urandom", args: "-global ..." }. Never holds a key the structured
   * model owns (disks, NICs, cores ...). Booleans are given as 0/1.
   */
  extraConfig: Record<string, string | number>;

  source: SourceLocation;
}

export interface DiskSpec {
  /**
   * Storage id, e.g. "local-lvm". Spec files always write it; a NetBox clone's first disk may
   * leave it out: the disk stays where the clone put it (its storage is not managed).
   */
  storage?: string;
  /** Bytes. Always set unless `importFrom` is given (then the imported image's size applies). */
  sizeBytes?: number;
  format?: "raw" | "qcow" | "qed" | "qcow2" | "vmdk" | "cloop";
  /** Create the disk from an existing image, e.g. "local:import/debian-13.qcow2" (PVE `import-from`). */
  importFrom?: string;
  /** Further drive options with PVE's key names (cache, discard, iothread, ssd, backup ...). */
  options: DiskOptions;
}

/**
 * Drive options, keyed exactly as in PVE's drive property string. Only the keys the user wrote
 * are present (an absent key is not managed). Other keys of the bus's drive schema
 * (iops_rd, mbps_wr, serial ...) may appear too, already validated.
 */
export interface DiskOptions {
  cache?: "none" | "writethrough" | "writeback" | "unsafe" | "directsync";
  discard?: "on" | "ignore";
  iothread?: boolean;
  ssd?: boolean;
  backup?: boolean;
  replicate?: boolean;
  aio?: "native" | "threads" | "io_uring";
  ro?: boolean;
  [pveKey: string]: DriveOptionValue | undefined;
}

export interface CdromSpec {
  /** Volume id of the ISO, e.g. "local:iso/debian-13-netinst.iso"; undefined: an empty drive. */
  iso?: string;
}

export interface NicSpec {
  /** Undefined: an existing NIC keeps its model; a new one gets virtio. */
  model?: string;
  bridge: string;
  /** VLAN tag 1..4094. */
  tag?: number;
  /** 1 means "use the bridge's MTU" (virtio only). */
  mtu?: number;
  queues?: number;
  firewall?: boolean;
  /** MB/s (megabytes, not bits). */
  rate?: number;
  linkDown?: boolean;
  /** VLAN trunks, PVE syntax "10;20-30". */
  trunks?: string;
  /** Upper case "AA:BB:CC:DD:EE:FF"; undefined: keep the live MAC (or let PVE generate one). */
  macaddr?: string;
}

export interface EfiDiskSpec {
  storage: string;
  format?: "raw" | "qcow" | "qed" | "qcow2" | "vmdk" | "cloop";
  efitype?: "2m" | "4m";
  preEnrolledKeys?: boolean;
}

export interface TpmSpec {
  storage: string;
  version?: "v1.2" | "v2.0";
}

export interface AgentSpec {
  enabled: boolean;
  fstrimClonedDisks?: boolean;
  freezeFs?: boolean;
  type?: "virtio" | "isa";
}

/** Cloud-init basics: user, sshKeys, nameservers, searchDomains, upgrade, type from the options table. */
export interface CloudInitSpec extends OptionFields<"cloudInit"> {
  /** Slot of the cloud-init drive (default "ide2"). */
  slot: string;
  /**
   * Storage that holds the cloud-init drive, e.g. "local-lvm". Spec files always write it; a
   * NetBox clone may leave it out: the template's drive stays where it is (not managed).
   */
  storage?: string;
  /** Keyed "ipconfig0".."ipconfig31" (ipconfigN configures netN). */
  ipconfig?: Record<string, IpConfigSpec>;
}

export interface IpConfigSpec {
  /** "dhcp" or an address in CIDR form, e.g. "10.0.0.5/24". */
  ip?: string;
  gw?: string;
  /** "dhcp", "auto" or an IPv6 address in CIDR form. */
  ip6?: string;
  gw6?: string;
}

export type { ContainerSpec, CtMountSpec, CtNicSpec, CtSecretRef } from "./container-model.js";

/** "vm 200 (web1)" or "vm web1" — how messages name a VM. */
export function describeVm(vm: Pick<VmSpec, "vmid" | "name">): string {
  return vm.vmid === undefined ? `vm ${vm.name}` : `vm ${vm.vmid} (${vm.name})`;
}
