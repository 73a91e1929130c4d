// The seam between the simulator's platform (HTTP server, auth, access control, validation,
// tasks, faults, state files, admin API) and its guest model (nodes, storages, QEMU, LXC,
// snapshots, backups, pools). Both halves code against these types only.
// The simulator models PVE; it never imports pvectl's client (api/), engine/ or resources/.

import type { EndpointSchema, HttpMethod } from "../schema/types.js";

/** Thrown by handlers; the server renders it exactly as PVE would. */
export class PveApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Per-parameter messages; rendered as 400 `Parameter verification failed.` + `errors`. */
    readonly errors?: Record<string, string>,
  ) {
    super(message);
    this.name = "PveApiError";
  }
}

/** Who is calling: a user (ticket) or an API token of a user. */
export interface AuthIdentity {
  /** e.g. "root@pam" */
  userid: string;
  /** Token name only (e.g. "automation") when the call uses an API token. */
  tokenid?: string;
  /** Privilege separation of the token (then the token's own ACLs apply, intersected with the user's). */
  privsep?: boolean;
}

/** Information about the running task handed to its work function. */
export interface TaskHandle {
  readonly upid: string;
  log(line: string): void;
  warn(line: string): void;
}

export interface StartTaskOptions {
  node: string;
  /** PVE worker type, e.g. "qmcreate", "qmstart", "qmstop", "qmshutdown", "qmdestroy", "qmclone", "vzcreate", "vzdump", "qmsnapshot" ... */
  type: string;
  /** The object id in the UPID, usually the vmid as a string; "" when none. */
  id: string;
  /** Task duration profile for realistic timing, e.g. "create", "clone", "start", "stop", "destroy", "backup", "snapshot", "config". */
  kind: string;
  /** For size-proportional tasks (clone, move, backup): bytes to copy. */
  bytes?: number;
  /** The task's user when not the caller's: the HA stack's tasks run as root@pam. */
  user?: string;
  /**
   * A supervisor (migrateall) that mostly waits for the tasks it starts: it takes none of the
   * node's worker slots and is not counted as running in the task load, so its children get
   * every slot, as PVE's forked worker does not compete with the migrations it starts.
   */
  supervisor?: boolean;
  /**
   * The task's effect on the cluster. Runs when the task's (simulated) time has elapsed;
   * throwing fails the task with the error's message as exit status.
   * State that must be visible while the task runs (e.g. `lock: create`) is set by the handler before starting.
   */
  work: (task: TaskHandle) => void | Promise<void>;
  /**
   * Optional: undoes what the handler set up before starting (e.g. clears `lock: create`, removes
   * a half-created guest) when the task fails WITHOUT running `work`: an injected task failure
   * (admin API) or a stop (DELETE /nodes/{node}/tasks/{upid}). Not called when `work` itself throws.
   */
  onFailure?: (task: TaskHandle, message: string) => void | Promise<void>;
}

export interface TaskManager {
  /** Starts a worker task and returns its UPID at once (as PVE does). */
  start(options: StartTaskOptions): string;
}

/** Deterministic randomness (seeded with --seed). */
export interface Random {
  next(): number;
  /** n random bytes as lowercase hex. */
  hex(bytes: number): string;
}

export interface HandlerContext {
  method: HttpMethod;
  /** The concrete path below /api2/json, e.g. "/nodes/pve1/qemu/100/config". */
  path: string;
  endpoint: EndpointSchema;
  /**
   * Path, query and body parameters merged and validated against the endpoint's schema:
   * integers and numbers as numbers, booleans as 0|1 numbers, everything else as strings
   * (property strings unparsed). Indexed keys keep their concrete names (net0, scsi1).
   */
  params: Record<string, string | number | undefined>;
  auth: AuthIdentity;
  /** True when `auth` holds `privs` on `path` (all of them, or any of them with `any`). */
  hasPermission(path: string, privs: string[], any?: boolean): boolean;
  /** Throws 403 `Permission check failed (path, priv)` unless `hasPermission`. */
  checkPermission(path: string, privs: string[], any?: boolean): void;
  tasks: TaskManager;
  random: Random;
  /** Simulated wall clock, seconds since the epoch. */
  now(): number;
  /** The whole simulated cluster (see ClusterModel). */
  cluster: ClusterModel;
}

/**
 * A handler result with top-level attributes next to `data`, e.g. `total` for task lists and
 * logs (PVE's set_result_attrib). Return `new PveResult(items, { total: n })`.
 */
export class PveResult {
  constructor(
    readonly data: unknown,
    readonly attributes: Record<string, unknown>,
  ) {}
}

/** Elements of a JsonList produced only when written, as JSON text, a range at a time. */
export interface JsonRun {
  readonly length: number;
  /** The JSON of elements [start, end), joined by commas. */
  text(start: number, end: number): string;
}

/**
 * A handler's result array made of plain arrays and runs produced while the response is
 * written, a slice at a time: a listing of 10,000 guests then never exists whole in the heap
 * (built whole, it outgrew V8's young generation and was promoted, to wait for a full
 * collection). Only a top-level result may be a JsonList.
 */
export class JsonList {
  constructor(readonly parts: ReadonlyArray<unknown[] | JsonRun>) {}
  /** Anywhere else JSON.stringify still writes the right value, all at once. */
  toJSON(): unknown[] {
    return this.parts.flatMap((part) => (Array.isArray(part) ? part : (JSON.parse(`[${part.text(0, part.length)}]`) as unknown[])));
  }
}

export type Handler = (ctx: HandlerContext) => unknown | Promise<unknown>;

export interface Router {
  /** Registers a handler for a schema path template such as "/nodes/{node}/qemu/{vmid}/config". */
  add(method: HttpMethod, template: string, handler: Handler): void;
}

/**
 * What the platform half needs from the guest model: node liveness (for "node offline" faults
 * and proxied requests), and a JSON form of the whole cluster for --state files and reset.
 */
export interface ClusterModel {
  nodeNames(): string[];
  isNodeOnline(node: string): boolean;
  setNodeOnline(node: string, online: boolean): void;
  /** Sets or clears a guest's config `lock` (admin API "hold a lock"); false when the guest does not exist. */
  setGuestLock(vmid: number, lock: string | undefined): boolean;
  toJSON(): unknown;
  /**
   * Optional: pool membership, so ACLs on /pool/<pool> reach the pool's guests and storages
   * (and GET /access/permissions lists member paths). Without it pools grant nothing.
   */
  poolOfGuest?(vmid: number): string | undefined;
  poolOfStorage?(storage: string): string | undefined;
  /** Optional: every pool's members (GET /access/permissions lists `/vms/<id>` and `/storage/<id>` of pools). */
  poolMembers?(): Array<{ poolid: string; vmids: number[]; storages: string[] }>;
  /**
   * Optional: reacts to a node going offline or coming back (the simulated HA manager recovers
   * or fails back its resources), starting its tasks through `tasks`.
   */
  nodeLivenessChanged?(tasks: TaskManager): void;
  /** Optional: the cluster's name (login responses carry it as `clustername`). */
  clusterName?(): string | undefined;
}
