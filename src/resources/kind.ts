// The contract between the engine and a guest kind. The engine plans, checks and runs guests
// without knowing what a kind's keys mean: it asks the kind through this interface. A new
// kind (containers) is a folder under resources/ that implements it, plus its line in
// resources/index.ts (the registry and the DesiredGuest / LiveGuest unions).
import type { ApiReader, GuestConfig, PendingEntry } from "../api/endpoints/index.js";
import type { CallIntent, GuestType, PowerAction } from "../plan/intent.js";
import type { ApiCall, GuestPlan, ParamValue, PrivilegeNeed } from "../plan/types.js";
import type { GuestEndpoints } from "./api-paths.js";
import type { GuestDestruction } from "./destroy-plan.js";
import type { GuestSpecEntry, GuestSpecSection } from "./guest-spec-section.js";
import type { Retention } from "./snapshot-prune.js";
import type { GuestTaskTypes } from "./task-types.js";

export type PowerState = "running" | "stopped";

/**
 * The guest's HA resource as /cluster/resources lists it (`hastate`): `sid` is its id
 * (`vm:100`, `ct:101`), `state` the state HA was asked for or is in (`started`, `stopped`,
 * `disabled`, `ignored` ...). Absent: not an HA resource.
 */
export interface HaState {
  sid: string;
  state: string;
}

/** HA manages the guest's placement and power: an HA resource in any state but `ignored`. */
export function haManaged(ha: HaState | undefined): ha is HaState {
  return ha !== undefined && ha.state !== "ignored";
}

/** What the cluster listing says of a guest, beside its config. */
export interface GuestMeta {
  vmid: number;
  node: string;
  status: PowerState;
  lock?: string;
  template?: boolean;
  /** Pool membership, as /cluster/resources lists it (not part of the config). */
  pool?: string;
  /** Its HA resource, when it is one. */
  ha?: HaState;
}

export interface PowerOptions {
  /** Seconds a graceful shutdown may take. */
  shutdownTimeoutSeconds: number;
  /** After the timeout, stop the guest hard instead of failing. */
  forceStop: boolean;
}

export interface UpdateOptions extends PowerOptions {
  /**
   * The guest lacks the ownership tag and the operator allowed adopting it (`adopt: true` or
   * `--adopt`): the plan adds the tag first. The engine refuses such a guest otherwise.
   */
  adopt?: boolean;
  /** What moving a guest needs to know of the cluster, and how a node mismatch is read (resources/placement.ts). */
  placement?: PlacementOptions;
}

export interface PlacementOptions {
  /** `--placement spec`: a guest away from its spec's node is moved there, whatever the placement record says. */
  followSpec?: boolean;
  /** Storages shared between nodes (a migration leaves their volumes where they are; every other volume is copied). */
  sharedStorages: ReadonlySet<string>;
}

/** The NICs' MACs and the volumes of a guest, as every report shows them (keyed by slot). */
export interface GuestDevices {
  macs: Record<string, string>;
  volumes: Record<string, string>;
}

/** A guest in the spec's shape, as `pvectl show` and `pvectl import` write it. */
export type SpecValue = string | number | boolean | string[] | SpecObject | undefined;
export interface SpecObject {
  [key: string]: SpecValue;
}

/**
 * A new guest made as a copy of another (`clone:` in the spec). Only read when the guest does
 * not exist yet: an existing guest is converged, never cloned again.
 */
export interface CloneSpec {
  /** The source: a vmid, or the name of a guest or template that carries the ownership tag. */
  from: number | string;
  /** Full copy or linked clone; undefined: PVE's default (linked from a template, full otherwise). */
  full?: boolean;
  /** Clone the source as it was at this snapshot. */
  snapname?: string;
  /** Full clones: the storage every copied volume goes to. */
  storage?: string;
  /** Full clones on file storages: the copies' format (raw, qcow2, vmdk). */
  format?: string;
  /** The node the source is on (picks among same-named templates, one per node). */
  node?: string;
}

/** What the engine needs of a desired guest, whatever its kind. */
export interface DesiredBase {
  /** Which kind plans the guest (required: nothing guesses a kind). */
  kind: GuestType;
  key: string;
  name: string;
  vmid?: number;
  node: string;
  absent?: boolean;
  adopt?: boolean;
  /** Made by copying another guest when it does not exist yet. */
  clone?: CloneSpec;
  /** Snapshot retention (`snapshots:` in the spec): apply prunes beyond it; undefined: not managed. */
  snapshots?: Retention;
}

/** What the engine needs of a live guest, whatever its kind. */
export interface LiveBase {
  vmid: number;
  node: string;
  digest?: string;
  /** Keys with a change waiting in PVE's pending section (applied at the next reboot). */
  pendingKeys: string[];
  /**
   * The plain config options in effect now (pending changes left out), normalized like the
   * kind's options; read only when something is pending: a pending change the spec undoes is
   * reverted, not rewritten and rebooted for (resources/pending-revert.ts).
   */
  optionsInEffect?: Record<string, string>;
  /** Its HA resource, when it is one (HA then owns its placement and power). */
  ha?: HaState;
}

/** A volume of a guest, as the snapshot checks and reports read it. */
export interface GuestVolume {
  slot: string;
  volume: string;
  storage: string;
  /** raw, qcow2, vmdk, subvol; undefined: not known from the volume's name. */
  format?: string;
}

