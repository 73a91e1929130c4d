// The shapes a plan is made of. A plan is data: each step lists the exact API calls apply
// will make, so `plan` shows what `apply` does and a saved plan can be applied later.
import type { EndpointCall } from "./call.js";
import type { CallIntent, GuestType, ObjectKind } from "./intent.js";

export type { AllocatedVmid, BodyValue, ClonedVolumeValue, EndpointCall, ParamValue, PathValue, VmidRef } from "./call.js";

export type { ObjectKind } from "./intent.js";

/**
 * Ordered from harmless to dangerous (DESIGN.md "Severity of a step"). `host-access`: a change
 * that reaches the hypervisor host (a container's host bind mount or device, a VM's QEMU
 * `args`, a hookscript), run only with --allow-host-access. `secret-reset`: a new secret for an
 * API token (the old one stops working), run only with --allow-secret-reset.
 */
export const SEVERITIES = ["read-only", "configuration", "host-access", "secret-reset", "service-impact", "data-loss-risk"] as const;
export type Severity = (typeof SEVERITIES)[number];

export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

export type StepAction =
  | "create"
  /** A new guest copied from another (a template, usually); its follow-up steps converge the rest. */
  | "clone"
  | "config"
  | "config-pending"
  | "disk-add"
  | "disk-options"
  | "disk-grow"
  | "disk-move"
  | "disk-detach"
  | "disk-delete"
  | "nic-add"
  | "nic-change"
  | "nic-remove"
  | "start"
  | "stop"
  | "reboot"
  | "destroy"
  /** Conversion to a template (POST .../template), which cannot be undone. */
  | "template"
  /** An existing guest pvectl did not create gets the ownership tag (`adopt`). */
  | "adopt"
  /** Pool membership: join, leave or move (PUT /pools). */
  | "pool"
  /** The guest moved to the spec's node (POST …/migrate). */
  | "migrate"
  /** The tag that records the node pvectl placed the guest on (resources/placement-record.ts). */
  | "record-placement"
  /** A cluster object (backup job, and the access objects of #16): created, updated or deleted by its id. */
  | "object-create"
  | "object-update"
  | "object-delete"
  /** Snapshot calls (#15): taking one is configuration; deleting or rolling back loses data. */
  | "snapshot-create"
  | "snapshot-delete"
  | "snapshot-rollback"

  /** A vzdump archive of the guest (POST /nodes/{node}/vzdump). */
  | "backup"
  /** A guest made (or replaced) from a vzdump archive. */
  | "restore"
  /** One backup archive deleted from its storage (backup prune). */
  | "archive-delete";

/** One field that changes: `before`/`after` are display strings; absent means "not set". */
export interface FieldChange {
  field: string;
  before?: string;
  after?: string;
}

/**
 * Where a create-time secret (a container's root password) comes from. A plan carries only
 * this reference; the step runner resolves it when it sends the call, so the value is never
 * in a plan, a saved plan, output or logs.
 */
export type SecretRef = { env: string } | { file: string };

/**
 * Where a secret PVE shows only once (a new API token's value) goes: a file the step runner
 * creates with mode 0600 (never an existing one), or printed once (`--show-secret`). A plan
 * carries only this; the value itself is never in a plan, a report or a log.
 */
export type SecretSink = { file: string } | { print: true };

/**
 * One API call of a step: the endpoint, its path parameters and body (plan/call.ts), with what
 * it does. A vmid allocated at apply and a volume a clone names are typed references there,
 * resolved when the call is sent (plan/resolve-call.ts).
 */
export interface ApiCall extends EndpointCall {
  /** What the call does, for preflight, privileges and the executor (plan/intent.ts). */
  intent: CallIntent;
  /**
   * A resize planned without knowing the disk's size (a disk imported from an image in the
   * same apply takes the image's size): apply reads the size first and skips the call when
   * the disk is already at least that large, since PVE refuses to shrink.
   */
  growOnly?: boolean;
  /** Parameters whose values are secrets, sent resolved from these references (never in `params`). */
  secrets?: Record<string, SecretRef>;
  /** The answer's `field` is a secret shown only this once: delivered to `to`, never reported. */
  revealsSecret?: { field: string; to: SecretSink };
}

export interface Step {
  /** Stable within a plan: `<guest key>/<n>-<action>`. */
  id: string;
  action: StepAction;
  severity: Severity;
  summary: string;
  changes: FieldChange[];
  calls: ApiCall[];
  /** Volumes this step destroys (named in the plan, as the pitfalls table requires). */
  deletesVolumes?: string[];
  /**
   * What else the step takes with it or leaves behind that a reviewer must know (a destroy's
   * snapshots, backup jobs, archives kept ...): shown under the step, never sent.
   */
  notes?: string[];
  /** The change lands in PVE's pending section and takes effect at the next reboot. */
  pendingUntilReboot?: boolean;
  /** Stop steps: how long a graceful shutdown may take before the step fails (or forces, if asked). */
  shutdownTimeoutSeconds?: number;
  /**
   * Config keys this step adds, changes or removes that reach the hypervisor host (see
   * resources/host-access.ts): the step runs only with --allow-host-access, whatever its severity.
   */
  hostAccess?: string[];
}

