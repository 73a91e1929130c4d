// Runs one guest's steps: each API call with retries (a held lock, a dropped connection, a
// transient 5xx), every task awaited. Before repeating a write whose first attempt may have
// reached PVE, the runner reads the guest back and stops if the write is already there, so a
// retry never adds a second disk, a second guest or a second start.
import { type ClusterResource, getClusterResources } from "../api/endpoints/index.js";
import { lockHeldError, PveError, type PveClient } from "../api/index.js";
import { acceptsDigest, mustNotLandTwice } from "../plan/intent.js";
import { clonedVolumeSlots, resolveParams, resolvePath } from "../plan/resolve-call.js";
import { type AnyGuestKind, kindOf, OWNERSHIP_TAG } from "../resources/index.js";
import { parseTags } from "../resources/formats.js";
import { volumeOf } from "../pve/index.js";
import {
  backoff,
  errorText,
  isCollision,
  isAlreadyRunning,
  isDigestMismatch,
  isGuestMissing,
  isLockError,
  isRetryable500,
  isTransientError,
  mayHaveApplied,
  type RetryPolicy,
} from "./retry-policy.js";
import { digestAfterRelease, LOCK_NOTICE_MS, lockOf, waitForRelease } from "./lock-wait.js";
import { findLostTask } from "./lost-answer.js";
import { snapshotLanded } from "./snapshot-landed.js";
import { isArchiveIntent, runArchiveCall } from "./archive-call.js";
import { ChangedSincePlanError } from "./errors.js";
import type { TaskWatcher } from "../api/task-watcher.js";
import type { ApiCall, GuestPlan, ParamValue, SecretRef, Step } from "../plan/types.js";
import type { VmidAllocator } from "./vmid.js";

export type ApplyEvent =
  | { type: "step-start"; guest: GuestPlan; step: Step }
  | { type: "step-done"; guest: GuestPlan; step: Step; vmid?: number; warnings: string[]; result?: string }
  | { type: "step-skipped"; guest: GuestPlan; step: Step; reason: string }
  | { type: "step-failed"; guest: GuestPlan; step: Step; error: string }
  | { type: "retry"; guest: GuestPlan; step: Step; attempt: number; reason: string; delayMs: number }
  /** Waiting on a lock another operation holds (backup, snapshot, migrate ...), up to `limitMs`. */
  | { type: "lock-wait"; guest: GuestPlan; step: Step; lock: string; elapsedMs: number; limitMs: number };

/** Reads a secret a call names by reference (apply-plan.ts gives one that follows the secret policy). */
export type SecretResolver = (ref: SecretRef) => Promise<string>;

export interface RunnerDeps {
  client: PveClient;
  /** Resolves the secrets a call carries by reference (`ApiCall.secrets`) when it is sent. */
  resolveSecret?: SecretResolver;
  watcher: TaskWatcher;
  allocator: VmidAllocator;
  retry: RetryPolicy;
  /**
   * How long a held lock (`VM is locked (backup)`) is waited on; without it, a lock is
   * retried within the retry policy's attempts (about 17 s with the default policy).
   */
  lockWaitMs?: number;
  /** Runs `fn` with the guest's per-node slot given up (so a guest that only waits does not starve the node). */
  idle?<T>(node: string, fn: () => Promise<T>): Promise<T>;
  emit(event: ApplyEvent): void;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isUpidResult(value: unknown): value is string {
  return typeof value === "string" && value.startsWith("UPID:");
}

export class GuestRunner {
  readonly #deps: RunnerDeps;
  readonly #guest: GuestPlan;
  /**
   * Sent with the guest's first write (PVE refuses it if the config changed since the plan)
   * and with writes that must not land twice (plan/intent.ts mustNotLandTwice).
   */
  #digest: string | undefined;
  vmid: number | undefined;
  /** The guest's kind: how to read it back, its task types, whether a call landed. */
  readonly #kind: AnyGuestKind;
  /** Tasks this runner started and awaited: never mistaken for a lost request's task. */
  readonly #seen = new Set<string>();
  /** When the last clone lock wait was shown (ms into the wait). */
  #lockNoticeAt: number | undefined;
  /** The node the guest is on now: where a migration of the plan starts until it ran, its target after. */
  #node: string;

