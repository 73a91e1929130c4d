// Waiting for a PVE task (UPID): poll its status quickly at first and at most a second apart
// later, stop at once when it ends, and on failure show the last lines of its log.
// `WARNINGS: n` is success; the warnings are returned.
import { parseUpid, type Upid } from "../pve/upid.js";
import { PveFormatError } from "../pve/errors.js";
import { PveError } from "./errors.js";
import type { Envelope } from "./transport.js";

export interface TaskResult {
  upid: string;
  node: string;
  type: string;
  id: string;
  exitstatus: string;
  warnings: string[];
}

export interface WaitOptions {
  /** Wall-clock limit; default 15 minutes. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** What waiting needs from the client: a GET that returns the whole envelope (for `total`). */
export type EnvelopeGetter = (path: string, params: Record<string, unknown>, signal?: AbortSignal) => Promise<Envelope>;

export const DEFAULT_TASK_TIMEOUT_MS = 15 * 60 * 1000;
/** Delays between polls: quick first (most tasks finish in well under a second), then 1 s. */
const POLL_DELAYS_MS = [50, 100, 200, 400, 700];
const MAX_POLL_DELAY_MS = 1000;
const LOG_TAIL_LINES = 10;
const WARNINGS = /^WARNINGS: (\d+)$/;

export function pollDelay(attempt: number): number {
  return POLL_DELAYS_MS[attempt] ?? MAX_POLL_DELAY_MS;
}

function parseTaskId(upid: string): Upid {
  try {
    return parseUpid(upid);
  } catch (err) {
    if (!(err instanceof PveFormatError)) throw err;
    throw new PveError({ kind: "config", code: "BAD_UPID", message: `cannot wait for task: ${err.userMessage()}` });
  }
}

function describe(task: Upid): string {
  return `task ${task.type}${task.id ? ` ${task.id}` : ""} on node ${task.node}`;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

interface LogLine {
  n: number;
  t: string;
}

function logLines(envelope: Envelope): LogLine[] {
  const data = Array.isArray(envelope.data) ? envelope.data : [];
  return data
    .filter((line): line is LogLine => typeof line === "object" && line !== null && "t" in line)
    .map((line) => ({ n: Number(line.n), t: String(line.t) }));
}

/** The whole log when short, else its last lines (PVE pages the log: start + limit, with `total`). */
async function readLog(get: EnvelopeGetter, upid: string, task: Upid, wantAll: boolean): Promise<string[]> {
  const path = `/nodes/${encodeURIComponent(task.node)}/tasks/${encodeURIComponent(upid)}/log`;
  const first = await get(path, { start: 0, limit: 500 });
  let lines = logLines(first);
  const total = typeof first.total === "number" ? first.total : lines.length;
  if (total > lines.length && !wantAll) {
    lines = logLines(await get(path, { start: Math.max(0, total - LOG_TAIL_LINES), limit: LOG_TAIL_LINES }));
  }
  return lines.map((line) => line.t);
}

/**
 * The outcome of a task that has ended with `exitstatus`: `OK` and `WARNINGS: n` succeed (with the
 * log's WARN lines), anything else throws a task error carrying the last lines of its log. Every
 * waiter (one task, or many through a node's task list) ends here, so all report alike.
 */
export async function settleStoppedTask(get: EnvelopeGetter, upid: string, exitstatus: string): Promise<TaskResult> {
  const task = parseTaskId(upid);
  const result = { upid, node: task.node, type: task.type, id: task.id, exitstatus };
  if (exitstatus === "OK") return { ...result, warnings: [] };
  if (WARNINGS.test(exitstatus)) {
    const log = await readLog(get, upid, task, true).catch(() => []);
    return { ...result, warnings: log.filter((line) => line.startsWith("WARN")) };
  }
  const logTail = (await readLog(get, upid, task, false).catch(() => [])).slice(-LOG_TAIL_LINES);
  const tail = logTail.length > 0 ? `\nlast lines of the task log:\n${logTail.map((l) => `  ${l}`).join("\n")}` : "";
  throw new PveError({
    kind: "task",
    path: `/nodes/${encodeURIComponent(task.node)}/tasks/${encodeURIComponent(upid)}/status`,
    pveMessage: exitstatus,
    task: { upid, exitstatus, logTail },
    message: `${describe(task)} failed: ${exitstatus}${tail}\n(task ${upid})`,
  });
}

export async function waitForTask(get: EnvelopeGetter, upid: string, options: WaitOptions = {}): Promise<TaskResult> {
  const task = parseTaskId(upid);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const statusPath = `/nodes/${encodeURIComponent(task.node)}/tasks/${encodeURIComponent(upid)}/status`;
  for (let attempt = 0; ; attempt++) {
    const status = (await get(statusPath, {}, options.signal)).data as Record<string, unknown> | null | undefined;
    if (status && status.status === "stopped") return settleStoppedTask(get, upid, String(status.exitstatus ?? "unexpected status"));
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      throw new PveError({
        kind: "timeout",
        path: statusPath,
        code: "TASK_TIMEOUT",
        message:
          `${describe(task)} still running after ${Math.round(timeoutMs / 1000)} s; pvectl stopped waiting but the task goes on. ` +
          `Follow it in the PVE task list or with: pvesh get /nodes/${task.node}/tasks/${upid}/status`,
      });
    }
    await sleep(Math.min(pollDelay(attempt), remaining), options.signal);
  }
}
