// Which failures are worth another attempt, and how long to wait. A lock held by another
// operation (backup, snapshot, another client's change) clears on its own; so do dropped
// connections and overloaded proxies. Everything else is reported at once.
import { PveError } from "../api/index.js";

const LOCKED = /VM is locked|CT is locked|can't lock file|got timeout|is locked \(/i;

export function isLockError(err: unknown): boolean {
  if (!(err instanceof PveError)) return false;
  return LOCKED.test(`${err.pveMessage ?? ""} ${err.message}`);
}

/** Lost connections, timeouts of the HTTP exchange, 502/503/595/596 and 500s that are not a handler's verdict. */
export function isTransientError(err: unknown): boolean {
  if (!(err instanceof PveError)) return false;
  if (err.kind === "connection") return true;
  if (err.kind === "timeout" && err.code !== "TASK_TIMEOUT") return true;
  if (err.kind === "http" && err.status !== undefined && [502, 503, 504, 595, 596].includes(err.status)) return true;
  return false;
}

/** Whether a request may have reached PVE before it failed (so a retry must check first). */
export function mayHaveApplied(err: unknown): boolean {
  if (!(err instanceof PveError)) return true;
  return err.kind === "connection" || err.kind === "timeout" || (err.kind === "http" && (err.status ?? 0) >= 500);
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

/** 500s that are a handler's verdict (a second try gives the same answer). */
const DETERMINISTIC =
  /does not exist|already exists|not found|no such|checksum mismatch|not supported|not allowed|only root|Permission check failed|not running|is running|already running|protection mode|no options specified|unable to parse|invalid|not implemented|you can't|shrinking|not a/i;

/** A 500 that may go away: an overloaded or restarting node, a proxy failure. */
export function isRetryable500(err: unknown): boolean {
  if (!(err instanceof PveError) || err.kind !== "http" || err.status !== 500) return false;
  return !DETERMINISTIC.test(`${err.pveMessage ?? ""} ${err.message}`);
}

export function isDigestMismatch(err: unknown): boolean {
  return err instanceof PveError && /checksum mismatch|file change by other user/i.test(`${err.pveMessage ?? ""} ${err.message}`);
}

export function isCollision(err: unknown): boolean {
  return err instanceof PveError && /already exists/i.test(`${err.pveMessage ?? ""} ${err.message}`);
}
