// Awaits many tasks at once with one list call per node per poll instead of one status call
// per task: GET /nodes/{node}/tasks?source=all&since=<oldest start>&userfilter=<us> shows
// every task of ours with its exit status once it ended. A failure is noticed at the next
// poll (at most a second later); an ended task is settled as the single-task wait settles it
// (task-outcome.ts: warnings, or the failure with the last lines of the task log).
import { sleep } from "../util/sleep.js";
import { type ApiReader, type EnvelopeReader, getNodeTasks, getTaskStatus, type ListedTask } from "./endpoints/index.js";
import { PveError } from "./errors.js";
import { exitStatusOf, parseTaskId, settleStoppedTask } from "./task-outcome.js";

/** What watching needs from the client (PveClient has both). */
export type TaskApi = ApiReader & EnvelopeReader;

export interface TaskOutcome {
  upid: string;
  exitstatus: string;
  warnings: string[];
}

interface Waiter {
  upid: string;
  starttime: number;
  since: number;
  polls: number;
  resolve(outcome: TaskOutcome): void;
  reject(err: unknown): void;
}

export interface TaskWatcherOptions {
  minIntervalMs?: number;
  maxIntervalMs?: number;
  /** Give up waiting after this long (the task goes on in PVE). */
  timeoutMs?: number;
}

export class TaskWatcher {
  readonly #api: TaskApi;
  readonly #waiters = new Map<string, Waiter[]>();
  readonly #loops = new Set<string>();
  readonly #min: number;
  readonly #max: number;
  readonly #timeout: number;

  constructor(api: TaskApi, options: TaskWatcherOptions = {}) {
    this.#api = api;
    this.#min = options.minIntervalMs ?? 100;
    this.#max = options.maxIntervalMs ?? 500;
    this.#timeout = options.timeoutMs ?? 15 * 60 * 1000;
  }

  wait(upid: string): Promise<TaskOutcome> {
    const task = parseTaskId(upid);
    return new Promise((resolve, reject) => {
      const list = this.#waiters.get(task.node) ?? [];
      list.push({ upid, starttime: task.starttime, since: Date.now(), polls: 0, resolve, reject });
      this.#waiters.set(task.node, list);
      if (!this.#loops.has(task.node)) {
        this.#loops.add(task.node);
        void this.#loop(task.node, task.user);
      }
    });
  }

  async #loop(node: string, user: string): Promise<void> {
    try {
      for (;;) {
        const waiters = this.#waiters.get(node) ?? [];
        if (waiters.length === 0) return;
        // Poll fast while the oldest task is young, then every half second (one call per node covers all its tasks).
        const age = Date.now() - Math.min(...waiters.map((w) => w.since));
        await sleep(Math.min(this.#max, Math.max(this.#min, age / 3)));
        await this.#poll(node, user);
      }
    } finally {
      this.#loops.delete(node);
      // A waiter added while the loop was ending gets a new loop.
      if ((this.#waiters.get(node) ?? []).length > 0) {
        this.#loops.add(node);
        void this.#loop(node, user);
      }
    }
  }

  async #poll(node: string, user: string): Promise<void> {
    const waiters = [...(this.#waiters.get(node) ?? [])];
    if (waiters.length === 0) return;
    const listed = await this.#listed(node, user, Math.min(...waiters.map((w) => w.starttime)));
    for (const waiter of waiters) {
      waiter.polls += 1;
      const item = listed.get(waiter.upid);
      let status = item?.status;
      // Not listed (a server that filters differently, or the list failed): ask for this task alone.
      if (!item && waiter.polls >= 2) {
        try {
          status = exitStatusOf(await getTaskStatus(this.#api, node, waiter.upid)) ?? "RUNNING";
        } catch (err) {
          this.#settle(node, waiter);
          waiter.reject(err);
          continue;
        }
      }
      if (status === undefined || status === "RUNNING" || status === "running") {
        if (Date.now() - waiter.since > this.#timeout) {
          this.#settle(node, waiter);
          waiter.reject(
            new PveError({
              kind: "timeout",
              code: "TASK_TIMEOUT",
              message: `task ${waiter.upid} still running after ${Math.round(this.#timeout / 1000)} s; pvectl stopped waiting but the task goes on in PVE`,
            }),
          );
        }
        continue;
      }
      this.#settle(node, waiter);
      settleStoppedTask(this.#api, waiter.upid, status).then(
        (result) => waiter.resolve({ upid: waiter.upid, exitstatus: result.exitstatus, warnings: result.warnings }),
        (err: unknown) => waiter.reject(err),
      );
    }
  }

  /** Our tasks on `node` since `since`, by UPID; empty when the list cannot be read (each waiter then asks alone). */
  async #listed(node: string, user: string, since: number): Promise<Map<string, ListedTask>> {
    try {
      const items = await getNodeTasks(this.#api, node, { source: "all", since, userfilter: user.split("!")[0], limit: 100000 });
      return new Map(items.map((i) => [i.upid, i]));
    } catch {
      return new Map();
    }
  }

  #settle(node: string, waiter: Waiter): void {
    const list = this.#waiters.get(node) ?? [];
    this.#waiters.set(
      node,
      list.filter((w) => w !== waiter),
    );
  }
}