  constructor(deps: RunnerDeps, guest: GuestPlan) {
    this.#deps = deps;
    this.#guest = guest;
    this.#digest = guest.exists ? guest.digest : undefined;
    this.vmid = guest.vmid;
    this.#kind = kindOf(guest);
    const migration = guest.steps.flatMap((s) => s.calls).find((c) => c.intent.op === "migrate")?.intent;
    this.#node = migration?.op === "migrate" ? migration.from : guest.node;
  }

  /** The node the guest is on as far as this runner knows (a migration of its plan moves it). */
  get node(): string {
    return this.#node;
  }

  /** Runs a step; returns the warnings of its tasks, how many attempts it took and what it made (a backup's archive). */
  async run(step: Step): Promise<{ warnings: string[]; attempts: number; result?: string }> {
    const warnings: string[] = [];
    let attempts = 0;
    let result: string | undefined;
    for (const call of step.calls) {
      // Grown to at least this size already (an image larger than asked): nothing to do.
      if (call.growOnly && (await this.#landed(call))) continue;
      const makesGuest = call.intent.op === "create" || call.intent.op === "clone";
      // Backups, restores and archive deletes resolve their lost answers their own way (archive-call.ts).
      const r = isArchiveIntent(call.intent)
        ? await runArchiveCall(this.#archiveDeps(step), this.#node, { ...call, intent: call.intent })
        : makesGuest
          ? await this.#create(step, call)
          : await this.#call(step, call);
      // Every later call and read goes to the node the guest is on now, once that is confirmed.
      if (call.intent.op === "migrate") this.#node = await this.#confirmMigrated(call.intent.target);
      warnings.push(...r.warnings);
      attempts += r.attempts;
      if ("result" in r && typeof r.result === "string") result = r.result;
    }
    return { warnings, attempts, ...(result !== undefined ? { result } : {}) };
  }

  #archiveDeps(step: Step) {
    const { client, watcher, retry, emit } = this.#deps;
    const onRetry = (attempt: number, reason: string, delayMs: number) =>
      emit({ type: "retry", guest: this.#guest, step, attempt, reason, delayMs });
    // --lock-wait bounds every wait of the step together, from the first lock met.
    let since: number | undefined;
    const awaitLock = (lock: string) => {
      since ??= Date.now();
      return this.#awaitLock(step, lock, since);
    };
    return { client, watcher, retry, seen: this.#seen, onRetry, ...(this.#deps.lockWaitMs !== undefined ? { awaitLock } : {}) };
  }

  /** The call's concrete path: a vmid this apply allocated goes where the plan references it. */
  #path(call: ApiCall): string {
    return resolvePath(call, this.vmid !== undefined ? { vmid: this.vmid } : {});
  }

  async #wait(result: unknown): Promise<string[]> {
    if (!isUpidResult(result)) return [];
    this.#seen.add(result);
    return (await this.#deps.watcher.wait(result)).warnings;
  }

  async #pause(step: Step, attempt: number, err: unknown): Promise<void> {
    const delayMs = backoff(this.#deps.retry, attempt);
    this.#deps.emit({ type: "retry", guest: this.#guest, step, attempt: attempt + 1, reason: errorText(err).split("\n")[0]!, delayMs });
    await sleep(delayMs);
  }

  async #call(step: Step, call: ApiCall): Promise<{ warnings: string[]; attempts: number }> {
    const { client, retry } = this.#deps;
    const path = this.#path(call);
    await this.#checkExpected(call);
    const planned = await this.#params(call);
    // A write that must not land twice carries the digest it was computed against.
    if (this.#digest === undefined && mustNotLandTwice(call.intent)) this.#digest = await this.#currentDigest();
    let lost = false;
    let lockSince: number | undefined;
    let sends = 0;
    for (let attempt = 0; ; attempt++) {
      const params: Record<string, ParamValue> = { ...planned };
      if (this.#digest && acceptsDigest(call.intent)) params.digest = this.#digest;
      const secrets = await this.#secretParams(call);
      const sentAtMs = Date.now();
      sends += 1;
      try {
        const result = await client.request(call.method, path, { ...params, ...secrets });
        this.#digest = undefined;
        if (!isUpidResult(result) && call.intent.op === "template")
          return { warnings: await this.#awaitUnnamedTask(call, sentAtMs), attempts: sends };
        return { warnings: await this.#wait(result), attempts: sends };
      } catch (err) {
        const last = attempt + 1 >= retry.maxAttempts;
        // A resend refused on its checksum after a lost answer: the first request landed first.
        if (lost && isDigestMismatch(err) && (await this.#applied(call))) return this.#sent(sends);
        const lock = this.#deps.lockWaitMs !== undefined ? await this.#heldLock(err, params) : undefined;
        if (lock !== undefined) {
          // Waiting on a lock does not use up the retry attempts: --lock-wait bounds it.
          lockSince ??= Date.now();
          await this.#awaitLock(step, lock, lockSince);
          attempt -= 1;
          continue;
        }
        // A lock (backup, snapshot) is written into the config and so changes its digest while
        // held; the config text, and so the digest, is back once the lock is released.
        if (isDigestMismatch(err) && params.digest !== undefined) {
          const config = await this.#config();
          const lock = lockOf(config);
          // No lock now and the digest back to ours: a lock came and went (a short backup) meanwhile.
          if (lock === undefined && config?.digest !== params.digest) throw new ChangedSincePlanError(this.#guest.key);
          if (last) throw lock === undefined ? err : lockHeldError(lock, `VM is locked (${lock}); gave up waiting`);
          await this.#pause(step, attempt, new Error(`VM is locked (${lock ?? "released meanwhile"})`));
          continue;
        }
        const intent = call.intent;
        if (intent.op === "power" && intent.action === "start" && isAlreadyRunning(err)) return { warnings: [], attempts: sends };
        // Deleted by someone else meanwhile: a stop or destroy has nothing left to do.
        const stops = intent.op === "destroy" || (intent.op === "power" && (intent.action === "shutdown" || intent.action === "stop"));
        if (stops && isGuestMissing(err) && (await this.#gone())) {
          return { warnings: [`${this.#guest.name} (vmid ${this.vmid}) was already gone`], attempts: sends };
        }
        const retryable = isLockError(err) || isTransientError(err) || isRetryable500(err);
        if (!retryable || last) throw err;
        if (!isLockError(err) && mayHaveApplied(err)) {
          // The answer was lost: find out what the first request did before sending it again.
          lost = true;
          await this.#awaitLostTask(call, sentAtMs);
          if (await this.#applied(call)) return this.#sent(sends);
          // A migration is never sent twice: a first one PVE may still start would race the second.
          if (intent.op === "migrate") throw new Error(this.#unresolvedMigration(intent.target, err));
          // Not there: a write that must not land twice is resent with the same digest, so a
          // first request still on its way is refused by PVE should it arrive after the resend.
          // Any other write may land twice, and our own first one would fail a digest check.
          if (!mustNotLandTwice(call.intent)) this.#digest = undefined;
        }
        await this.#pause(step, attempt, err);
      }
    }
  }

  /**
   * A call that destroys what a key holds, where the plan predicted the key (plan/intent.ts
   * `expects`): the guest is read first and the call refused unless each key holds the
   * volume the plan named, so a wrong prediction destroys nothing.
   */
  async #checkExpected(call: ApiCall): Promise<void> {
    const intent = call.intent;
    if (intent.op !== "configure" || !intent.expects?.length) return;
    const config = await this.#kind.read.config(this.#deps.client, this.#node, this.vmid!);
    for (const { key, volume } of intent.expects) {
      const held = config[key] !== undefined ? volumeOf(String(config[key])) : undefined;
      if (held === volume) continue;
      throw new Error(
        `${key} of ${this.#guest.name} holds ${held ?? "nothing"}, not ${volume} as planned; nothing was destroyed: run plan again to see the guest as it is now`,
      );
    }
  }

  /**
   * The parameters the call sends. A follow-up of a clone that writes a cloned volume back (its
   * options changed) references it by slot: PVE names the copies only when it makes them, so
   * they are read from the copy's config now.
   */
  async #params(call: ApiCall): Promise<Record<string, ParamValue>> {
    if (clonedVolumeSlots(call).length === 0) return resolveParams(call);
    const config = await this.#kind.read.config(this.#deps.client, this.#node, this.vmid!);
    const clonedVolume = (slot: string) => {
      const volume = config[slot] !== undefined ? volumeOf(String(config[slot])) : undefined;
      if (volume === undefined)
        throw new Error(`${slot} of ${this.#guest.name} holds no volume after the clone; run plan again to see the guest as it is now`);
      return volume;
    };
    return resolveParams(call, { clonedVolume });
  }

  /**
   * The values of the parameters a call carries by reference, read only now: they are never in
   * the plan, and the client masks them in any error text.
   */
  async #secretParams(call: ApiCall): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const [param, ref] of Object.entries(call.secrets ?? {})) {
      const where = "env" in ref ? `environment variable ${ref.env}` : `file ${ref.file}`;
      if (!this.#deps.resolveSecret) {
        throw new Error(
          `${this.#guest.name}: ${param} comes from ${where}, but this apply was given no way to read secrets; run it with pvectl apply`,
        );
      }
      const value = await this.#deps.resolveSecret(ref);
      this.#deps.client.maskSecret(value);
      out[param] = value;
    }
    return out;
  }

  /** The first request's effect is there: later steps write on top of it, without the old digest. */
  #sent(sends: number): { warnings: string[]; attempts: number } {
    this.#digest = undefined;
    return { warnings: [], attempts: sends };
  }

  /** The lock another operation holds on the guest, when that is why the call failed. */
  async #heldLock(err: unknown, params: Record<string, ParamValue>): Promise<string | undefined> {
    const digestRefused = isDigestMismatch(err) && params.digest !== undefined;
    if (!isLockError(err) && !digestRefused) return undefined;
    return this.#currentLock();
  }

  /** Waits (outside the node's slot) until the guest's lock is released or --lock-wait is over. */
  async #awaitLock(step: Step, lock: string, since: number): Promise<void> {
    const { lockWaitMs, retry, emit, idle } = this.#deps;
    const readConfig = () => this.#config();
    const limitMs = lockWaitMs ?? 0;
    const notify = (current: string, elapsedMs: number) =>
      emit({ type: "lock-wait", guest: this.#guest, step, lock: current, elapsedMs, limitMs });
    const locked = this.#digest !== undefined ? await this.#config() : undefined;
    const wait = () => waitForRelease({ readConfig, retry, limitMs, since, notify }, lock);
    await (idle ? idle(this.#node, wait) : wait());
    if (this.#digest !== undefined) this.#digest = await digestAfterRelease(this.#digest, locked, readConfig);
  }

  async #config(): Promise<Record<string, unknown> | undefined> {
    try {
      return await this.#kind.read.config(this.#deps.client, this.#node, this.vmid!);
    } catch {
      return undefined;
    }
  }

  /** If the lost request started a task that is still running, waits for it to end (its result is read back after). */
  async #awaitLostTask(call: ApiCall, sentAtMs: number): Promise<void> {
    const type = this.#kind.taskType(call);
    if (type === undefined || this.vmid === undefined) return;
    // A clone's task runs on the source's node, listed under the source's vmid.
    const intent = call.intent;
    const where = intent.op === "clone" ? { node: intent.source.node, vmid: intent.source.vmid } : { node: this.#node, vmid: this.vmid };
    try {
      const upid = await findLostTask(this.#deps.client, { ...where, type, sentAtMs }, this.#seen);
      if (upid === undefined) return;
      this.#seen.add(upid);
      await this.#deps.watcher.wait(upid);
    } catch {
      // The task failed or could not be listed: the read-back decides.
    }
  }

  /**
   * pve-container's template call starts a `vztemplate` task but answers null: the task is
   * found by its type, and awaited like any other (its failure is the step's). Not found: the
   * read-back must show the guest converted.
   */
  async #awaitUnnamedTask(call: ApiCall, sentAtMs: number): Promise<string[]> {
    const type = this.#kind.taskType(call);
    const where = { node: this.#node, vmid: this.vmid!, type: type ?? "", sentAtMs };
    const upid = type !== undefined ? await findLostTask(this.#deps.client, where, this.#seen) : undefined;
    if (upid !== undefined) return this.#wait(upid);
    if (await this.#landed(call)) return [];
    throw new Error(
      `PVE accepted ${call.method} ${this.#path(call)} but no ${type ?? "task"} task of vmid ${this.vmid} was found and the guest is not converted: check the node's task log`,
    );
  }

  /** Whether the guest is no longer listed in the cluster. */
  async #gone(): Promise<boolean> {
    try {
      const guests = await getClusterResources(this.#deps.client, { type: "vm" });
      return !guests.some((g) => Number(g.vmid) === this.vmid);
    } catch {
      return false;
    }
  }

  /** The config digest now (undefined when unreadable: the write then goes without one, as before). */
  async #currentDigest(): Promise<string | undefined> {
    const digest = (await this.#config())?.digest;
    return typeof digest === "string" ? digest : undefined;
  }

  async #currentLock(): Promise<string | undefined> {
    return lockOf(await this.#config());
  }

  /** Where the cluster lists the guest now, and its lock. */
  async #listed(): Promise<ClusterResource | undefined> {
    const guests = await getClusterResources(this.#deps.client, { type: "vm" });
    return guests.find((g) => Number(g.vmid) === this.vmid);
  }

  /** After the migration's task ended well: the guest must be listed on `target` (the node every later step uses). */
  async #confirmMigrated(target: string): Promise<string> {
    const listed = await this.#listed();
    if (listed?.node === target) return target;
    throw new Error(
      `the migration task ended, but ${this.#guest.name} (vmid ${this.vmid}) is listed on ${listed?.node ?? "no node"}, not ${target}: check the task log, then run plan again`,
    );
  }

  #unresolvedMigration(target: string, err: unknown): string {
    return (
      `the answer to the migration request was lost (${errorText(err).split("\n")[0]}), and ${this.#guest.name} (vmid ${this.vmid}) is not on ${target} ` +
      `and no migration task of it was found on ${this.#node}; it was not sent again: check the node's task log, then run plan again`
    );
  }

  /** Reads the guest back: is this call's effect already there? */
  async #applied(call: ApiCall): Promise<boolean> {
    const intent = call.intent;
    try {
      if (intent.op === "destroy") return await this.#gone();
      // Moved when it is listed on the target and no migration holds it any more.
      if (intent.op === "migrate") {
        const listed = await this.#listed();
        return listed?.node === intent.target && listed.lock !== "migrate";
      }
      if (intent.op === "snapshot") return await snapshotLanded(this.#deps.client, { node: this.#node, vmid: this.vmid! }, intent);
      if (intent.op === "power") {
        // A reboot leaves no trace to read: it is never taken as landed.
        if (intent.action === "reboot") return false;
        const status = await this.#kind.read.status(this.#deps.client, this.#node, this.vmid!);
        return status.status === (intent.action === "start" ? "running" : "stopped");
      }
      return await this.#landed(call);
    } catch {
      return false;
    }
  }

  /** Whether the guest, read back, shows the call's effect (the kind decides what that means). */
  async #landed(call: ApiCall): Promise<boolean> {
    try {
      const node = this.#node;
      const entries = await this.#kind.read.pending(this.#deps.client, node, this.vmid!);
      return this.#kind.landed(call, { vmid: this.vmid!, node }, entries);
    } catch {
      return false;
    }
  }

  /** Create, and when the create also starts the guest, wait for that start too. */
  async #create(step: Step, call: ApiCall): Promise<{ warnings: string[]; attempts: number }> {
    const sentAtMs = Date.now();
    const created = await this.#sendCreate(step, call);
    if (call.intent.op !== "create" || !call.intent.start) return created;
    return { warnings: [...created.warnings, ...(await this.#awaitAutostart(sentAtMs))], attempts: created.attempts };
  }

  /**
   * PVE's create worker starts the guest (`start=1`) by starting a task of its own (pve-container
   * runs vm_start from vzcreate's worker), so the create task can end before the guest runs.
   * The guest is reported running only when that start task has ended well; a failed start is
   * this step's error (the guest exists: its vmid stays taken).
   */
  async #awaitAutostart(sinceMs: number): Promise<string[]> {
    const { client, watcher } = this.#deps;
    const node = this.#node;
    const vmid = this.vmid!;
    const startCall: ApiCall = {
      ...this.#kind.endpoints.status(node, vmid, "start", {}),
      intent: { kind: this.#kind.type, op: "power", action: "start" },
    };
    const type = this.#kind.taskType(startCall);
    let upid: string | undefined;
    try {
      // Listed as soon as the create task ends (its worker started it), running or done.
      if (type !== undefined) upid = await findLostTask(client, { node, vmid, type, sentAtMs: sinceMs }, this.#seen);
    } catch {
      // Unreadable now: the verification after the run says whether the guest runs.
    }
    if (upid === undefined) return [];
    this.#seen.add(upid);
    try {
      return (await watcher.wait(upid)).warnings;
    } catch (err) {
      throw new Error(`created, but PVE's start of it failed: ${errorText(err)}`);
    }
  }

  /** Create: allocate a vmid if the spec has none, retry on collision, adopt our own half-finished create. */
  async #sendCreate(step: Step, call: ApiCall): Promise<{ warnings: string[]; attempts: number }> {
    const { client, allocator, retry } = this.#deps;
    const allocate = this.#guest.vmid === undefined;
    const cloning = call.intent.op === "clone";
    // A clone's new vmid is `newid` (its path's vmid is the source's).
    const idParam = cloning ? "newid" : "vmid";
    let lockSince: number | undefined;
    // vmids whose create this runner sent without getting an answer: only those can be its own.
    const lost = new Set<number>();
    let attempt = 0;
    for (;;) {
      attempt += 1;
      if (allocate && this.vmid === undefined) this.vmid = await allocator.allocate();
      const vmid = this.vmid!;
      const sentAtMs = Date.now();
      try {
        const upid = await client.request("POST", this.#path(call), {
          ...resolveParams(call),
          ...(await this.#secretParams(call)),
          [idParam]: vmid,
        });
        return { warnings: await this.#wait(upid), attempts: attempt };
      } catch (err) {
        const last = attempt >= retry.maxAttempts;
        if (isCollision(err)) {
          // PVE refused this very request: the guest there is ours only if a lost attempt made it.
          const guests = await this.#settledListing(vmid);
          const there = guests.find((g) => Number(g.vmid) === vmid);
          if (there && lost.has(vmid) && this.#isOurs(there, !cloning)) return { warnings: [], attempts: attempt };
          this.#refuseRival(guests);
          if (!allocate || last) throw err;
          await allocator.collided(vmid);
          this.vmid = undefined;
          continue;
        }
        if (err instanceof PveError && err.kind === "task" && !isLockError(err)) {
          // PVE removed the half-created guest and its volumes when the task failed.
          if (allocate) {
            allocator.release(vmid);
            this.vmid = undefined;
          }
          throw err;
        }
        // Clones of one source queue behind each other's locks (the source's, a storage's):
        // with --lock-wait they keep trying for that long instead of using up the attempts.
        if (cloning && isLockError(err) && this.#deps.lockWaitMs !== undefined) {
          lockSince ??= Date.now();
          if (await this.#awaitCloneLock(step, err, lockSince)) {
            attempt -= 1;
            continue;
          }
        }
        const retryable = isLockError(err) || isTransientError(err) || isRetryable500(err);
        if (!retryable || last) throw err;
        if (mayHaveApplied(err)) {
          lost.add(vmid);
          // A create of ours still running is waited for: its vmid must not be given up.
          await this.#awaitLostTask(call, sentAtMs);
          const there = (await this.#settledListing(vmid)).find((g) => Number(g.vmid) === vmid);
          if (there && this.#isOurs(there, !cloning)) return { warnings: [], attempts: attempt };
          if (there && allocate) {
            await allocator.collided(vmid);
            this.vmid = undefined;
          }
        }
        await this.#pause(step, attempt - 1, err);
      }
    }
  }

  /**
   * A guest listed with this guest's name, node and ownership tag. A clone carries its
   * source's tags, so one made by a lost attempt of ours is known by name and node alone.
   */
  #isOurs(g: ListedGuest, tagged = true): boolean {
    return g.name === this.#guest.name && (!tagged || parseTags(g.tags).includes(OWNERSHIP_TAG)) && g.node === this.#guest.node;
  }

  /**
   * A clone refused because its source (or a storage) is locked: waits a little, outside the
   * node's slot, and says so; false once --lock-wait is used up (the error then stands).
   */
  async #awaitCloneLock(step: Step, err: unknown, since: number): Promise<boolean> {
    const { lockWaitMs = 0, retry, emit, idle } = this.#deps;
    const elapsedMs = Date.now() - since;
    if (elapsedMs >= lockWaitMs) return false;
    const lock = /\(([\w-]+)\)/.exec(errorText(err))?.[1] ?? "clone";
    if (this.#lockNoticeAt === undefined || elapsedMs - this.#lockNoticeAt >= LOCK_NOTICE_MS) {
      emit({ type: "lock-wait", guest: this.#guest, step, lock, elapsedMs, limitMs: lockWaitMs });
      this.#lockNoticeAt = elapsedMs;
    }
    const pause = () => sleep(Math.min(backoff(retry, 3), lockWaitMs - elapsedMs));
    await (idle ? idle(this.#node, pause) : pause());
    return true;
  }

  /**
   * After a collision: a guest with this guest's name and ownership tag on its node was made
   * by another run (another pvectl with a spec sharing the name) meanwhile. Creating another
   * would duplicate it, and adopting it would report as created what this run did not create.
   */
  #refuseRival(guests: ListedGuest[]): void {
    const rival = guests.find((g) => this.#isOurs(g));
    if (rival === undefined) return;
    throw new Error(
      `${this.#guest.name} was created by another run meanwhile (vmid ${rival.vmid} on ${rival.node}); ` +
        "this run did not create or change it: run plan and apply again to converge it",
    );
  }

  /**
   * The cluster's guests once `vmid` is no longer being created: a create still running shows
   * only `lock: create` (no name yet), so nothing can be decided about it before it ends.
   */
  async #settledListing(vmid: number): Promise<ListedGuest[]> {
    const { client, retry } = this.#deps;
    for (let i = 0; i < retry.maxAttempts * 4; i++) {
      let guests: ListedGuest[];
      try {
        guests = await getClusterResources(client, { type: "vm" });
      } catch {
        await sleep(backoff(retry, Math.min(i, 4)));
        continue;
      }
      const found = guests.find((g) => Number(g.vmid) === vmid);
      // A guest being made shows only its lock: `create`, or `clone` for a copy.
      if (found?.lock !== "create" && found?.lock !== "clone") return guests;
      await sleep(backoff(retry, Math.min(i, 4)));
    }
    // Still being created: it may be ours, so creating under another vmid could duplicate it.
    throw new Error(
      `vmid ${vmid} is still being created (lock: create) and may be ${this.#guest.name} from this apply; ` +
        "nothing else was created for it: run apply again once that create has finished",
    );
  }
}

/** A guest as GET /cluster/resources lists it. */
type ListedGuest = ClusterResource;
