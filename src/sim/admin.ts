// The simulator's control surface for tests and benchmarks, in-process (RunningSimulator.admin)
// and over HTTP below /_sim (see admin-http.ts): faults, locks, node liveness, reset, state,
// access log, clock.
import type { AccessLogSummary } from "./access-log.js";
import type { RequestFault, RequestFaultSpec, TaskFault, TaskFaultSpec } from "./faults/rules.js";
import type { NodeTaskLoad } from "./tasks/load.js";
import type { TimingOptions } from "./tasks/timing.js";

export interface SimAdmin {
  /** Responds to matching requests with an error, extra latency or a dropped connection. */
  injectFault(spec: RequestFaultSpec): RequestFault;
  /** Makes matching tasks fail with a message instead of doing their work. */
  failTasks(spec: TaskFaultSpec): TaskFault;
  listFaults(): { requests: RequestFault[]; tasks: TaskFault[] };
  removeFault(id: number): boolean;
  clearFaults(): void;
  /** Sets a guest's config lock (e.g. "backup"); false when the guest does not exist. */
  holdLock(vmid: number, lock?: string): boolean;
  releaseLock(vmid: number): boolean;
  /** Takes a node offline (its API answers 595, its guests stop) or back online. */
  setNodeOnline(node: string, online: boolean): void;
  /** Back to the state at start (or as loaded from the state file): cluster, users, tasks; faults and access log cleared. */
  reset(): void;
  /** Writes the state file now (to `file`, or to the --state file); returns the path. */
  saveState(file?: string): string;
  accessLog(options?: { entries?: boolean }): AccessLogSummary;
  resetAccessLog(): void;
  /** Moves the simulated clock forward (e.g. to expire tickets). */
  advanceClock(seconds: number): void;
  /** Resolves when no task is running or queued. */
  waitForTasks(timeoutMs?: number): Promise<void>;
  /** Per node: tasks submitted and not finished (running + queued) and tasks running, now and at peak; slots is workersPerNode. */
  taskLoad(): { slots: number; nodes: Record<string, NodeTaskLoad> };
  /** Peaks start again from the current load. */
  resetTaskLoad(): void;
  timing(): TimingOptions;
  setTiming(timing: Partial<TimingOptions>): void;
}
