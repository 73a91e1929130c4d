// Which failures are worth another attempt, and how long to wait. A lock held by another
// operation (backup, snapshot, another client's change) clears on its own; so do dropped
// connections and overloaded proxies. Everything else is reported at once. What a PVE failure
// is (lock held, digest refused, vmid taken ...) is the client's to say: PveError.classify()
// (api/classify.ts). The predicates here are one-line delegations to it, kept so that the
// engine's callers read as before.
import { PveError } from "../api/index.js";

/** Another operation holds the guest (`VM is locked (backup)`, a config flock timeout). */
export function isLockError(err: unknown): boolean {
  return err instanceof PveError && err.classify().lockHeld;
}

/** Lost connections, timeouts of the HTTP exchange, 502/503/504/595/596. */
export function isTransientError(err: unknown): boolean {
  return err instanceof PveError && err.classify().transient;
}

/** Whether a request may have reached PVE before it failed (so a retry must check first). */
export function mayHaveApplied(err: unknown): boolean {
  return !(err instanceof PveError) || err.classify().mayHaveApplied;
}

export interface RetryPolicy {
  /** Attempts in all (first one included). */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 250, maxDelayMs: 5000 };

export function backoff(policy: RetryPolicy, attempt: number): number {
  const base = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

export function errorText(err: unknown): string {
  if (err instanceof PveError) return err.userMessage();
  if (err instanceof Error) return err.message;
  return String(err);
}

/** A 500 that may go away: an overloaded or restarting node, a proxy failure. */
export function isRetryable500(err: unknown): boolean {
  return err instanceof PveError && err.classify().retryable500;
}

/** PVE refused a write because the config changed since its digest was read. */
export function isDigestMismatch(err: unknown): boolean {
  return err instanceof PveError && err.classify().digestMismatch;
}

/** A start refused because the guest runs already (someone else started it). */
export function isAlreadyRunning(err: unknown): boolean {
  return err instanceof PveError && err.classify().alreadyRunning;
}

/** The guest is gone (deleted by someone else meanwhile). */
export function isGuestMissing(err: unknown): boolean {
  return err instanceof PveError && err.classify().guestMissing;
}

/** What a create would make exists already (a vmid taken meanwhile). */
export function isCollision(err: unknown): boolean {
  return err instanceof PveError && err.classify().alreadyExists;
}
