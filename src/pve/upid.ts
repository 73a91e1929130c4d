// UPIDs: PVE's task identifiers, `UPID:<node>:<pid>:<pstart>:<starttime>:<type>:<id>:<user>:`
// with pid, pstart and starttime in uppercase hex (8 digits; pstart may use 9) and a
// trailing colon. The id may be empty. The user includes `!token` for API-token tasks.
import { PveFormatError } from "./errors.js";

export interface Upid {
  node: string;
  pid: number;
  pstart: number;
  /** Unix time (seconds) the task started. */
  starttime: number;
  /** Worker type, e.g. `qmstart`, `qmcreate`, `vzdump`. */
  type: string;
  /** Usually the vmid; may be empty. */
  id: string;
  /** `user@realm` or `user@realm!token`. */
  user: string;
}

const UPID_RE =
  /^UPID:([a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?):([0-9A-Fa-f]{8}):([0-9A-Fa-f]{8,9}):([0-9A-Fa-f]{8}):([^:\s]+):([^:\s]*):([^:\s]+):$/;

const UPID_HINT =
  "A UPID looks like UPID:pve:000ABCDE:0098F0A1:66AB12CD:qmstart:100:root@pam: (copy it whole, including the trailing colon).";

export function parseUpid(text: string): Upid {
  const m = UPID_RE.exec(text);
  if (!m) throw new PveFormatError("UPID", text, "unable to parse worker upid", UPID_HINT);
  return {
    node: m[1] as string,
    pid: Number.parseInt(m[2] as string, 16),
    pstart: Number.parseInt(m[3] as string, 16),
    starttime: Number.parseInt(m[4] as string, 16),
    type: m[5] as string,
    id: m[6] as string,
    user: m[7] as string,
  };
}

export function isUpid(text: string): boolean {
  return UPID_RE.test(text);
}

export function formatUpid(parts: Upid): string {
  const hex = (n: number, what: string): string => {
    if (!Number.isSafeInteger(n) || n < 0 || n > 0xfffffffff) {
      throw new PveFormatError("UPID part", String(n), `${what} must be a non-negative integer`, UPID_HINT);
    }
    return n.toString(16).toUpperCase().padStart(8, "0");
  };
  const text = `UPID:${parts.node}:${hex(parts.pid, "pid")}:${hex(parts.pstart, "pstart")}:${hex(parts.starttime, "starttime")}:${parts.type}:${parts.id}:${parts.user}:`;
  // Re-parse so that a node, type, id or user containing ':' or spaces is refused here
  // rather than producing a UPID nobody can read back.
  parseUpid(text);
  return text;
}
