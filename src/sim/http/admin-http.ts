// The admin API over HTTP, outside /api2 so no PVE client ever reaches it by accident:
//   GET    /_sim/info                       seed, timing, nodes, registered endpoints count
//   GET    /_sim/faults                     active request and task faults
//   POST   /_sim/faults                     {method?, path?, status?, message?, latencyMs?, drop?, times?, probability?}
//   POST   /_sim/task-faults                {type?, vmid?, node?, message?, times?}
//   DELETE /_sim/faults[/{id}]              remove one fault, or all
//   POST   /_sim/locks                      {vmid, lock?}   hold a guest lock (default "backup")
//   DELETE /_sim/locks/{vmid}               release it
//   POST   /_sim/nodes/{node}/offline|online
//   POST   /_sim/reset                      back to the initial state
//   POST   /_sim/state/save                 {file?}
//   GET    /_sim/access-log[?entries=0]     per-endpoint counts (and entries)
//   DELETE /_sim/access-log
//   POST   /_sim/clock/advance              {seconds}
//   PUT    /_sim/timing                     {profile?, timeScale?, workersPerNode?}
//   POST   /_sim/tasks/wait                 {timeoutMs?}  resolves when no task runs
// Every request needs the admin token (admin-guard.ts); POST and PUT need a JSON body (an
// empty one, or {}, where nothing is said). Every input is checked against its shape
// (admin-input.ts): a bad one is a 400 naming the field.
// Answers are JSON {"data": ...}; errors {"error": "..."} with status 400, 401, 404 or 415.
import type { SimAdmin } from "../admin.js";
import { type StateFilePolicy, stateFileForSave } from "../admin-state-path.js";
import {
  AdminInputError,
  CLOCK_SHAPE,
  EMPTY_SHAPE,
  LOCK_SHAPE,
  readIdSegment,
  readShape,
  REQUEST_FAULT_SHAPE,
  SAVE_SHAPE,
  TASK_FAULT_SHAPE,
  TIMING_SHAPE,
  WAIT_SHAPE,
} from "./admin-input.js";
import type { ApiResponse } from "./response.js";

function data(value: unknown): ApiResponse {
  return { status: 200, message: "OK", body: { data: value === undefined ? null : value } };
}

export function adminFailure(status: number, error: string): ApiResponse {
  return { status, message: error, body: { error } };
}

export interface AdminInfo {
  info(): Record<string, unknown>;
}

export interface AdminContext {
  admin: SimAdmin;
  info: AdminInfo;
  statePolicy: StateFilePolicy;
}

function accessLogEntries(query: URLSearchParams): boolean {
  const entries = query.get("entries");
  if (entries !== null && entries !== "0" && entries !== "1")
    throw new AdminInputError(`GET /_sim/access-log: 'entries' must be 0 or 1, not '${entries}'`);
  return entries !== "0";
}

/** The operations without a path parameter, by "METHOD /path". */
async function fixedRoute(ctx: AdminContext, route: string, query: URLSearchParams, body: unknown): Promise<ApiResponse | undefined> {
  const { admin } = ctx;
  const what = `${route.replace(" /", " /_sim/")}`;
  switch (route) {
    case "GET /info":
      return data(ctx.info.info());
    case "GET /faults":
      return data(admin.listFaults());
    case "POST /faults":
      return data(admin.injectFault(readShape(body, REQUEST_FAULT_SHAPE, what)));
    case "POST /task-faults":
      return data(admin.failTasks(readShape(body, TASK_FAULT_SHAPE, what)));
    case "DELETE /faults":
      admin.clearFaults();
      return data(null);
    case "POST /locks": {
      const { vmid, lock } = readShape(body, LOCK_SHAPE, what);
      if (!admin.holdLock(vmid, lock)) return adminFailure(404, `no guest with vmid ${vmid}`);
      return data(null);
    }
    case "POST /reset":
      readShape(body, EMPTY_SHAPE, what);
      admin.reset();
      return data(null);
    case "POST /state/save": {
      const file = stateFileForSave(readShape(body, SAVE_SHAPE, what).file, ctx.statePolicy);
      if (file instanceof Error) throw new AdminInputError(`${what}: ${file.message}`);
      return data({ file: admin.saveState(file) });
    }
    case "GET /access-log":
      return data(admin.accessLog({ entries: accessLogEntries(query) }));
    case "DELETE /access-log":
      admin.resetAccessLog();
      return data(null);
    case "GET /task-load":
      return data(admin.taskLoad());
    case "DELETE /task-load":
      admin.resetTaskLoad();
      return data(null);
    case "POST /clock/advance":
      admin.advanceClock(readShape(body, CLOCK_SHAPE, what).seconds);
      return data(null);
    case "PUT /timing":
      admin.setTiming(readShape(body, TIMING_SHAPE, what));
      return data(admin.timing());
    case "POST /tasks/wait":
      await admin.waitForTasks(readShape(body, WAIT_SHAPE, what).timeoutMs);
      return data(null);
  }
  return undefined;
}

/** The operations on one fault, lock or node named in the path. */
function itemRoute(ctx: AdminContext, method: string, parts: string[], body: unknown): ApiResponse | undefined {
  const [kind, id, action] = parts;
  const what = `${method} /_sim/${parts.join("/")}`;
  if (method === "DELETE" && kind === "faults" && parts.length === 2) {
    const n = readIdSegment(id, 1, what);
    return ctx.admin.removeFault(n) ? data(null) : adminFailure(404, `no fault with id ${n}`);
  }
  if (method === "DELETE" && kind === "locks" && parts.length === 2) {
    const vmid = readIdSegment(id, 100, what);
    return ctx.admin.releaseLock(vmid) ? data(null) : adminFailure(404, `no guest with vmid ${vmid}`);
  }
  if (method === "POST" && kind === "nodes" && parts.length === 3 && (action === "offline" || action === "online")) {
    readShape(body, EMPTY_SHAPE, what);
    ctx.admin.setNodeOnline(id as string, action === "online");
    return data(null);
  }
  return undefined;
}

/** `body` is the parsed JSON body, undefined when there was none. */
export async function handleAdmin(
  ctx: AdminContext,
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
): Promise<ApiResponse> {
  const parts = path.split("/").filter(Boolean).slice(1);
  const input = body === undefined ? {} : body;
  try {
    const answer = (await fixedRoute(ctx, `${method} /${parts.join("/")}`, query, input)) ?? itemRoute(ctx, method, parts, input);
    return answer ?? adminFailure(404, `no admin operation ${method} ${path}`);
  } catch (err) {
    return adminFailure(400, err instanceof Error ? err.message : String(err));
  }
}
