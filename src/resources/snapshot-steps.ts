// The steps of a snapshot operation on one guest, for both kinds: what `snapshot create`,
// `delete`, `rollback` and `prune` (and a spec's `snapshots:` retention) do, with the
// severities the issue sets. Pure: the engine reads the guest and its snapshots and passes them.
import type { GuestType } from "../plan/intent.js";
import type { StepDraft } from "../plan/types.js";
import type { PowerState } from "./kind.js";
import { GUEST_KINDS } from "./index.js";
import { snapshotCreateCall, snapshotDeleteCall, snapshotRollbackCall } from "./snapshot-calls.js";
import { type Retention, type SnapshotEntry, snapshotsToPrune } from "./snapshot-prune.js";
import { alreadyTaken, notThisRuns } from "./snapshot-resume.js";

/** A guest as the snapshot steps need it. */
export interface SnapshotGuest {
  kind: GuestType;
  vmid: number;
  node: string;
  name?: string;
  status: PowerState;
  /** Its snapshots (PVE's `current` entry left out). */
  snapshots: SnapshotEntry[];
}

export type SnapshotOperation =
  | { action: "create"; name: string; vmstate?: boolean; description?: string }
  | { action: "delete"; name: string }
  | { action: "rollback"; name: string; start?: boolean }
  | { action: "prune"; retention: Retention };

export interface SnapshotSteps {
  steps: StepDraft[];
  /** Why the operation cannot run on this guest (the name is taken, or missing). */
  problems: string[];
  /** What the operator asked for that this guest cannot do (RAM of a container), said with the plan. */
  warnings?: string[];
}

function label(guest: SnapshotGuest): string {
  return guest.name ?? `vmid ${guest.vmid}`;
}

function has(guest: SnapshotGuest, name: string): boolean {
  return guest.snapshots.some((s) => s.name === name);
}

/** `nowSeconds`: when this run planned (a rerun of create compares the existing snapshot's age). */
export function snapshotSteps(guest: SnapshotGuest, op: SnapshotOperation, nowSeconds = Date.now() / 1000): SnapshotSteps {
  switch (op.action) {
    case "create":
      if (has(guest, op.name)) return resumed(guest, op, nowSeconds);
      return { steps: [createStep(guest, op)], problems: [], ...vmstateNote(guest, op.vmstate === true) };
    case "delete":
      if (!has(guest, op.name)) return { steps: [], problems: [missing(guest, op.name)] };
      return { steps: [deleteStep(guest, op.name, "")], problems: [] };
    case "rollback":
      if (!has(guest, op.name)) return { steps: [], problems: [missing(guest, op.name)] };
      return { steps: rollbackSteps(guest, op.name, op.start === true), problems: [] };
    case "prune":
      return { steps: pruneSteps(guest, op.retention), problems: [] };
  }
}

/** The retention steps of one guest (`snapshot prune` and a spec's `snapshots:` share them). */
export function pruneSteps(guest: SnapshotGuest, retention: Retention): StepDraft[] {
  const why = `beyond the newest ${retention.keep} named '${retention.prefix}*'`;
  return snapshotsToPrune(guest.snapshots, retention).map((s) => deleteStep(guest, s.name, ` (${why})`));
}

/** A create whose snapshot the guest has: done by an earlier run, or a snapshot this command did not make. */
function resumed(guest: SnapshotGuest, op: { name: string; vmstate?: boolean; description?: string }, nowSeconds: number): SnapshotSteps {
  const existing = guest.snapshots.find((s) => s.name === op.name)!;
  const askedRam = op.vmstate === true && GUEST_KINDS[guest.kind].rules.snapshotsSaveRam;
  const wish = {
    name: op.name,
    savesRam: askedRam && guest.status === "running",
    askedRam,
    ...(op.description ? { description: op.description } : {}),
  };
  const why = notThisRuns(existing, wish, nowSeconds);
  if (why === undefined) return { steps: [], problems: [], warnings: [alreadyTaken(label(guest), existing)] };
  return {
    steps: [],
    problems: [
      `${label(guest)} already has a snapshot named '${op.name}' that this command did not make (${why}); ` +
        `delete it first (pvectl snapshot delete ${op.name} --vmid ${guest.vmid} --allow-data-loss) or choose another name`,
    ],
  };
}

