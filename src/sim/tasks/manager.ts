// The simulated nodes' task workers: starts tasks with PVE-shaped UPIDs, runs their work
// (at once after the response, or after a seeded duration with a limited number of worker
// slots per node), keeps their logs and final status, and answers the task API.
import { formatUpid, type Upid } from "../../pve/upid.js";
import type { SimClock } from "../clock.js";
import type { StartTaskOptions, TaskHandle } from "../contract.js";
import type { SeededRandom } from "../random.js";
import { type NodeTaskLoad, TaskLoad } from "./load.js";
import { type TimingOptions, taskDuration } from "./timing.js";

/** A task: the parts of its UPID, plus its state and log. */
export interface TaskRecord extends Upid {
  upid: string;
  status: "running" | "stopped";
  exitstatus?: string;
  endtime?: number;
  log: string[];
}

interface NodeProcessState {
  nextPid: number;
  bootTime: number;
}

interface PendingTask {
  record: TaskRecord;
  options: StartTaskOptions;
  warnings: number;
  timer?: NodeJS.Timeout;
  running: boolean;
}

export interface TaskHooks {
  /** An injected failure message for this task, if a fault rule matches. */
  failureFor(record: TaskRecord): string | undefined;
  /** Called whenever a task finishes (state files save here). */
  changed(): void;
}

export interface TasksJSON {
  tasks: TaskRecord[];
  nodes: Record<string, NodeProcessState>;
}

const MAX_TASKS_PER_NODE = 50000;
const TRIM_BATCH = 1000;

/** Reads the status through a function so TypeScript does not keep a narrowing across awaits. */
function isStopped(r: TaskRecord): boolean {
  return r.status === "stopped";
}

/** "die" messages become one-line exit statuses (newlines turned into spaces, trailing ones dropped). */
function exitStatusOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\n+$/, "").replace(/\n/g, " ") || "unexpected status";
}

export class TaskRunner {
  private tasks: TaskRecord[] = [];
  /** upid -> task, so status polls stay cheap with thousands of tasks. */
  private byUpid = new Map<string, TaskRecord>();
  /** The task count at which trim() next looks for nodes over the limit. */
  private nextTrimAt = MAX_TASKS_PER_NODE;
  private nodes: Record<string, NodeProcessState> = {};
  private readonly pending = new Map<string, PendingTask>();
  private readonly queues = new Map<string, PendingTask[]>();
  private readonly busy = new Map<string, number>();
  private readonly loadCounts = new TaskLoad();
  private closed = false;

  constructor(
    private readonly clock: SimClock,
    private readonly random: SeededRandom,
    public timing: TimingOptions,
    private readonly hooks: TaskHooks,
  ) {}

  private processState(node: string): NodeProcessState {
    let state = this.nodes[node];
    if (!state) {
      state = { nextPid: this.random.int(2000, 400000), bootTime: this.clock.now() - this.random.int(3600, 30 * 86400) };
      this.nodes[node] = state;
    }
    return state;
  }

  /**
   * Creates the task record and returns it with a `release` function that schedules the work;
   * the pipeline releases after the response has been written so `instant` work never races it.
   */
  create(options: StartTaskOptions, user: string): { record: TaskRecord; release: () => void } {
    const proc = this.processState(options.node);
    const pid = proc.nextPid;
    proc.nextPid += this.random.int(1, 300);
    const starttime = this.clock.now();
    const pstart = Math.max(1, (starttime - proc.bootTime) * 100 + this.random.int(0, 99));
    const fields = { node: options.node, pid, pstart, starttime, type: options.type, id: options.id, user };
    const record: TaskRecord = { upid: formatUpid(fields), ...fields, status: "running", log: [] };
    this.tasks.push(record);
    this.byUpid.set(record.upid, record);
    this.trim();
    const pending: PendingTask = { record, options, warnings: 0, running: false };
    this.pending.set(record.upid, pending);
    if (!options.supervisor) this.loadCounts.submitted(options.node, 1);
    return { record, release: () => this.schedule(pending) };
  }

