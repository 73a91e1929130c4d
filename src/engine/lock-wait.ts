// Waiting on a lock another operation holds on a guest (`VM is locked (backup)`), for as long
// as `--lock-wait` allows: the guest's config is polled until its `lock` is gone (the write
// is not resent meanwhile), the wait is reported as it starts and every LOCK_NOTICE_MS, and
// the guest gives its per-node slot up while it only waits, so the node's other guests go on.
import { lockHeldError } from "../api/index.js";
import { formatDuration } from "../util/duration.js";
import { backoff, type RetryPolicy } from "./retry-policy.js";

/** A lock wait is shown when it starts, then at most this often. */
export const LOCK_NOTICE_MS = 15_000;

/** The guest's config as GET .../config returns it (`lock` and `digest` included), or undefined when unreadable. */
export type ConfigReader = () => Promise<Record<string, unknown> | undefined>;

export interface LockWait {
  readConfig: ConfigReader;
  retry: RetryPolicy;
  /** How long in all, from `since`. */
  limitMs: number;
  /** When the lock was first met (a lock met again after a release counts from then). */
  since: number;
  notify(lock: string, elapsedMs: number): void;
}

export function lockOf(config: Record<string, unknown> | undefined): string | undefined {
  return typeof config?.lock === "string" ? config.lock : undefined;
}

/** Polls until the guest's lock is gone; throws PVE's reason once the wait is over. */
export async function waitForRelease(wait: LockWait, lock: string): Promise<void> {
  let current: string | undefined = lock;
  let shownAt = -Infinity;
  for (let n = 0; current !== undefined; n++) {
    const elapsed = Date.now() - wait.since;
    if (elapsed >= wait.limitMs) {
      throw lockHeldError(
        current,
        `VM is locked (${current}); gave up after waiting ${formatDuration(elapsed)} (--lock-wait ${formatDuration(wait.limitMs)})`,
      );
    }
    if (elapsed - shownAt >= LOCK_NOTICE_MS) {
      wait.notify(current, elapsed);
      shownAt = elapsed;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(backoff(wait.retry, Math.min(n, 5)), wait.limitMs - elapsed)));
    current = lockOf(await wait.readConfig());
  }
}

/**
 * The digest to send after the lock is gone. A plan made while the lock was held carries the
 * digest of the locked config (the `lock` line is part of the file): when the released config
 * differs from the locked one in that line only, its digest stands for the config the plan saw.
 */
export async function digestAfterRelease(
  digest: string,
  locked: Record<string, unknown> | undefined,
  readConfig: ConfigReader,
): Promise<string> {
  if (locked?.digest !== digest) return digest;
  const released = await readConfig();
  if (released === undefined || typeof released.digest !== "string") return digest;
  return sameApartFromLock(locked, released) ? released.digest : digest;
}

/** Two reads of a config that differ at most in its `lock` (and so its digest). */
function sameApartFromLock(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const rest = (c: Record<string, unknown>) =>
    JSON.stringify(
      Object.entries(c)
        .filter(([k]) => k !== "lock" && k !== "digest")
        .sort(([x], [y]) => x.localeCompare(y)),
    );
  return rest(a) === rest(b);
}
