// What every task waiter shares: reading a UPID, telling an ended task from a running one,
// and settling an ended task: `OK` and `WARNINGS: n` succeed (with the log's WARN lines),
// anything else fails with the last lines of its log. The single-task wait (tasks.ts) and
// the batched watcher (task-watcher.ts) both end here, so a task reports alike however it
// was awaited.
import { PveFormatError } from "../pve/errors.js";
import { parseUpid, type Upid } from "../pve/upid.js";
import type { EnvelopeReader } from "./endpoints/call.js";
import { getTaskLog, type TaskStatus, taskStatusPath } from "./endpoints/tasks.js";
import { PveError } from "./errors.js";

export interface TaskResult {
  upid: string;
  node: string;
  type: string;
  id: string;
  exitstatus: string;
  warnings: string[];
}

const LOG_TAIL_LINES = 10;
const LOG_PAGE_LINES = 500;
const WARNINGS = /^WARNINGS: (\d+)$/;

/** The UPID's parts, or a config error naming what is wrong with it (nothing is asked of the server). */
export function parseTaskId(upid: string): Upid {
  try {
    return parseUpid(upid);
  } catch (err) {
    if (!(err instanceof PveFormatError)) throw err;
    throw new PveError({ kind: "config", code: "BAD_UPID", message: `cannot wait for task: ${err.userMessage()}` });
  }
}

export function describeTask(task: Upid): string {
  return `task ${task.type}${task.id ? ` ${task.id}` : ""} on node ${task.node}`;
}

/** The exit status of a task that has ended; undefined while it runs (or when PVE said nothing). */
export function exitStatusOf(status: TaskStatus | undefined): string | undefined {
  return status?.status === "stopped" ? String(status.exitstatus ?? "unexpected status") : undefined;
}

/** The whole log when it fits one page or `wantAll`, else its last lines (PVE pages the log: start + limit, with `total`). */
async function readLog(api: EnvelopeReader, upid: string, task: Upid, wantAll: boolean): Promise<string[]> {
  const first = await getTaskLog(api, task.node, upid, { start: 0, limit: LOG_PAGE_LINES });
  if (first.total <= first.lines.length || wantAll) return first.lines;
  return (await getTaskLog(api, task.node, upid, { start: Math.max(0, first.total - LOG_TAIL_LINES), limit: LOG_TAIL_LINES })).lines;
}

/** The outcome of a task that has ended with `exitstatus`; throws a task error on failure. */
export async function settleStoppedTask(api: EnvelopeReader, upid: string, exitstatus: string): Promise<TaskResult> {
  const task = parseTaskId(upid);
  const result = { upid, node: task.node, type: task.type, id: task.id, exitstatus };
  if (exitstatus === "OK") return { ...result, warnings: [] };
  if (WARNINGS.test(exitstatus)) {
    const log = await readLog(api, upid, task, true).catch(() => []);
    return { ...result, warnings: log.filter((line) => line.startsWith("WARN")) };
  }
  const logTail = (await readLog(api, upid, task, false).catch(() => [])).slice(-LOG_TAIL_LINES);
  const tail = logTail.length > 0 ? `\nlast lines of the task log:\n${logTail.map((l) => `  ${l}`).join("\n")}` : "";
  throw new PveError({
    kind: "task",
    path: taskStatusPath(task.node, upid),
    pveMessage: exitstatus,
    task: { upid, exitstatus, logTail },
    message: `${describeTask(task)} failed: ${exitstatus}${tail}\n(task ${upid})`,
  });
}
