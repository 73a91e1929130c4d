// How long simulated tasks take. `instant` (the default, for tests): the work runs as soon as
// the response that started it has been sent. `realistic`: a seeded duration per kind of task
// (size-proportional for clone, move, backup, migrate), run by a limited number of workers per
// node, so benchmarks see queueing like on a real node. Durations are in simulated seconds;
// the time scale turns them into real time.
export type TimingProfile = "instant" | "realistic";

export interface TimingOptions {
  profile: TimingProfile;
  /** Real seconds per simulated second (realistic profile); 0.1 runs ten times faster. Default 1. */
  timeScale: number;
  /** Concurrent task workers per node (realistic profile). Default 4. */
  workersPerNode: number;
  /** Override base durations (simulated seconds) per kind. */
  durations?: Partial<Record<string, number>>;
}

export const DEFAULT_TIMING: TimingOptions = { profile: "instant", timeScale: 1, workersPerNode: 4 };

/** Base seconds and bytes per second (for size-proportional kinds). */
const PROFILE: Record<string, { base: number; bytesPerSecond?: number }> = {
  create: { base: 3 },
  clone: { base: 2, bytesPerSecond: 250e6 },
  start: { base: 1.5 },
  stop: { base: 1 },
  shutdown: { base: 4 },
  reboot: { base: 5 },
  destroy: { base: 1.5 },
  backup: { base: 3, bytesPerSecond: 150e6 },
  restore: { base: 4, bytesPerSecond: 200e6 },
  // a RAM snapshot writes the guest's memory (bytes = memory); a plain one only metadata
  snapshot: { base: 1.5, bytesPerSecond: 500e6 },
  rollback: { base: 2 },
  move: { base: 1, bytesPerSecond: 200e6 },
  migrate: { base: 5, bytesPerSecond: 100e6 },
  resize: { base: 0.5 },
  config: { base: 0.5 },
  template: { base: 1 },
};

/** Simulated seconds a task of `kind` takes; `jitter` in [0,1) spreads it by +-25%. */
export function taskDuration(timing: TimingOptions, kind: string, bytes: number | undefined, jitter: number): number {
  const profile = PROFILE[kind] ?? { base: 1 };
  const base = timing.durations?.[kind] ?? profile.base;
  const copy = profile.bytesPerSecond && bytes ? bytes / profile.bytesPerSecond : 0;
  return (base + copy) * (0.75 + 0.5 * jitter);
}
