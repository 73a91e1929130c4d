// A replication job's runs, derived from the simulated clock rather than a scheduler loop: PVE's
// pvescheduler starts a new job within a minute (its state begins at last_try 0, so its first
// event is already due) and then at each event of its schedule (default */15). The simulator
// counts the first run at the job's creation and every schedule event after it up to now; each
// run succeeds. A job marked for removal disappears a minute after the mark (the next
// scheduler run), as PVE's does.
import { nextCalendarEvent, parseCalendarEvent } from "../../pve/index.js";
import type { ClusterState, ReplicationJob } from "../cluster/types.js";

/** Simulated seconds one run takes (pvesr logs its duration; a small incremental ZFS send). */
const RUN_SECONDS = 2.5;
/** pvescheduler's period: a removal mark is acted on at its next run. */
const SCHEDULER_PERIOD = 60;

export interface RunState {
  last_sync: number;
  last_try: number;
  fail_count: number;
  duration?: number;
  next_sync: number;
}

function nextEvent(job: ReplicationJob, after: number): number {
  return nextCalendarEvent(parseCalendarEvent(job.schedule ?? "*/15"), after) ?? 0;
}

/** Look-back windows for the last event: the smallest that holds one keeps the walk short. */
const WINDOWS = [3600, 86_400, 8 * 86_400, 32 * 86_400, 367 * 86_400];

/** The last schedule event in (from, now], or `from` when there is none. */
function lastEvent(job: ReplicationJob, from: number, now: number): number {
  for (const window of WINDOWS) {
    const start = Math.max(from, now - window);
    let at = nextEvent(job, start);
    if (at === 0 || at > now) continue;
    let last = at;
    for (at = nextEvent(job, at); at !== 0 && at <= now; at = nextEvent(job, at)) last = at;
    return last;
  }
  return from;
}

/** The job's last run at or before `now` and its next one. */
export function runState(job: ReplicationJob, now: number): RunState {
  if (job.remove_job !== undefined) return { last_sync: 0, last_try: 0, fail_count: 0, next_sync: 1 };
  const last = lastEvent(job, job.created, now);
  return { last_sync: last, last_try: last, fail_count: 0, duration: RUN_SECONDS, next_sync: nextEvent(job, last) };
}

/** Drops the jobs whose removal mark the scheduler has acted on by `now`. */
export function dropRemovedJobs(state: ClusterState, now: number): void {
  if (!state.replicationJobs) return;
  state.replicationJobs = state.replicationJobs.filter((j) => j.removeMarked === undefined || now - j.removeMarked < SCHEDULER_PERIOD);
}
