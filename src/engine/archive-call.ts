// Runs the calls of backup operations (a vzdump of one guest, a restore, an archive deleted)
// and resolves their lost answers. None of them can be sent twice blindly: a second vzdump
// writes a second archive, a second forced restore wipes what the first one restored, a
// second delete fails. So a request whose answer was lost is resolved by reading back: the
// task it started (the node's task list), or the archive gone; it is resent only when PVE
// shows no trace of it.
import { resolveCall } from "../plan/resolve-call.js";
import { getNodeTasks, getStorageContent, getTaskLog } from "../api/endpoints/index.js";
import { PveError, type PveClient } from "../api/index.js";
import type { TaskWatcher } from "../api/task-watcher.js";
import type { ArchiveDeleteIntent, BackupIntent, CallIntent, RestoreIntent } from "../plan/intent.js";
import type { ApiCall } from "../plan/types.js";
import { parseUpid } from "../pve/upid.js";
import { GUEST_KINDS } from "../resources/index.js";
import { findLostTask } from "./lost-answer.js";
import { backoff, errorText, isLockError, isRetryable500, isTransientError, mayHaveApplied, type RetryPolicy } from "./retry-policy.js";

export type ArchiveIntent = BackupIntent | RestoreIntent | ArchiveDeleteIntent;

export function isArchiveIntent(intent: CallIntent): intent is ArchiveIntent {
  return intent.op === "backup" || intent.op === "restore" || intent.op === "archive-delete";
}

export interface ArchiveCallDeps {
  client: PveClient;
  watcher: TaskWatcher;
  retry: RetryPolicy;
  /** Tasks this apply already awaited: never taken for a lost request's task. */
  seen: Set<string>;
  /** Told before each resend (the runner's retry event). */
  onRetry(attempt: number, reason: string, delayMs: number): void;
  /** With --lock-wait: waits until the guest's lock is released (throws once the wait is over). */
  awaitLock?: (lock: string) => Promise<void>;
}

export interface ArchiveOutcome {
  warnings: string[];
  attempts: number;
  /** What the call made, for the report: the archive's volume id of a backup. */
  result?: string;
}