  /**
   * Drops the oldest finished tasks of every node over MAX_TASKS_PER_NODE. Run once per
   * TRIM_BATCH new tasks: past the limit, a pass over every record on every new task made
   * each task start cost a walk over 50,000 records.
   */
  private trim(): void {
    if (this.tasks.length < this.nextTrimAt) return;
    const perNode = new Map<string, TaskRecord[]>();
    for (const t of this.tasks) {
      const list = perNode.get(t.node) ?? [];
      list.push(t);
      perNode.set(t.node, list);
    }
    const drop = new Set<TaskRecord>();
    for (const onNode of perNode.values()) {
      if (onNode.length <= MAX_TASKS_PER_NODE) continue;
      for (const t of onNode.filter((r) => r.status === "stopped").slice(0, onNode.length - MAX_TASKS_PER_NODE)) drop.add(t);
    }
    if (drop.size > 0) {
      this.tasks = this.tasks.filter((t) => !drop.has(t));
      for (const t of drop) this.byUpid.delete(t.upid);
    }
    this.nextTrimAt = this.tasks.length + TRIM_BATCH;
  }

  private schedule(p: PendingTask): void {
    if (this.closed || p.record.status === "stopped") return;
    if (this.timing.profile === "instant") {
      const counted = !p.options.supervisor;
      if (counted) this.loadCounts.running(p.record.node, 1);
      void this.execute(p).finally(() => counted && this.loadCounts.running(p.record.node, -1));
      return;
    }
    if (p.options.supervisor) {
      const seconds = taskDuration(this.timing, p.options.kind, p.options.bytes, this.random.next());
      p.timer = setTimeout(
        () => {
          p.timer = undefined;
          void this.execute(p);
        },
        seconds * 1000 * this.timing.timeScale,
      );
      return;
    }
    const queue = this.queues.get(p.record.node) ?? [];
    queue.push(p);
    this.queues.set(p.record.node, queue);
    this.pump(p.record.node);
  }

  private pump(node: string): void {
    const queue = this.queues.get(node) ?? [];
    while (queue.length > 0 && (this.busy.get(node) ?? 0) < this.timing.workersPerNode) {
      const p = queue.shift() as PendingTask;
      if (p.record.status === "stopped") continue;
      this.occupy(node, 1);
      const seconds = taskDuration(this.timing, p.options.kind, p.options.bytes, this.random.next());
      p.timer = setTimeout(
        () => {
          p.timer = undefined;
          void this.execute(p).finally(() => {
            this.occupy(node, -1);
            this.pump(node);
          });
        },
        seconds * 1000 * this.timing.timeScale,
      );
    }
  }

  /** Takes (1) or frees (-1) one of the node's worker slots. */
  private occupy(node: string, delta: 1 | -1): void {
    this.busy.set(node, Math.max(0, (this.busy.get(node) ?? 0) + delta));
    this.loadCounts.running(node, delta);
  }

  private handle(p: PendingTask): TaskHandle {
    return {
      upid: p.record.upid,
      log: (line: string) => {
        p.record.log.push(...line.split("\n"));
      },
      warn: (line: string) => {
        p.warnings++;
        p.record.log.push(`WARN: ${line}`);
      },
    };
  }

  private async execute(p: PendingTask): Promise<void> {
    if (p.record.status === "stopped" || this.closed) return;
    p.running = true;
    const handle = this.handle(p);
    const injected = this.hooks.failureFor(p.record);
    try {
      if (injected !== undefined) throw new Error(injected);
      await p.options.work(handle);
      if (isStopped(p.record)) return;
      this.finish(p, p.warnings > 0 ? `WARNINGS: ${p.warnings}` : "OK");
    } catch (err) {
      if (isStopped(p.record)) return;
      const message = exitStatusOf(err);
      if (injected !== undefined) await this.rollback(p, message);
      this.finish(p, message);
    }
  }

  private async rollback(p: PendingTask, message: string): Promise<void> {
    try {
      await p.options.onFailure?.(this.handle(p), message);
    } catch {
      // The task already failed; a failing cleanup changes nothing the client can see.
    }
  }

