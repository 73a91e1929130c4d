// `pvectl netbox serve`: NetBox event rules drive the builds instead of a timer. Webhooks
// are verified (webhook.ts) and only name records; the records themselves are read from
// NetBox again and go through the same sync as `netbox sync` (mapping, plan, guard rails,
// write-back). One worker runs the syncs one after another: records that arrive while a
// sync runs wait for the next one, so a record is never in two syncs at once, and a burst of
// events becomes one sync of all its records. A full reconcile of the configured selection
// runs at start and every `reconcileMs` as the safety net for lost deliveries.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { userMessageOf } from "../../util/errors.js";
import { sleep } from "../../util/sleep.js";
import { type SyncOptions, type SyncReport, syncNetbox } from "./sync.js";
import { WebhookVerifier } from "./webhook.js";

export interface ServeLog {
  time: string;
  level: "info" | "warn" | "error";
  msg: string;
  [field: string]: unknown;
}

export interface ServeOptions extends Omit<SyncOptions, "selection" | "planOnly" | "onRecord" | "onPlan" | "onEvent"> {
  /** The webhook's secret, as set on the NetBox webhook. */
  secret: string;
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** Full reconcile interval; 0 turns it off (start-up reconcile still runs unless `reconcileAtStart` is false). */
  reconcileMs: number;
  reconcileAtStart?: boolean;
  log: (entry: ServeLog) => void;
  /** Deliveries older than this are refused (each is remembered until its timestamp is this old, against replays). */
  maxAgeMs?: number;
  /** Wait for events to stop this long before a sync (a record arrives in several requests). Default 2 s. */
  quietMs?: number;
}

/**
 * What `GET /healthz` reports. `ok` follows the latest sync: false after one that failed
 * outright (NetBox or PVE could not be read), true again after the next one that ran to its
 * end (records that failed alone are in `lastSync.ok` and the log, not a health problem).
 */
export interface ServeStatus {
  ok: boolean;
  queued: number;
  running: boolean;
  /** Syncs that ran to their end, and syncs that failed outright. */
  syncs: number;
  failures: number;
  /** The latest sync, whatever its outcome: when it ended, and `error` when it failed outright. */
  lastSync?: { at: string; records: number; ok: boolean; durationMs: number; error?: string };
  /** The latest sync that failed outright, kept after later successes. */
  lastError?: { at: string; error: string };
}

export interface RunningServe {
  url: string;
  status(): ServeStatus;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

/** The worker: a queue of record ids (or "everything"), drained one sync at a time. */
class SyncQueue {
  readonly #queued = new Set<number>();
  #full = false;
  #running: Promise<void> | undefined;
  #lastAdd = 0;
  readonly status: ServeStatus = { ok: true, queued: 0, running: false, syncs: 0, failures: 0 };

  constructor(
    private readonly sync: (ids: number[] | undefined) => Promise<SyncReport>,
    private readonly log: ServeOptions["log"],
    private readonly quietMs: number,
  ) {}

  add(ids: number[]): void {
    if (ids.length === 0) return;
    for (const id of ids) this.#queued.add(id);
    this.#lastAdd = performance.now();
    this.#kick();
  }

  reconcile(): void {
    this.#full = true;
    this.#kick();
  }

  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  #kick(): void {
    this.status.queued = this.#queued.size;
    if (this.#running) return;
    this.#running = this.#drain().finally(() => {
      this.#running = undefined;
      this.status.running = false;
      if (this.#full || this.#queued.size > 0) this.#kick();
    });
  }

  async #drain(): Promise<void> {
    this.status.running = true;
    while (this.#full || this.#queued.size > 0) {
      if (!this.#full) await this.#quiet();
      const full = this.#full;
      const ids = full ? undefined : [...this.#queued];
      this.#full = false;
      this.#queued.clear();
      this.status.queued = 0;
      await this.#runOne(ids);
    }
  }

  /**
   * A record is made in several requests (the VM, then its interfaces and disks), each with its
   * own event: wait until events stop for `quietMs` (at most ten times that) so the build sees
   * the whole record.
   */
  async #quiet(): Promise<void> {
    const limit = performance.now() + 10 * this.quietMs;
    for (;;) {
      const wait = this.#lastAdd + this.quietMs - performance.now();
      if (wait <= 0 || performance.now() >= limit) return;
      await sleep(Math.min(wait, limit - performance.now()));
    }
  }

