// Awaits many tasks at once with one list call per node per poll instead of one status call
// per task: GET /nodes/{node}/tasks?source=all&since=<oldest start>&userfilter=<us> shows
// every task of ours with its exit status once it ended. A failure is noticed at the next
// poll (at most a second later) and carries the last lines of the task log.
import { PveError, type PveClient } from "../api/index.js";
import { parseUpid } from "../pve/upid.js";

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

interface ListedTask {
  upid: string;
  status?: string;
}

export interface TaskWatcherOptions {
  minIntervalMs?: number;
  maxIntervalMs?: number;
  /** Give up waiting after this long (the task goes on in PVE). */
  timeoutMs?: number;
}

export class TaskWatcher {
  readonly #client: PveClient;
  readonly #waiters = new Map<string, Waiter[]>();
  readonly #loops = new Set<string>();
  readonly #min: number;
  readonly #max: number;
  readonly #timeout: number;

  constructor(client: PveClient, options: TaskWatcherOptions = {}) {
    this.#client = client;
    this.#min = options.minIntervalMs ?? 100;
    this.#max = options.maxIntervalMs ?? 500;
    this.#timeout = options.timeoutMs ?? 15 * 60 * 1000;
  }

  wait(upid: string): Promise<TaskOutcome> {
    const task = parseUpid(upid);
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
    const since = Math.min(...waiters.map((w) => w.starttime));
    let listed: Map<string, ListedTask>;
    try {
      const items = (await this.#client.request("GET", `/nodes/${encodeURIComponent(node)}/tasks`, {
        source: "all",
        since,
        userfilter: user.split("!")[0],
        limit: 100000,
      })) as ListedTask[];
      listed = new Map(items.map((i) => [i.upid, i]));
    } catch {
      listed = new Map();
    }
    for (const waiter of waiters) {
      waiter.polls += 1;
      const item = listed.get(waiter.upid);
      let status = item?.status;
      // Not listed (a server that filters differently, or the list failed): ask for this task alone.
      if (!item && waiter.polls >= 2) {
        try {
          const s = (await this.#client.request("GET", `/nodes/${encodeURIComponent(node)}/tasks/${encodeURIComponent(waiter.upid)}/status`)) as {
            status: string;
            exitstatus?: string;
          };
          status = s.status === "stopped" ? (s.exitstatus ?? "unexpected status") : "RUNNING";
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
      // The client reads warnings or the failed task's log tail the same way as for a single task.
      this.#client.settleStoppedTask(waiter.upid, status).then(
        (result) => waiter.resolve({ upid: waiter.upid, exitstatus: result.exitstatus, warnings: result.warnings }),
        (err: unknown) => waiter.reject(err),
      );
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