function missing(guest: SnapshotGuest, name: string): string {
  const names = guest.snapshots.map((s) => s.name);
  return `${label(guest)} has no snapshot named '${name}' (it has: ${names.length > 0 ? names.join(", ") : "none"})`;
}

/** --vmstate where there is no RAM to save: said, not silently dropped (PVE's container snapshot takes no vmstate). */
function vmstateNote(guest: SnapshotGuest, vmstate: boolean): { warnings?: string[] } {
  if (!vmstate) return {};
  if (!GUEST_KINDS[guest.kind].rules.snapshotsSaveRam)
    return {
      warnings: [`--vmstate ignored: ${label(guest)} is a ${GUEST_KINDS[guest.kind].noun}, whose snapshots hold no RAM (only VMs save it)`],
    };
  if (guest.status !== "running") return { warnings: [`--vmstate ignored: ${label(guest)} is stopped, so it has no RAM to save`] };
  return {};
}

function createStep(guest: SnapshotGuest, op: { name: string; vmstate?: boolean; description?: string }): StepDraft {
  // Saving the RAM pauses a running VM while it is written out; a stopped VM has no RAM to save.
  const pauses = op.vmstate === true && GUEST_KINDS[guest.kind].rules.snapshotsSaveRam && guest.status === "running";
  return {
    action: "snapshot-create",
    severity: pauses ? "service-impact" : "configuration",
    summary: `take snapshot '${op.name}' of ${label(guest)}${pauses ? " with its RAM (the VM pauses while its memory is saved)" : ""}`,
    changes: [{ field: `snapshot ${op.name}`, after: pauses ? "taken, with RAM" : "taken" }],
    calls: [
      snapshotCreateCall(guest.kind, guest.node, guest.vmid, op.name, {
        ...(pauses ? { vmstate: true } : {}),
        ...(op.description ? { description: op.description } : {}),
      }),
    ],
  };
}

function deleteStep(guest: SnapshotGuest, name: string, why: string): StepDraft {
  return {
    action: "snapshot-delete",
    severity: "data-loss-risk",
    summary: `delete snapshot '${name}' of ${label(guest)}${why}: the state it holds is gone for good`,
    changes: [{ field: `snapshot ${name}`, before: "present" }],
    calls: [snapshotDeleteCall(guest.kind, guest.node, guest.vmid, name)],
  };
}

/**
 * PVE stops a running guest to roll it back; the stop is planned as a step of its own so it
 * carries its own severity (service-impact, --allow-restart) next to the rollback's data loss.
 * It is a hard stop, as PVE's own: the running state is discarded by the rollback anyway.
 */
function rollbackSteps(guest: SnapshotGuest, name: string, start: boolean): StepDraft[] {
  const steps: StepDraft[] = [];
  if (guest.status === "running") {
    steps.push({
      action: "stop",
      severity: "service-impact",
      summary: `stop ${label(guest)} to roll it back (hard stop: its running state is discarded by the rollback)`,
      changes: [{ field: "status", before: "running", after: "stopped" }],
      calls: [GUEST_KINDS[guest.kind].powerCall(guest.node, guest.vmid, "stop")],
    });
  }
  const restarts = start ? " and start it" : "";
  steps.push({
    action: "snapshot-rollback",
    severity: "data-loss-risk",
    summary: `roll ${label(guest)} back to snapshot '${name}'${restarts}: everything since that snapshot is lost`,
    changes: [{ field: "state", before: "current", after: `snapshot ${name}` }],
    calls: [snapshotRollbackCall(guest.kind, guest.node, guest.vmid, name, start)],
  });
  return steps;
}
