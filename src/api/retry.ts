// Which failed reads are worth repeating, and how long to wait before doing so.
// Only GETs are repeated: a write that got no answer may have been applied, and doing it
// twice (create, delete, start) is not the same as doing it once.
import { errorCode } from "../util/http/exchange.js";
import { TRANSIENT_CODES } from "./messages.js";
import type { RawResponse } from "./transport.js";

/**
 * PVE answers 500 for any handler error; these ones will not change on a second try. A guest
 * (or its agent) that is not running, or has no agent configured, is a state: repeating the
 * read 200 and 400 ms later only delays the caller (an inventory asks every running VM).
 */
const DETERMINISTIC_500 =
  /does not exist|not found|no such|already exists|unable to parse|not implemented|not defined|is not running|no qemu guest agent configured/i;

export function isTransientFailure(err: unknown): boolean {
  const code = errorCode(err);
  return code !== undefined && TRANSIENT_CODES.has(code);
}

export function isTransientStatus(res: RawResponse): boolean {
  if (res.status < 500 || res.status === 501) return false;
  if (res.status !== 500) return true;
  const message = `${res.envelope?.message ?? ""} ${res.statusText}`;
  return !DETERMINISTIC_500.test(message);
}

const BASE_DELAY_MS = 200;
const MAX_DELAY_MS = 2000;

/** Exponential with jitter: ~200 ms, ~400 ms, ~800 ms ... capped at 2 s. */
export function retryDelay(attempt: number): number {
  const base = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}
