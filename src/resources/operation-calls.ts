// The API calls each operation pvectl offers on a desired guest would make, whatever its live
// state: `pvectl access needs` runs the privilege derivation over them, so the privileges it
// reports and the ones preflight checks come from the same code and can never disagree.
// Built from the spec alone (no cluster read): the create call is the kind's own create step;
// every other call reuses the writes of that create (a change writes the same keys, with the
// same values, that a create would), the kind's paths and the shared call builders.
import type { CallIntent, ConfigWrite, GuestType, PowerAction } from "../plan/intent.js";
import type { ApiCall } from "../plan/types.js";
import { ALLOCATED_VMID, type VmidRef } from "./api-paths.js";
import { GUEST_KINDS } from "./index.js";
import { endpointCall, type EndpointCall } from "../plan/call.js";
import { type CloneSourceFacts, cloneStep, UNKNOWN_VMID } from "./clone-step.js";
import { type DesiredGuest, kindOf } from "./index.js";
import { poolCalls } from "./pool-calls.js";
import { snapshotCreateCall, snapshotDeleteCall, snapshotRollbackCall } from "./snapshot-calls.js";

/** What an operator (or apply) can do to a guest of the spec; each a separate line of `access needs`. */
export type GuestOperation = "create" | "clone" | "change" | "power" | "migrate" | "destroy" | "template" | "pool" | "snapshot" | "backup";

export interface OperationCalls {
  operation: GuestOperation;
  calls: ApiCall[];
}

export interface OperationOptions {
  /** Snapshot create/delete/rollback for every guest (`pvectl snapshot`); without it only guests with `snapshots:` retention get create and delete. */
  snapshots?: boolean;
  /** Storages `pvectl backup run` / `restore` use for these guests. */
  backupStorages?: string[];
  /** The clone source of a guest with `clone:`, as far as the specs tell (undefined: not in the specs). */
  cloneSource?: CloneSourceFacts;
}

/** The name parameter of a kind's clone call. */
const CLONE_NAME: Record<GuestType, string> = { qemu: "name", lxc: "hostname" };
const POWER_ACTIONS: PowerAction[] = ["start", "shutdown", "stop", "reboot"];

function call(endpoint: EndpointCall, intent: CallIntent): ApiCall {
  return { ...endpoint, intent };
}

/** The writes of the kind's create step: every key, disk and NIC the spec sets. */
function createCalls(guest: DesiredGuest): ApiCall[] {
  return kindOf(guest)
    .plan.create(guest)
    .steps.flatMap((s) => s.calls);
}

function writesOf(calls: ApiCall[]): ConfigWrite[] {
  return calls.flatMap((c) => (c.intent.op === "create" ? c.intent.writes : []));
}

/** A change of every key the spec manages, and the delete of each (a slot dropped from the spec, a detach). */
function changeCalls(guest: DesiredGuest, type: GuestType, vmid: VmidRef, writes: ConfigWrite[]): ApiCall[] {
  const endpoints = GUEST_KINDS[type].endpoints;
  // A removed drive is checked by what it holds: the spec says what each slot is.
  const deletedMedia = Object.fromEntries(writes.flatMap((w) => (w.as === "drive" ? [[w.key, w.media]] : [])));
  const configure = (method: "PUT" | "POST", deletes: string[]): ApiCall =>
    // Only a kind with POST …/config (VMs) is ever asked for one.
    call(method === "POST" && endpoints.configPost ? endpoints.configPost(guest.node, vmid, {}) : endpoints.config(guest.node, vmid, {}), {
      kind: type,
      op: "configure",
      writes,
      deletes,
      ...(deletes.length > 0 ? { deletedMedia } : {}),
      allocates: method === "POST",
    });
  const slots = writes.filter((w) => w.as !== "option").map((w) => w.key);
  const calls = [configure("PUT", slots)];
  // VMs write keys that allocate (a new disk, a NIC's MAC) with POST, which runs as a task.
  if (kindOf({ kind: type }).rules.configPost) calls.push(configure("POST", []));
  const disk = writes.find((w) => w.as === "drive" && w.media === "disk");
  if (disk) calls.push(call(endpoints.resize(guest.node, vmid), { kind: type, op: "resize", slot: disk.key, sizeBytes: 1 }));
  return calls;
}

function powerCalls(guest: DesiredGuest, type: GuestType, vmid: VmidRef): ApiCall[] {
  return POWER_ACTIONS.map((action) =>
    call(GUEST_KINDS[type].endpoints.status(guest.node, vmid, action, {}), { kind: type, op: "power", action }),
  );
}