/** What PVE's handlers of a kind allow, where the kinds differ (read by preflight and the snapshot and restore plans). */
export interface KindRules {
  /** A full clone of a running source is refused (pve-container copies only from a snapshot then). */
  fullCloneNeedsStoppedSource: boolean;
  /** A linked clone may start from a snapshot of an ordinary guest, not only from a template (pve-container). */
  linksFromSnapshot: boolean;
  /** New volumes on file storages are qcow2 and can be linked to (qemu-server; a container's are raw). */
  linksOnFileStorages: boolean;
  /** A volume that cannot become a base volume stops the template conversion (pve-container); otherwise it stays ordinary. */
  templateRefusesOrdinaryVolumes: boolean;
  /** A snapshot can hold a running guest's RAM (`vmstate`). */
  snapshotsSaveRam: boolean;
  /** A config write through POST runs as a task and may allocate (qemu-server; containers only PUT). */
  configPost: boolean;
  /** PVE records the guest's creation time in its config (`meta: ctime=`). */
  recordsCreationTime: boolean;
  /** A restore without --storage is sent where the archive's config had the volumes (read by pvectl: restore-ct-storage.ts). */
  restoreReadsArchiveStorages: boolean;
}

/**
 * `D`: the desired model, `L`: the live model, `S`: a spec entry as loaded, `Key`: the spec
 * file's section the entries are written in.
 */
export interface GuestKind<
  D extends DesiredBase,
  L extends LiveBase,
  S extends GuestSpecEntry = GuestSpecEntry,
  Key extends string = string,
> {
  /** The guest type in /cluster/resources and in API paths. */
  type: GuestType;
  /** The kind's section of a spec file: its schema, normalisation, messages and desired model. */
  spec: GuestSpecSection<Key, S, D>;
  /** The spec's word for the kind (the `kind` of its spec entries: `vm`, `container`). */
  specKind: string;
  /** How messages name one guest of the kind ("VM", "container"). */
  noun: string;
  /** The config key that holds a guest's name (`name`, `hostname`). */
  nameKey: string;
  /** The content type a storage needs to hold the kind's volumes (`images`, `rootdir`), and how messages say it. */
  volumeContent: { type: string; described: string };
  /** The prefix of the kind's HA resource ids (`vm:100`, `ct:100`). */
  haPrefix: string;
  rules: KindRules;
  /** The kind's endpoints (a restore is a create with the archive). */
  endpoints: GuestEndpoints;
  /** The parameters that make a create restore `archive` (a volume id). */
  restoreParams(archive: string): Record<string, ParamValue>;
  /** A guest of this kind meant to be absent (a destroy planned from an identity alone, e.g. a NetBox record that is gone). */
  absent(identity: { key: string; name: string; vmid?: number; node: string }): D;
  /** The power call: start, shutdown, stop, reboot. */
  powerCall(node: string, vmid: number, action: PowerAction): ApiCall;
  /** The storages a desired guest's volumes are on (what a clone of it copies). */
  desiredVolumes(desired: D): Array<{ slot: string; storage: string }>;
  /** The volumes a live guest uses, sorted by slot. */
  liveVolumes(live: L): GuestVolume[];
  /** The sizes of the live guest's data disks by slot (what a NetBox record lists as its disks). */
  diskSizes(live: L): Map<string, number | undefined>;
  /** Reads one guest of this kind back (its endpoints). */
  read: {
    config(api: ApiReader, node: string, vmid: number): Promise<GuestConfig>;
    pending(api: ApiReader, node: string, vmid: number): Promise<PendingEntry[]>;
    /** Run state: `running` or `stopped`. */
    status(api: ApiReader, node: string, vmid: number): Promise<{ status?: string; lock?: string; template?: number | boolean }>;
  };
  /** The live model of a guest from its pending listing (config values with their pending changes). */
  fromPending(meta: GuestMeta, entries: PendingEntry[]): L;
  /** The live model from a plain config read (the digest, when /pending lacks it). */
  fromConfig(meta: GuestMeta, config: GuestConfig, pendingKeys?: string[]): L;
  plan: {
    /**
     * A guest that does not exist yet. With `clone:`, the engine found and read the source
     * (`source`): the plan is the clone step and the steps that converge the copy.
     */
    create(desired: D, source?: L): GuestPlan;
    /** The differences between the spec and the live guest. */
    update(desired: D, live: L, options: UpdateOptions): GuestPlan;
    /** Nothing to do (absent and meant to be), or blocked by `errors`. */
    idle(desired: D, errors: string[]): GuestPlan;
  };
  /** What differs when a guest of the kind is destroyed; the plan is resources/destroy-plan.ts's, the same for every kind. */
  destruction: GuestDestruction<L>;
  devices(live: L): GuestDevices;
  /** The live guest in the spec's shape (`pvectl show`, `pvectl import`). */
  toSpec(live: L): SpecObject;
  /** The worker types PVE starts for this kind's calls (`qmcreate`, `vzstart` ...): resources/task-types.ts. */
  tasks: GuestTaskTypes;
  /** The worker type PVE starts for a call, to find a task whose answer was lost (from `tasks`). */
  taskType(call: ApiCall): string | undefined;
  /** Whether a call's effect is in the guest as its pending listing shows it (read back after a lost answer). */
  landed(call: ApiCall, guest: { vmid: number; node: string }, pending: PendingEntry[]): boolean;
  /** Privileges PVE checks inside the handler, beyond the endpoint's schema check. */
  callNeeds(intent: CallIntent, vmPath: string): PrivilegeNeed[];
}