/** A step as a resource kind plans it; the engine numbers it (`id`) when it assembles the plan. */
export type StepDraft = Omit<Step, "id">;

/** A privilege needed on a path (`/vms/100`, `/storage/local-lvm` ...). */
export interface PrivilegeNeed {
  path: string;
  privilege: string;
  /** Alternatives: any one of these privileges satisfies the requirement. */
  anyOf?: string[];
  /**
   * Other paths that would do instead (PVE's `or` of permission checks: VM.Allocate on the new
   * vmid, or on the pool the guest goes into); none of them held: the need is missing.
   */
  orOn?: Array<{ path: string; privilege: string }>;
  /**
   * PVE waives the check when the caller is exactly this user (`userid-param self`: a user
   * managing its own API tokens); a token of that user is another caller and is checked.
   */
  unlessCaller?: string;
}

/** A privilege a step needs on a path, for the permission preflight. */
export interface RequiredPrivilege extends PrivilegeNeed {
  stepId: string;
}

export interface GuestPlan {
  /** What kind of guest; absent means qemu (every plan before containers). */
  kind?: GuestType;
  /** The guest's name in the spec (unique within a spec). */
  key: string;
  name: string;
  /** Known for existing guests and specs that name one; absent when apply allocates it. */
  vmid?: number;
  /** The node its steps run on: the spec's when the plan migrates it there (the migrate step names the node it leaves). */
  node: string;
  exists: boolean;
  /**
   * Found away from its spec's node, moved by someone else (HA, an operator): pvectl leaves it
   * there and `--follow-placement` lists it, for the operator to write the live node in the spec.
   */
  movedElsewhere?: { specNode: string; liveNode: string };
  /** Config digest read at plan time; apply refuses a saved plan if it changed. */
  digest?: string;
  steps: Step[];
  /** Problems that block this guest (shrink requested, missing storage ...). */
  errors: string[];
  warnings: string[];
}

/**
 * One cluster object (not a guest) in a plan: a backup job today, access objects next. Its
 * steps are calls by the object's id; `foreign` objects exist live without pvectl's marker
 * and are listed so a reviewer sees them, never changed.
 */
export interface ObjectPlan {
  kind: ObjectKind;
  /** The object's id (a backup job's `id`, `user@realm!token`, an ACL's `path|type:ugid|role`), unique per kind within a plan. */
  key: string;
  exists: boolean;
  /** Not pvectl's and not in the spec: listed as "not managed", no steps. */
  foreign?: boolean;
  /**
   * Run before the guests (a pool or token they need); default after them (a backup job may
   * name guests the apply creates, a deletion waits until guests left a pool).
   */
  phase?: "before-guests";
  steps: Step[];
  errors: string[];
  warnings: string[];
}

export interface Plan {
  format: "pvectl-plan/1";
  createdAt: string;
  /**
   * The API endpoint the plan was made against, as a full origin with its scheme
   * (`https://pve1:8006`): shown at the top of every plan, and a saved plan is refused elsewhere.
   */
  target: string;
  guests: GuestPlan[];
  /** Cluster objects the spec converges (backup jobs ...); absent in plans without any. */
  objects?: ObjectPlan[];
  /** Problems found by the preflight (references, permissions): nothing runs while any remain. */
  preflightErrors: PreflightProblem[];
}

export interface PreflightProblem {
  /**
   * `adoption`: the spec names an existing guest pvectl did not create, without `adopt`;
   * `space`: the plan's volumes do not fit on a storage that cannot over-commit.
   */
  kind:
    | "node"
    | "storage"
    | "space"
    | "bridge"
    | "iso"
    | "image"
    | "template"
    | "permission"
    | "pool"
    | "adoption"
    | "clone"
    | "migration"
    | "object"
    | "snapshot";
  guest?: string;
  message: string;
  path?: string;
  privilege?: string;
}

export function planHasChanges(plan: Plan): boolean {
  return plan.guests.some((g) => g.steps.length > 0) || (plan.objects ?? []).some((o) => o.steps.length > 0);
}

export function planHasErrors(plan: Plan): boolean {
  return (
    plan.preflightErrors.length > 0 || plan.guests.some((g) => g.errors.length > 0) || (plan.objects ?? []).some((o) => o.errors.length > 0)
  );
}

export function severityCounts(plan: Plan): Record<Severity, number> {
  const counts: Record<Severity, number> = {
    "read-only": 0,
    configuration: 0,
    "host-access": 0,
    "secret-reset": 0,
    "service-impact": 0,
    "data-loss-risk": 0,
  };
  for (const guest of plan.guests) for (const step of guest.steps) counts[step.severity] += 1;
  for (const object of plan.objects ?? []) for (const step of object.steps) counts[step.severity] += 1;
  return counts;
}
