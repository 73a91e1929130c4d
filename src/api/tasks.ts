// Waiting for one PVE task (UPID): poll its status quickly at first and at most a second apart
// later, stop at once when it ends, and settle it like every waiter does (task-outcome.ts).
// For many tasks at once, TaskWatcher (task-watcher.ts) asks each node once per poll.
import { sleep } from "../util/sleep.js";
import type { EnvelopeReader } from "./endpoints/call.js";
import { getTaskStatus, taskStatusPath } from "./endpoints/tasks.js";
import { PveError } from "./errors.js";
import { describeTask, exitStatusOf, parseTaskId, settleStoppedTask, type TaskResult } from "./task-outcome.js";

export type { TaskResult } from "./task-outcome.js";

export interface WaitOptions {
  /** Wall-clock limit; default 15 minutes. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export const DEFAULT_TASK_TIMEOUT_MS = 15 * 60 * 1000;
/** Delays between polls: quick first (most tasks finish in well under a second), then 1 s. */
const POLL_DELAYS_MS = [50, 100, 200, 400, 700];
const MAX_POLL_DELAY_MS = 1000;

export function pollDelay(attempt: number): number {
  return POLL_DELAYS_MS[attempt] ?? MAX_POLL_DELAY_MS;
}

/** Resolves on `OK` and `WARNINGS: n`; throws a PveError (kind "task") on failure, "timeout" past the limit. */
export async function waitForTask(api: EnvelopeReader, upid: string, options: WaitOptions = {}): Promise<TaskResult> {
  const task = parseTaskId(upid);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    const ended = exitStatusOf(await getTaskStatus(api, task.node, upid, options.signal));
    if (ended !== undefined) return settleStoppedTask(api, upid, ended);
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      throw new PveError({
        kind: "timeout",
        path: taskStatusPath(task.node, upid),
        code: "TASK_TIMEOUT",
        message:
          `${describeTask(task)} still running after ${Math.round(timeoutMs / 1000)} s; pvectl stopped waiting but the task goes on. ` +
          `Follow it in the PVE task list or with: pvesh get /nodes/${task.node}/tasks/${upid}/status`,
      });
    }
    await sleep(Math.min(pollDelay(attempt), remaining), options.signal);
  }
}