  private finish(p: PendingTask, exitstatus: string): void {
    const r = p.record;
    r.status = "stopped";
    r.exitstatus = exitstatus;
    r.endtime = Math.max(r.starttime, this.clock.now());
    // A task cut short by a node failure never wrote its last line.
    if (exitstatus === "unexpected status") {
      this.settle(r);
      return;
    }
    if (exitstatus === "OK") r.log.push("TASK OK");
    else if (exitstatus.startsWith("WARNINGS: ")) r.log.push(`TASK ${exitstatus}`);
    else r.log.push(`TASK ERROR: ${exitstatus}`);
    this.settle(r);
  }

  private settle(r: TaskRecord): void {
    const p = this.pending.get(r.upid);
    if (p && this.pending.delete(r.upid) && !p.options.supervisor) this.loadCounts.submitted(r.node, -1);
    this.hooks.changed();
  }

  /** DELETE /nodes/{node}/tasks/{upid}: a running task ends with "interrupted by signal". */
  async stop(upid: string): Promise<void> {
    const p = this.pending.get(upid);
    if (!p || p.record.status === "stopped") return;
    if (p.timer) {
      clearTimeout(p.timer);
      p.timer = undefined;
      if (!p.options.supervisor) {
        this.occupy(p.record.node, -1);
        this.pump(p.record.node);
      }
    }
    p.record.log.push("received interrupt");
    await this.rollback(p, "interrupted by signal");
    this.finish(p, "interrupted by signal");
  }

  /**
   * A node went down: its running and queued tasks end as PVE shows tasks cut short by a
   * reboot ("unexpected status"); their setup is undone as for a stopped task.
   */
  async abortNode(node: string): Promise<void> {
    for (const p of [...this.pending.values()]) {
      if (p.record.node !== node || p.record.status === "stopped") continue;
      if (p.timer) {
        clearTimeout(p.timer);
        p.timer = undefined;
        if (!p.options.supervisor) this.occupy(node, -1);
      }
      await this.rollback(p, "unexpected status");
      this.finish(p, "unexpected status");
    }
    this.queues.delete(node);
  }

  get(upid: string): TaskRecord | undefined {
    return this.byUpid.get(upid);
  }

  all(): readonly TaskRecord[] {
    return this.tasks;
  }

  /** Waits until no task is running or queued (tests and benchmarks). */
  async idle(timeoutMs = 60000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending.size > 0) {
      if (Date.now() > deadline) throw new Error(`tasks still running after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Tasks in flight and running per node, now and their peaks since the last resetLoad(). */
  taskLoad(): Record<string, NodeTaskLoad> {
    return this.loadCounts.snapshot();
  }

  resetLoad(): void {
    this.loadCounts.resetPeaks();
  }

  toJSON(): TasksJSON {
    return { tasks: this.tasks.map((t) => ({ ...t, log: [...t.log] })), nodes: { ...this.nodes } };
  }

  /** Replaces all tasks (state load / reset). Tasks that were running when saved are marked failed. */
  load(json: TasksJSON | undefined): void {
    this.cancelAll();
    this.tasks = (json?.tasks ?? []).map((t) => {
      if (t.status === "stopped") return { ...t, log: [...t.log] };
      return {
        ...t,
        status: "stopped",
        exitstatus: "unexpected status",
        endtime: t.starttime,
        log: [...t.log, "TASK ERROR: unexpected status"],
      };
    });
    this.byUpid = new Map(this.tasks.map((t) => [t.upid, t]));
    this.nextTrimAt = Math.max(MAX_TASKS_PER_NODE, this.tasks.length);
    this.nodes = { ...(json?.nodes ?? {}) };
  }

  private cancelAll(): void {
    for (const p of this.pending.values()) if (p.timer) clearTimeout(p.timer);
    this.pending.clear();
    this.queues.clear();
    this.busy.clear();
    this.loadCounts.clear();
  }

  close(): void {
    this.closed = true;
    this.cancelAll();
  }
}