/** A change of the spec's node moves the guest (POST …/migrate; VM.Migrate, whatever the target). */
function migrateCall(guest: DesiredGuest, type: GuestType, vmid: number): ApiCall {
  return call(GUEST_KINDS[type].endpoints.migrate(guest.node, vmid, { target: guest.node }), {
    kind: type,
    op: "migrate",
    from: guest.node,
    target: guest.node,
    mode: "offline",
    localVolumes: [],
    storages: [],
    bridges: [],
  });
}

function snapshotCalls(type: GuestType, node: string, vmid: number, rollback: boolean): ApiCall[] {
  const name = "pvectl";
  const calls = [snapshotCreateCall(type, node, vmid, name), snapshotDeleteCall(type, node, vmid, name)];
  if (rollback) calls.push(snapshotRollbackCall(type, node, vmid, name, false));
  return calls;
}

/** `backup run` to each storage, and a restore of such a backup over the guest. */
function backupCalls(type: GuestType, node: string, vmid: number, storages: string[]): ApiCall[] {
  return storages.flatMap((storage) => {
    const archive = { storage, volume: `${storage}:backup/vzdump-${type}-${vmid}-pvectl.tar.zst` };
    return [
      call(endpointCall("POST", "/nodes/{node}/vzdump", { node }, { vmid, storage }), {
        kind: type,
        op: "backup",
        vmid,
        storage,
        mode: "snapshot",
      }),
      call(GUEST_KINDS[type].endpoints.create(node, { vmid, force: 1 }), {
        kind: type,
        op: "restore",
        vmid,
        archive,
        replaces: true,
        start: false,
      }),
    ];
  });
}

/** The clone call, when the source is known (`clone.from` a vmid, or a guest of the specs). */
function cloneCalls(guest: DesiredGuest, type: GuestType, source: CloneSourceFacts | undefined): ApiCall[] {
  if (guest.clone === undefined || source === undefined) return [];
  const pool = "pool" in guest ? guest.pool : undefined;
  const target = {
    name: guest.name,
    node: guest.node,
    ...(guest.vmid !== undefined ? { vmid: guest.vmid } : {}),
    ...(pool ? { pool } : {}),
  };
  return cloneStep(type, CLONE_NAME[type], target, guest.clone, source).calls;
}

/**
 * Every operation of a desired guest with the calls it makes. A guest whose vmid is allocated
 * at apply is said with ALLOCATED_VMID in paths (0 where a number is needed): the caller reads both
 * as "a guest not known yet".
 */
export function guestOperationCalls(guest: DesiredGuest, options: OperationOptions = {}): OperationCalls[] {
  const type = kindOf(guest).type;
  const vmid: VmidRef = guest.vmid ?? ALLOCATED_VMID;
  const number = guest.vmid ?? UNKNOWN_VMID;
  const creates = createCalls(guest);
  const ops: OperationCalls[] = [];
  if (guest.clone !== undefined) ops.push({ operation: "clone", calls: cloneCalls(guest, type, options.cloneSource) });
  else ops.push({ operation: "create", calls: creates.filter((c) => c.intent.op !== "template") });
  ops.push({ operation: "change", calls: changeCalls(guest, type, vmid, writesOf(creates)) });
  ops.push({ operation: "power", calls: powerCalls(guest, type, vmid) });
  ops.push({ operation: "migrate", calls: [migrateCall(guest, type, number)] });
  ops.push({
    operation: "destroy",
    calls: [call(GUEST_KINDS[type].endpoints.destroy(guest.node, vmid, { purge: 1 }), { kind: type, op: "destroy" })],
  });
  if ("template" in guest && guest.template === true)
    ops.push({
      operation: "template",
      calls: [call(GUEST_KINDS[type].endpoints.template(guest.node, vmid), { kind: type, op: "template" })],
    });
  const pool = "pool" in guest ? guest.pool : undefined;
  if (pool) ops.push({ operation: "pool", calls: [poolCalls.join(pool, number), poolCalls.move(pool, number)] });
  if (options.snapshots || guest.snapshots !== undefined)
    ops.push({ operation: "snapshot", calls: snapshotCalls(type, guest.node, number, options.snapshots === true) });
  const storages = options.backupStorages ?? [];
  if (storages.length > 0) ops.push({ operation: "backup", calls: backupCalls(type, guest.node, number, storages) });
  return ops.filter((op) => op.calls.length > 0);
}
