// The task API: /nodes/{node}/tasks (list), .../{upid}/status, .../{upid}/log, DELETE (stop),
// /cluster/tasks. Owners see their own tasks; others need Sys.Audit (Sys.Modify to stop) on
// /nodes/<node> (pve-manager PVE/API2/Tasks.pm).
import { isUpid } from "../../pve/upid.js";
import { type HandlerContext, PveApiError, PveResult, type Router } from "../contract.js";
import { authId } from "../access/authenticate.js";
import { flag, int, list, str } from "../params.js";
import type { TaskRecord, TaskRunner } from "./manager.js";

function listItem(t: TaskRecord): Record<string, unknown> {
  const item: Record<string, unknown> = {
    upid: t.upid,
    node: t.node,
    pid: t.pid,
    pstart: t.pstart,
    starttime: t.starttime,
    type: t.type,
    id: t.id,
    user: t.user,
  };
  if (t.status === "stopped") {
    item.endtime = t.endtime;
    item.status = t.exitstatus;
  } else item.status = "RUNNING";
  return item;
}

function isOwner(ctx: HandlerContext, t: TaskRecord): boolean {
  const me = authId(ctx.auth);
  if (t.user === me) return true;
  // A user owns the tasks of its own API tokens.
  return !ctx.auth.tokenid && t.user.startsWith(`${ctx.auth.userid}!`);
}

/** The status class PVE's statusfilter uses: ok, warning, error, unknown. */
function statusClass(t: TaskRecord): string {
  if (t.status !== "stopped") return "running";
  if (t.exitstatus === "OK") return "ok";
  if (t.exitstatus?.startsWith("WARNINGS")) return "warning";
  if (t.exitstatus === "unexpected status") return "unknown";
  return "error";
}

function findTask(runner: TaskRunner, node: string, upid: string): TaskRecord {
  if (!isUpid(upid)) throw new PveApiError(400, "Parameter verification failed.", { upid: "unable to parse worker upid" });
  const task = runner.get(upid);
  if (!task || task.node !== node) throw new PveApiError(400, "Parameter verification failed.", { upid: "no such task" });
  return task;
}

export function registerTaskHandlers(router: Router, runner: TaskRunner): void {
  router.add("GET", "/nodes/{node}/tasks", (ctx) => {
    const node = str(ctx.params, "node") ?? "";
    const source = str(ctx.params, "source") ?? "archive";
    const vmid = int(ctx.params, "vmid");
    const typefilter = str(ctx.params, "typefilter");
    const userfilter = str(ctx.params, "userfilter")?.toLowerCase();
    const errorsOnly = flag(ctx.params, "errors") === 1;
    const statusfilter = list(ctx.params, "statusfilter").map((s) => s.toLowerCase());
    const since = int(ctx.params, "since");
    const until = int(ctx.params, "until");
    const start = int(ctx.params, "start") ?? 0;
    const limit = int(ctx.params, "limit") ?? 50;
    const auditor = ctx.hasPermission(`/nodes/${node}`, ["Sys.Audit"]);
    const matches = runner
      .all()
      .filter((t) => {
        if (t.node !== node) return false;
        if (source === "archive" && t.status !== "stopped") return false;
        if (source === "active" && t.status === "stopped") return false;
        if (!auditor && !isOwner(ctx, t)) return false;
        if (vmid !== undefined && t.id !== String(vmid)) return false;
        if (typefilter && t.type !== typefilter) return false;
        if (userfilter && !t.user.toLowerCase().includes(userfilter)) return false;
        if (errorsOnly && (t.status !== "stopped" || t.exitstatus === "OK")) return false;
        if (statusfilter.length > 0 && t.status === "stopped" && !statusfilter.includes(statusClass(t))) return false;
        if (since !== undefined && t.starttime < since) return false;
        if (until !== undefined && t.starttime > until) return false;
        return true;
      })
      .sort((a, b) => b.starttime - a.starttime || b.pid - a.pid);
    const page = (limit === 0 ? matches.slice(start) : matches.slice(start, start + limit)).map(listItem);
    return new PveResult(page, { total: matches.length });
  });

  router.add("GET", "/nodes/{node}/tasks/{upid}", (ctx) => {
    findTask(runner, str(ctx.params, "node") ?? "", str(ctx.params, "upid") ?? "");
    return [{ name: "log" }, { name: "status" }];
  });

  router.add("GET", "/nodes/{node}/tasks/{upid}/status", (ctx) => {
    const node = str(ctx.params, "node") ?? "";
    const task = findTask(runner, node, str(ctx.params, "upid") ?? "");
    if (!isOwner(ctx, task)) ctx.checkPermission(`/nodes/${node}`, ["Sys.Audit"]);
    const bang = task.user.indexOf("!");
    const out: Record<string, unknown> = {
      upid: task.upid,
      node: task.node,
      pid: task.pid,
      pstart: task.pstart,
      starttime: task.starttime,
      type: task.type,
      id: task.id,
      user: bang < 0 ? task.user : task.user.slice(0, bang),
      status: task.status,
    };
    if (bang >= 0) out.tokenid = task.user.slice(bang + 1);
    if (task.status === "stopped") out.exitstatus = task.exitstatus;
    return out;
  });

  router.add("GET", "/nodes/{node}/tasks/{upid}/log", (ctx) => {
    const node = str(ctx.params, "node") ?? "";
    const task = findTask(runner, node, str(ctx.params, "upid") ?? "");
    if (!isOwner(ctx, task)) ctx.checkPermission(`/nodes/${node}`, ["Sys.Audit"]);
    const start = Math.max(0, int(ctx.params, "start") ?? 0);
    const limit = int(ctx.params, "limit") ?? 50;
    const lines = task.log.length === 0 && task.status === "running" ? [] : task.log;
    const slice = limit === 0 ? lines.slice(start) : lines.slice(start, start + limit);
    return new PveResult(
      slice.map((t, i) => ({ n: start + i + 1, t })),
      { total: lines.length },
    );
  });

  router.add("DELETE", "/nodes/{node}/tasks/{upid}", async (ctx) => {
    const node = str(ctx.params, "node") ?? "";
    const task = findTask(runner, node, str(ctx.params, "upid") ?? "");
    if (!isOwner(ctx, task)) ctx.checkPermission(`/nodes/${node}`, ["Sys.Modify"]);
    await runner.stop(task.upid);
    return null;
  });

  router.add("GET", "/cluster/tasks", (ctx) => {
    const visible = runner
      .all()
      .filter((t) => isOwner(ctx, t) || ctx.hasPermission(`/nodes/${t.node}`, ["Sys.Audit"]))
      .sort((a, b) => b.starttime - a.starttime || b.pid - a.pid)
      .slice(0, 200);
    return visible.map((t) => ({ ...listItem(t), ...(t.status === "stopped" ? { saved: "1" } : {}) }));
  });
}
