// The fields every guest kind's spec entry has, whatever the kind: identity (vmid, name, node,
// connection), membership, lifecycle (state, power, template), cloning, snapshot retention and
// tags. Written once so the spec loader's checks across guests (identities, connections) and
// the engine's desired base read them the same way for VMs and containers.
import type { CloneSpec } from "../kind.js";
import type { Retention } from "../snapshot-prune.js";
import type { SourceLocation } from "./issues.js";

export type GuestState = "present" | "absent";
export type PowerState = "running" | "stopped";

export interface GuestSpecBase {
  /** The identity when given (recommended); without it, the name within its connection. */
  vmid?: number;
  /** The VM's name or the container's hostname (a label unless it is the identity). */
  name: string;
  node: string;
  /** Name of the connection in `SpecDocument.connections`; undefined: the PROXMOX_* environment. */
  connection?: string;
  /** Resource pool; undefined: membership is not managed. */
  pool?: string;
  /** `adopt: true`: an existing guest without pvectl's ownership tag may be managed (and gets the tag). */
  adopt?: boolean;
  /** Created by cloning this source when the guest does not exist yet. */
  clone?: CloneSpec;
  /** Snapshot retention (`snapshots:`); undefined: snapshots are not managed. */
  snapshots?: Retention;
  state: GuestState;
  /** Desired power state; undefined: leave it as it is. */
  power?: PowerState;
  /** `template: true`: converted to a template (one way); false: must not be one; undefined: not managed. */
  template?: boolean;
  /** Sorted, de-duplicated (PVE sorts tags; an unsorted list would diff forever); undefined: not managed. */
  tags?: string[];
  source: SourceLocation;
}
