// What one API call of a plan does, said in the engine's terms. The resource kind that plans
// a call writes its intent next to it; preflight, the privilege check and the executor read
// the intent and never infer meaning from a path or re-parse a value string. A saved plan's
// intents are never run: apply runs the recomputed plan, intents included, when it equals the
// saved one.
import type { DriveMedia } from "../pve/drive-privileges.js";

import type { GuestKind as PveGuestType } from "../pve/guest-schema.js";

/** Guest types whose calls the engine runs: PVE's own (/cluster/resources, API paths; src/pve/guest-schema.ts). */
export type GuestType = PveGuestType;

export type PowerAction = "start" | "shutdown" | "stop" | "reboot";

/** How a drive write uses storage, as the resource read the value when planning. */
export type { DriveMedia };

/** A volume on a PVE storage: `volume` is the whole volume id (`local:iso/debian.iso`). */
export interface StoredVolume {
  storage: string;
  volume: string;
}

/** One config key a create or configure call writes. */
export type ConfigWrite =
  | { key: string; as: "option" }
  | {
      key: string;
      as: "drive";
      media: DriveMedia;
      /** The volume the slot is to hold (`none` for an empty CD-ROM), when not a new one. */
      volume?: string;
      /** A new volume is allocated on this storage (`local-lvm:32`, `local-lvm:cloudinit`). */
      newOn?: string;
      /** The bytes that new volume takes (the size asked); absent when not known before it exists (`import-from`). */
      newBytes?: number;
      /** The new volume's image format, when the call asks for one. */
      format?: string;
      /** An ISO image the CD-ROM shows (`local:iso/debian.iso` on `local`). */
      iso?: StoredVolume;
      /** The image a new disk is imported from (`local:import/debian.qcow2`); not a host path. */
      importFrom?: StoredVolume;
    }
  | { key: string; as: "nic"; bridge?: string };

/** A volume a template conversion turns into a base volume: its slot and storage (and volume id when it exists). */
export interface TemplateVolume {
  slot: string;
  storage: string;
  volume?: string;
}

export type CallIntent =
  | {
      kind: GuestType;
      op: "create";
      writes: ConfigWrite[];
      pool?: string;
      start: boolean;
      /** A container's template (`local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst`), read from its storage. */
      template?: StoredVolume;
    }
  | {
      kind: GuestType;
      op: "configure";
      writes: ConfigWrite[];
      deletes: string[];
      /** Keys whose pending change is dropped (`revert`): the value in effect stays. */
      reverts?: string[];
      /**
       * What each deleted drive slot holds, as read when planning: qemu-server checks a removed
       * drive by its value (a cloud-init drive: VM.Config.Cloudinit and VM.Config.CDROM). A
       * drive slot missing here is checked as a disk.
       */
      deletedMedia?: Record<string, DriveMedia>;
      /**
       * A second landing would allocate again (another volume, the first left as `unusedN`;
       * another MAC): sent with the digest it was computed against, never twice unguarded.
       */
      allocates: boolean;
      /**
       * Volumes keys must hold when the call is sent: a delete of an `unusedN` the planner
       * predicted (the one PVE gives a volume a container let go of). The executor checks
       * first, so a wrong guess destroys nothing.
       */
      expects?: Array<{ key: string; volume: string }>;
    }
  | CloneIntent
  /**
   * `fromBytes`: the volume's size when planned (the growth is the difference), `storage`: where
   * it is when grown; both absent when not known.
   */
  | { kind: GuestType; op: "resize"; slot: string; sizeBytes: number; fromBytes?: number; storage?: string }
  /** `sizeBytes`: the volume copied (absent when not known); `format`: the copy's image format, when asked. */
  | { kind: GuestType; op: "move-volume"; slot: string; storage: string; sizeBytes?: number; format?: string }
  | { kind: GuestType; op: "power"; action: PowerAction }
  | MigrateIntent
  | { kind: GuestType; op: "destroy" }
  /**
   * Converts the guest to a template (one way: PVE has no call that turns it back). `volumes`:
   * where its disks or mount points will be when it is converted, for preflight (a storage that
   * cannot hold base volumes).
   */
  | { kind: GuestType; op: "template"; volumes?: TemplateVolume[] }
  | SnapshotIntent
  | BackupIntent
  | RestoreIntent
  | ArchiveDeleteIntent
  /**
   * Pool membership (PUT /pools): not a guest's own endpoint, so no guest type. `from`: the
   * pool a move (`allow-move`) takes the guests out of, which PVE checks too.
   */
  | { kind: "pool"; op: "pool-membership"; pool: string; vmids: number[]; leave: boolean; from?: string }
  | ObjectIntent;

/** Kinds of cluster objects a plan converges besides guests (resources/objects.ts registers each). */
export type ObjectKind =
  | "backup-job"
  | "ha-rule"
  | "access-role"
  | "access-group"
  | "access-user"
  | "access-token"
  | "access-acl"
  | "access-pool";

/**
 * A call on a cluster object (a backup job, an access object ...) by its id. `create` is never
 * resent: a lost answer is resolved by reading the object back (it exists as the step made it:
 * it landed).
 */
