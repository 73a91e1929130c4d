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
// Answers are JSON {"data": ...}; errors {"error": "..."} with status 400 or 404.
import type { SimAdmin } from "../admin.js";
import type { ApiResponse } from "./response.js";

type Body = Record<string, unknown>;

function data(value: unknown): ApiResponse {
  return { status: 200, message: "OK", body: { data: value === undefined ? null : value } };
}

function fail(status: number, error: string): ApiResponse {
  return { status, message: error, body: { error } };
}

function num(value: unknown): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

export interface AdminInfo {
  info(): Record<string, unknown>;
}

export async function handleAdmin(
  admin: SimAdmin,
  info: AdminInfo,
  method: string,
  path: string,
  query: URLSearchParams,
  body: Body,
): Promise<ApiResponse> {
  const parts = path.split("/").filter(Boolean).slice(1);
  const wild = parts[0] === "faults" || parts[0] === "locks";
  const route = `${method} /${parts.map((p, i) => (wild && i === 1 ? "*" : p)).join("/")}`;
  try {
    switch (route) {
      case "GET /info":
        return data(info.info());
      case "GET /faults":
        return data(admin.listFaults());
      case "POST /faults":
        return data(admin.injectFault(body));
      case "POST /task-faults":
        return data(admin.failTasks(body));
      case "DELETE /faults":
        admin.clearFaults();
        return data(null);
      case "DELETE /faults/*": {
        const id = num(parts[1]);
        if (id === undefined || !admin.removeFault(id)) return fail(404, `no fault with id ${parts[1]}`);
        return data(null);
      }
      case "POST /locks": {
        const vmid = num(body.vmid);
        if (vmid === undefined) return fail(400, "vmid is required");
        const lock = typeof body.lock === "string" ? body.lock : undefined;
        if (!admin.holdLock(vmid, lock)) return fail(404, `no guest with vmid ${vmid}`);
        return data(null);
      }
      case "DELETE /locks/*": {
        const vmid = num(parts[1]);
        if (vmid === undefined || !admin.releaseLock(vmid)) return fail(404, `no guest with vmid ${parts[1]}`);
        return data(null);
      }
      case "POST /reset":
        admin.reset();
        return data(null);
      case "POST /state/save":
        return data({ file: admin.saveState(typeof body.file === "string" ? body.file : undefined) });
      case "GET /access-log":
        return data(admin.accessLog({ entries: query.get("entries") !== "0" }));
      case "DELETE /access-log":
        admin.resetAccessLog();
        return data(null);
      case "POST /clock/advance": {
        const seconds = num(body.seconds);
        if (seconds === undefined) return fail(400, "seconds is required");
        admin.advanceClock(seconds);
        return data(null);
      }
      case "PUT /timing": {
        const patch: Parameters<SimAdmin["setTiming"]>[0] = {};
        if (body.profile === "instant" || body.profile === "realistic") patch.profile = body.profile;
        const timeScale = num(body.timeScale);
        if (timeScale !== undefined) patch.timeScale = timeScale;
        const workers = num(body.workersPerNode);
        if (workers !== undefined) patch.workersPerNode = workers;
        admin.setTiming(patch);
        return data(admin.timing());
      }
      case "POST /tasks/wait":
        await admin.waitForTasks(num(body.timeoutMs));
        return data(null);
    }
    if (method === "POST" && parts[0] === "nodes" && parts.length === 3 && (parts[2] === "offline" || parts[2] === "online")) {
      admin.setNodeOnline(parts[1] as string, parts[2] === "online");
      return data(null);
    }
    return fail(404, `no admin operation ${method} ${path}`);
  } catch (err) {
    return fail(400, err instanceof Error ? err.message : String(err));
  }
}