/** PVE's worker type of each call (what the task list is searched for after a lost answer). */
function taskType(intent: ArchiveIntent): string {
  if (intent.op === "backup") return "vzdump";
  if (intent.op === "restore") return GUEST_KINDS[intent.kind].tasks.restore;
  return "imgdel";
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Sends `call` on `node` until PVE took it (or a read-back shows it did), then waits its task. */
export async function runArchiveCall(
  deps: ArchiveCallDeps,
  node: string,
  call: ApiCall & { intent: ArchiveIntent },
): Promise<ArchiveOutcome> {
  const { client, retry } = deps;
  for (let attempt = 1; ; attempt++) {
    const sentAtMs = Date.now();
    let upid: unknown;
    try {
      const { method, path, params } = resolveCall(call);
      upid = await client.request(method, path, params);
    } catch (err) {
      const retryable = isLockError(err) || isTransientError(err) || isRetryable500(err);
      if (!retryable || attempt >= retry.maxAttempts) throw err;
      if (mayHaveApplied(err)) {
        const found = await lostTask(deps, node, call.intent, sentAtMs);
        if (found !== undefined) return finish(deps, node, call.intent, found, attempt);
        if (call.intent.op === "archive-delete" && (await archiveGone(client, node, call.intent)))
          return { warnings: [], attempts: attempt };
      }
      const delayMs = backoff(retry, attempt - 1);
      deps.onRetry(attempt + 1, errorText(err).split("\n")[0]!, delayMs);
      await sleep(delayMs);
      continue;
    }
    if (typeof upid !== "string" || !upid.startsWith("UPID:")) return { warnings: [], attempts: attempt };
    try {
      return await finish(deps, node, call.intent, upid, attempt);
    } catch (err) {
      const lock = call.intent.op === "backup" ? lockInTaskLog(err) : undefined;
      if (lock === undefined) throw err;
      if (deps.awaitLock === undefined) throw withLockWaitHint(err, lock);
      // vzdump refused the locked guest in its task and wrote nothing: sent again once the lock is gone.
      await deps.awaitLock(lock);
    }
  }
}

/** The lock a failed vzdump task names for its guest (`… failed - VM is locked (migrate)`). */
function lockInTaskLog(err: unknown): string | undefined {
  if (!(err instanceof PveError) || err.task === undefined) return undefined;
  for (const line of err.task.logTail) {
    const m = /failed - (?:VM|CT) is locked \((\w+)\)/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

function withLockWaitHint(err: unknown, lock: string): Error {
  return new Error(
    `${errorText(err)}\nthe guest is locked (${lock}) by another operation; run again once it is done, or give --lock-wait (e.g. --lock-wait 2h) to wait for it`,
  );
}

/** Waits the call's task (its failure is the step's) and reads what it made. */
async function finish(deps: ArchiveCallDeps, node: string, intent: ArchiveIntent, upid: string, attempts: number): Promise<ArchiveOutcome> {
  deps.seen.add(upid);
  const startedAt = parseUpid(upid).starttime;
  const { warnings } = await deps.watcher.wait(upid);
  if (intent.op === "restore" && intent.start)
    return { warnings: [...warnings, ...(await awaitRestoreStart(deps, node, intent, startedAt))], attempts };
  if (intent.op !== "backup") return { warnings, attempts };
  const archive = await archiveOf(deps.client, node, intent, upid, startedAt);
  return { warnings, attempts, ...(archive !== undefined ? { result: `archive ${archive}` } : {}) };
}

/**
 * A restore with start=1: as after a create, PVE's restore worker calls the start API, which
 * begins a start task of its own that the restore task does not wait for. The guest is restored
 * and running only once that task has ended well; a failed start is the step's error (the
 * restored guest stays). The start is listed by the time the restore task has ended.
 */
async function awaitRestoreStart(deps: ArchiveCallDeps, node: string, intent: RestoreIntent, restoreStartedAt: number): Promise<string[]> {
  const type = GUEST_KINDS[intent.kind].tasks.power.start;
  let upid: string | undefined;
  try {
    upid = await findLostTask(deps.client, { node, vmid: intent.vmid, type, sentAtMs: restoreStartedAt * 1000 }, deps.seen);
  } catch {
    // Unreadable now: the verification after the run says whether the guest runs.
    return [];
  }
  if (upid === undefined) return [];
  deps.seen.add(upid);
  try {
    return (await deps.watcher.wait(upid)).warnings;
  } catch (err) {
    throw new Error(`restored, but PVE's start of it failed: ${errorText(err)}`);
  }
}

/**
 * The task a lost request started: listed under the guest's vmid (vzdump of one guest, a
 * restore), or, for an archive delete (PVE lists it under `vmid@storage`), by type alone.
 */
async function lostTask(deps: ArchiveCallDeps, node: string, intent: ArchiveIntent, sentAtMs: number): Promise<string | undefined> {
  const type = taskType(intent);
  try {
    if (intent.op !== "archive-delete") return await findLostTask(deps.client, { node, vmid: intent.vmid, type, sentAtMs }, deps.seen);
    const user = deps.client.identity;
    const tasks = await getNodeTasks(deps.client, node, {
      source: "all",
      typefilter: type,
      userfilter: user.split("!")[0],
      since: Math.floor(sentAtMs / 1000) - 120,
      limit: 50,
    });
    const ours = tasks.filter(
      (t) =>
        !deps.seen.has(t.upid) && t.upid.includes(`:${type}:${intent.vmid}@${intent.archive.storage}:`) && t.upid.endsWith(`:${user}:`),
    );
    return ours.sort((a, b) => (b.starttime ?? 0) - (a.starttime ?? 0))[0]?.upid;
  } catch {
    return undefined;
  }
}

async function archiveGone(client: PveClient, node: string, intent: ArchiveDeleteIntent): Promise<boolean> {
  try {
    const content = await getStorageContent(client, node, intent.archive.storage, { content: "backup", vmid: intent.vmid });
    return !content.some((v) => v.volid === intent.archive.volume);
  } catch {
    return false;
  }
}

/** `…/vzdump-qemu-101-2026_12_03-15_30_00.vma.zst` (PVE logs a path; a volume id ends the same way). */
const ARCHIVE_LINE = /creating vzdump archive '([^']+)'/;

/**
 * The archive a backup task wrote: the file its log names, matched against the storage's
 * backups of the guest (the volume id is what restore and prune take); without that line, the
 * guest's newest archive made since the task started.
 */
async function archiveOf(
  client: PveClient,
  node: string,
  intent: BackupIntent,
  upid: string,
  startedAt: number,
): Promise<string | undefined> {
  try {
    const log = await getTaskLog(client, node, upid, { start: 0, limit: 1000 });
    const file = log.lines
      .map((l) => ARCHIVE_LINE.exec(l)?.[1])
      .find((f) => f !== undefined)
      ?.split("/")
      .pop();
    const archives = await getStorageContent(client, node, intent.storage, { content: "backup", vmid: intent.vmid });
    const named = file !== undefined ? archives.find((a) => a.volid.split("/").pop() === file || a.volid.endsWith(`:${file}`)) : undefined;
    if (named) return named.volid;
    const since = archives.filter((a) => (a.ctime ?? 0) >= startedAt).sort((a, b) => (b.ctime ?? 0) - (a.ctime ?? 0));
    return since[0]?.volid;
  } catch {
    // The backup is made; only its name could not be read (the report says less, nothing failed).
    return undefined;
  }
}