export interface ObjectIntent {
  kind: "object";
  object: ObjectKind;
  op: "object-create" | "object-update" | "object-delete";
  key: string;
  /**
   * An ACL entry's role privileges as planned: PVE lets a caller without Permissions.Modify
   * hand out (or take back) only privileges it holds on that path itself.
   */
  grants?: string[];
  /**
   * An API token's user's groups when the call runs: PVE also accepts User.Modify on any of
   * them (`userid-group`) instead of on /access/groups.
   */
  ownerGroups?: string[];
  /**
   * An API token deleted to be made anew (its secret reset): its ACL entries go with it and
   * are granted again, so every entry must be visible to the caller (Sys.Audit on /access).
   */
  regrantsAcl?: true;
}

/** How PVE moves a guest: live (a VM keeps running), restart (a container is stopped and started on the target), offline. */
export type MigrationMode = "online" | "restart" | "offline";

/**
 * A guest moved to another node (POST …/migrate, whose path names the node it is on). Never
 * sent twice: a lost answer is resolved by reading where the guest is. What preflight checks
 * on the target is said here, as the planner read the guest.
 */
export interface MigrateIntent {
  kind: GuestType;
  op: "migrate";
  from: string;
  target: string;
  mode: MigrationMode;
  /** The volumes on node-local storages PVE copies to the target (same storage id there), with their sizes when known. */
  localVolumes: Array<{ slot: string; volume: string; storage: string; sizeBytes?: number }>;
  /** Every storage the guest's volumes are on: each must be present and enabled on the target. */
  storages: string[];
  /** The bridges its NICs are on: each must exist on the target. */
  bridges: string[];
  /** The guest's memory, for a running guest (the target must have that much free). */
  memoryBytes?: number;
}

export type SnapshotAction = "create" | "delete" | "rollback";

/** A snapshot call (POST/DELETE …/snapshot[/{name}[/rollback]]); `vmstate` only with create (VMs). */
export interface SnapshotIntent {
  kind: GuestType;
  op: "snapshot";
  action: SnapshotAction;
  name: string;
  vmstate?: boolean;
}

/**
 * A new guest made as a copy of another (POST …/{vmid}/clone): the call's path names the
 * source, `newid` the guest it makes. What preflight, the privilege check and the executor
 * need to know about the copy is said here, as the planner read the source.
 */
export interface CloneIntent {
  kind: GuestType;
  op: "clone";
  /** `running`: PVE refuses a full clone of a running container (without a snapshot). */
  source: { vmid: number; node: string; template: boolean; running: boolean };
  /** The node the clone is made on (PVE's `target`; the source's node when the same). */
  target: string;
  /** The source's snapshot the copy is made from. */
  snapname?: string;
  /** Full copy (true) or linked clone on the source's base volumes (false). */
  full: boolean;
  /** Full clones only: every copied volume goes to this storage (default: each source volume's storage). */
  storage?: string;
  pool?: string;
  /** The source's volumes the clone copies or links, by slot (CD-ROM images are shared, not listed), with their sizes when known. */
  volumes: Array<{ slot: string; storage: string; sizeBytes?: number }>;
  /** Bridges the copied NICs are on (PVE checks SDN.Use on each). */
  bridges: string[];
}

/** How vzdump keeps a running guest consistent: `suspend` pauses it, `stop` stops it for the copy. */
export type BackupMode = "snapshot" | "suspend" | "stop";

/** One guest's vzdump archive written to `storage` (the call's path names the guest's node). */
export interface BackupIntent {
  kind: GuestType;
  op: "backup";
  vmid: number;
  storage: string;
  mode: BackupMode;
}

/**
 * A guest made from a vzdump archive (qemu: `archive=`; lxc: `ostemplate=` with `restore=1`).
 * `replaces`: the vmid exists and PVE's `force` replaces its disks with the archive's.
 */
export interface RestoreIntent {
  kind: GuestType;
  op: "restore";
  vmid: number;
  archive: StoredVolume;
  /** Every restored disk goes here (a VM without it: the storage each disk was backed up from). */
  storage?: string;
  replaces: boolean;
  start: boolean;
  /** PVE's `unique`: every NIC gets a new MAC (qemu also a new SMBIOS uuid); else the archive's are kept. */
  unique?: boolean;
}

/** A backup archive of guest `vmid` deleted from its storage (a prune names each one). */
export interface ArchiveDeleteIntent {
  kind: GuestType;
  op: "archive-delete";
  vmid: number;
  archive: StoredVolume;
}

/** Calls that take PVE's config `digest` (refused when the config changed since it was read). */
export function acceptsDigest(intent: CallIntent): boolean {
  return intent.op === "configure" || intent.op === "resize" || intent.op === "move-volume";
}

/**
 * Writes whose second landing does harm (see `allocates`; a move copies the disk again): they
 * are sent with the config digest they were computed against, so that of a first request that
 * lands late and a resend, PVE accepts only one.
 */
export function mustNotLandTwice(intent: CallIntent): boolean {
  return intent.op === "move-volume" || (intent.op === "configure" && intent.allocates);
}