  async #runOne(ids: number[] | undefined): Promise<void> {
    const started = performance.now();
    this.log({
      time: new Date().toISOString(),
      level: "info",
      msg: ids ? "sync started" : "reconcile started",
      ...(ids ? { records: ids } : {}),
    });
    try {
      const report = await this.sync(ids);
      const durationMs = Math.round(performance.now() - started);
      this.status.syncs += 1;
      this.status.ok = true;
      this.status.lastSync = { at: new Date().toISOString(), records: report.records.length, ok: report.ok, durationMs };
      for (const r of report.records) {
        const level = r.result === "failed" || r.result === "invalid" ? "warn" : "info";
        this.log({
          time: new Date().toISOString(),
          level,
          msg: "record",
          record: r.id,
          name: r.name,
          result: r.result,
          status: r.status,
          ...(r.vmid !== undefined ? { vmid: r.vmid } : {}),
          ...(r.errors.length ? { errors: r.errors } : {}),
        });
      }
      this.log({
        time: new Date().toISOString(),
        level: "info",
        msg: ids ? "sync done" : "reconcile done",
        records: report.records.length,
        ok: report.ok,
        durationMs,
      });
    } catch (err) {
      const failure = { at: new Date().toISOString(), error: userMessageOf(err) };
      this.status.failures += 1;
      this.status.ok = false;
      this.status.lastSync = {
        at: failure.at,
        records: 0,
        ok: false,
        durationMs: Math.round(performance.now() - started),
        error: failure.error,
      };
      this.status.lastError = failure;
      this.log({ time: failure.at, level: "error", msg: "sync failed", error: failure.error });
    }
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

export async function startNetboxServe(options: ServeOptions): Promise<RunningServe> {
  const { secret, host, port, reconcileMs, log, maxAgeMs, quietMs, reconcileAtStart, ...syncOptions } = options;
  const verifier = new WebhookVerifier(secret, maxAgeMs !== undefined ? { maxAgeMs } : {});
  const queue = new SyncQueue((ids) => syncNetbox({ ...syncOptions, ...(ids ? { selection: { ids } } : {}) }), log, quietMs ?? 2000);
  const at = () => new Date().toISOString();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    // 503 while the latest sync failed outright, so a plain HTTP check (a load balancer, a probe) sees it.
    if (req.method === "GET" && path === "/healthz") return reply(res, queue.status.ok ? 200 : 503, queue.status);
    if (path !== "/webhook") return reply(res, 404, { error: "not found: NetBox webhooks go to POST /webhook, health to GET /healthz" });
    if (req.method !== "POST") return reply(res, 405, { error: "POST only" });
    const body = await readBody(req);
    if (body === undefined) {
      log({ time: at(), level: "warn", msg: "webhook refused", status: 413, reason: "body over 1 MiB" });
      return reply(res, 413, { error: "body over 1 MiB" });
    }
    const signature = req.headers["x-hook-signature"];
    const verdict = verifier.verify(Array.isArray(signature) ? signature[0] : signature, body);
    if (!verdict.ok) {
      log({
        time: at(),
        level: "warn",
        msg: "webhook refused",
        status: verdict.status,
        reason: verdict.reason,
        remote: req.socket.remoteAddress,
      });
      return reply(res, verdict.status, { error: verdict.reason });
    }
    log({
      time: at(),
      level: "info",
      msg: "webhook",
      event: verdict.event,
      model: verdict.model,
      request: verdict.requestId,
      records: verdict.recordIds,
    });
    queue.add(verdict.recordIds);
    return reply(res, 202, { queued: verdict.recordIds });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log({ time: at(), level: "error", msg: "request failed", error: userMessageOf(err) });
      if (!res.headersSent) reply(res, 500, { error: "internal error" });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`;
  log({ time: at(), level: "info", msg: "listening", url, reconcileEverySeconds: reconcileMs / 1000 });
  const timer = reconcileMs > 0 ? setInterval(() => queue.reconcile(), reconcileMs) : undefined;
  timer?.unref();
  if (reconcileAtStart !== false) queue.reconcile();

  return {
    url,
    status: () => ({ ...queue.status }),
    idle: () => queue.idle(),
    async close() {
      if (timer) clearInterval(timer);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue.idle();
    },
  };
}
