// What a failed PVE call means for whoever decides to wait, retry or stop, read from the
// client's error: its kind and status, and PVE's own words, which are the only signal where PVE
// answers a refusal with a 500 and a sentence. Each pattern is PVE's wording, from its sources:
//   lock held   `VM is locked (backup)`, `CT is locked (snapshot)`: pve-guest-common
//               AbstractConfig.pm check_lock (a 500, or a task's exit status in a worker);
//               `can't lock file '/var/lock/qemu-server/lock-100.conf' - got timeout`:
//               pve-common Tools.pm lock_file_full, when the config's flock stays taken
//   digest      `checksum mismatch (file change by other user?)`: qemu-server API2/Qemu.pm,
//               config update and resize (older releases write `missmatch`);
//               `detected modified configuration - file changed by other user? Try again.`:
//               pve-common Tools.pm assert_if_modified (containers, cluster and section configs)
//   exists      `unable to create VM 100 - VM 100 already exists on node 'pve'`: pve-cluster
//               Cluster.pm check_vmid_unused; clone's `unable to create VM 101: config file
//               already exists`; /cluster/nextid's 400 `vmid: VM 100 already exists`
//   permission  a 403 `Permission check failed (/vms/100, VM.Audit)`: the client's kind `permission`
//   running     `VM 100 already running`: qemu-server QemuServer.pm vm_start (also pve-container's
//               `CT 100 already running`)
//   missing     `Configuration file 'nodes/pve/qemu-server/100.conf' does not exist`: pve-guest-common
//               AbstractConfig.pm load_config, for every call on a guest that is gone
import type { PveError } from "./errors.js";

/** What a failure means for a retry; each field is computed from the error alone. */
export interface PveFailureClass {
  /** Another operation holds the guest: its config lock, or PVE's flock on the config file. */
  lockHeld: boolean;
  /** The config lock PVE named (`backup`, `snapshot`, `migrate` ...), when it named one. */
  lock: string | undefined;
  /** PVE refused a write because the config's digest is no longer the one sent with it. */
  digestMismatch: boolean;
  /** What the call would create exists already: for a create, the vmid is taken. */
  alreadyExists: boolean;
  /** A start found the guest running already. */
  alreadyRunning: boolean;
  /** The guest the call names does not exist (its config file is gone). */
  guestMissing: boolean;
  /** PVE's ACL check refused the call. */
  permissionDenied: boolean;
  /** A lost connection, a timed-out exchange, a proxy or an overloaded node (502/503/504/595/596). */
  transient: boolean;
  /** A 500 that is not a handler's verdict: a second try may get another answer. */
  retryable500: boolean;
  /** The request may have reached PVE and acted before it failed (a retry must check first). */
  mayHaveApplied: boolean;
}

type Failure = Pick<PveError, "kind" | "status" | "code" | "pveMessage" | "message">;

// A bare `got timeout` (pve-common run_with_timeout) counts as a lock as well.
const LOCK_HELD = /VM is locked|CT is locked|can't lock file|got timeout|is locked \(/i;
const LOCK_NAME = /is locked \(([\w-]+)\)/;
const DIGEST_REFUSED = /checksum mismatch|file changed? by other user/i;
const ALREADY_EXISTS = /already exists/i;
const ALREADY_RUNNING = /already running/i;
const MISSING = /does not exist/i;
/**
 * 500s that are a handler's verdict (a second try gets the same answer). Reads repeated by the
 * client itself (api/retry.ts) use a shorter list of their own.
 */
const HANDLER_VERDICT = new RegExp(
  [
    "does not exist|already exists|not found|no such|checksum mismatch|not supported|not allowed|only root|Permission check failed",
    "not running|is running|already running|protection mode|no options specified|unable to parse|invalid|not implemented|you can't|shrinking|not a",
    // pve-container's refusals (create, update_pct_config, resize, move_volume, template)
    "validation error|unable to (?:modify|delete|shrink|create template|clone|use)|cannot move|can't (?:move|remove|update|resize|clone|convert)",
    "already at specified size|already in use|not possible|not set - aborting|format error|is not available|does not allow|does not support|needs? to be",
  ].join("|"),
  "i",
);
const TRANSIENT_STATUSES = new Set([502, 503, 504, 595, 596]);

export function classifyPveFailure(failure: Failure): PveFailureClass {
  // PVE's sentence as the client kept it, and the client's own sentence around it.
  const words = `${failure.pveMessage ?? ""} ${failure.message}`;
  const { kind, status } = failure;
  const digestMismatch = DIGEST_REFUSED.test(words);
  return {
    lockHeld: LOCK_HELD.test(words),
    lock: LOCK_NAME.exec(words)?.[1],
    digestMismatch,
    alreadyExists: ALREADY_EXISTS.test(words),
    alreadyRunning: ALREADY_RUNNING.test(words),
    guestMissing: MISSING.test(words),
    permissionDenied: kind === "permission",
    transient: isTransient(failure),
    retryable500: kind === "http" && status === 500 && !digestMismatch && !HANDLER_VERDICT.test(words),
    mayHaveApplied: kind === "connection" || kind === "timeout" || (kind === "http" && (status ?? 0) >= 500),
  };
}

function isTransient({ kind, status, code }: Failure): boolean {
  if (kind === "connection") return true;
  // A task still running when the wait ended is not a failed exchange.
  if (kind === "timeout") return code !== "TASK_TIMEOUT";
  return kind === "http" && status !== undefined && TRANSIENT_STATUSES.has(status);
}
