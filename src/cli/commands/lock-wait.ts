// Waits the CLI shows: `--lock-wait DURATION` of apply and destroy (how long a guest waits on
// a lock another operation holds, as a backup can for hours, before its step fails), and the
// plan's wait for creates in progress that may be guests of the spec.
import { InvalidArgumentError } from "commander";
import type { CreateWait, SettleOptions } from "../../app/apply-results.js";
import { formatDuration, parseDuration } from "../../util/duration.js";

/** Milliseconds for the flag's text; refuses what is not a positive duration (while the arguments are parsed). */
export function parseLockWait(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined || ms <= 0) throw new InvalidArgumentError("give a duration such as 90s, 30m or 2h (a bare number is seconds).");
  return ms;
}

/** The option as commander takes it: `.option(...LOCK_WAIT_FLAG)`; the value is in milliseconds. */
export const LOCK_WAIT_FLAG = [
  "--lock-wait <duration>",
  "wait this long on a lock another operation holds (VM is locked (backup)), e.g. 90s, 30m, 2h; " +
    "progress shows the wait, other guests go on meanwhile (default: about 17 s of retries)",
  parseLockWait,
] as const;

/** The engine option for the parsed flag (nothing when the flag is absent). */
export function lockWaitOption(ms: number | undefined): { lockWaitMs?: number } {
  return ms === undefined ? {} : { lockWaitMs: ms };
}

/** Shows, on stderr, that the plan waits for creates in progress that may be spec guests (nothing under --json). */
export function createWaitProgress(json: boolean | undefined): { createWait?: SettleOptions } {
  if (json) return {};
  const onWait = (w: CreateWait) =>
    process.stderr.write(
      `.. waiting for guest(s) ${w.vmids.join(", ")} being created right now (they may be guests of this spec): ` +
        `waited ${formatDuration(w.elapsedMs)} of ${formatDuration(w.limitMs)}\n`,
    );
  return { createWait: { onWait } };
}
