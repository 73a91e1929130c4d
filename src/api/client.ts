// PveClient: the one way pvectl talks to the PVE API. It owns the connection pool (TLS
// policy included), authentication, parameter encoding, error translation, read retries,
// task waiting and per-endpoint accounting. Callers get `data` back or a PveError.
import { type ApiPath, type ApiReturns, matchPath, type PathsWith } from "../schema/index.js";
import { type Authenticator, TicketAuth, TokenAuth } from "./auth.js";
import { encodeParams } from "./encode.js";
import { PveError } from "./errors.js";
import { type CallContext, httpError, transportError } from "./messages.js";
import {
  clientOptionsFromEnv,
  identityOf,
  mergeEnvOptions,
  type PveClientOptions,
  type ResolvedOptions,
  resolveOptions,
} from "./options.js";
import { fillPath, type ParamsArg } from "./paths.js";
import { isTransientFailure, isTransientStatus, retryDelay } from "./retry.js";
import { SecretScrubber } from "./secrets.js";
import { type EndpointStat, EndpointStats } from "./stats.js";
import { type TaskResult, type WaitOptions, waitForTask } from "./tasks.js";
import { sleep } from "../util/sleep.js";
import { ConnectionPool } from "../util/http/pool.js";
import { tlsPolicy } from "./tls.js";
import { type Envelope, type HttpMethod, type RawResponse, send } from "./transport.js";

type Method = HttpMethod;
/**
 * A string that is not one of the schema's templates: those go through the typed overload,
 * and a template used with a method it does not have is refused at compile time.
 */
type UntypedPath<S extends string> = S extends ApiPath ? never : S;

const API_PREFIX = "/api2/json";

export class PveClient {
  /** `root@pam` or `automation@pve!ci`: who the client acts as (never a secret). */
  readonly identity: string;
  readonly #options: ResolvedOptions;
  readonly #pool: ConnectionPool;
  readonly #scrubber = new SecretScrubber();
  readonly #stats = new EndpointStats();
  readonly #auth: Authenticator;
  #closed = false;

  constructor(options: PveClientOptions) {
    this.#options = resolveOptions(options);
    this.identity = identityOf(this.#options.credentials);
    const policy = tlsPolicy(this.#options);
    this.#pool = new ConnectionPool({
      protocol: this.#options.protocol,
      host: this.#options.host,
      port: this.#options.port,
      connections: this.#options.connections,
      connectTimeoutMs: Math.min(this.#options.timeoutMs, 30_000),
      ...(policy ? { tls: policy } : {}),
    });
    const credentials = this.#options.credentials;
    this.#auth =
      credentials.kind === "token"
        ? new TokenAuth(credentials.identity, credentials.secret, this.#scrubber)
        : new TicketAuth(credentials, {
            postTicket: (params) => this.#postTicket(params),
            context: (method, path) => this.#context(method, path),
            scrubber: this.#scrubber,
            clock: this.#options.clock,
          });
  }

  /** From the PROXMOX_* variables (community.proxmox's names), with explicit overrides on top. */
  static fromEnv(env: NodeJS.ProcessEnv = process.env, overrides?: Partial<PveClientOptions>): PveClient {
    // An override given as `undefined` means "not given", not "erase what the environment says".
    const given = Object.fromEntries(Object.entries(overrides ?? {}).filter(([, value]) => value !== undefined));
    return new PveClient(Object.keys(given).length > 0 ? mergeEnvOptions(env, given) : clientOptionsFromEnv(env));
  }

  /**
   * A secret this client will send as a parameter (a container's root password): masked, like
   * the client's own credentials, in every error and log text from now on.
   */
  maskSecret(value: string): void {
    this.#scrubber.add(value);
  }

  /** `https://host:port` */
  get origin(): string {
    return this.#options.origin;
  }

  get<P extends PathsWith<"GET">>(path: P, ...params: ParamsArg<P, "GET">): Promise<ApiReturns<P, "GET">>;
  get<S extends string>(path: UntypedPath<S>, params?: Record<string, unknown>): Promise<unknown>;
  get(path: string, params?: Record<string, unknown>): Promise<unknown> {
    return this.request("GET", path, params);
  }

  post<P extends PathsWith<"POST">>(path: P, ...params: ParamsArg<P, "POST">): Promise<ApiReturns<P, "POST">>;
  post<S extends string>(path: UntypedPath<S>, params?: Record<string, unknown>): Promise<unknown>;
  post(path: string, params?: Record<string, unknown>): Promise<unknown> {
    return this.request("POST", path, params);
  }

  put<P extends PathsWith<"PUT">>(path: P, ...params: ParamsArg<P, "PUT">): Promise<ApiReturns<P, "PUT">>;
  put<S extends string>(path: UntypedPath<S>, params?: Record<string, unknown>): Promise<unknown>;
  put(path: string, params?: Record<string, unknown>): Promise<unknown> {
    return this.request("PUT", path, params);
  }

  delete<P extends PathsWith<"DELETE">>(path: P, ...params: ParamsArg<P, "DELETE">): Promise<ApiReturns<P, "DELETE">>;
  delete<S extends string>(path: UntypedPath<S>, params?: Record<string, unknown>): Promise<unknown>;
  delete(path: string, params?: Record<string, unknown>): Promise<unknown> {
    return this.request("DELETE", path, params);
  }

  /** Untyped call; `path` is a template (`{x}` filled from params) or a concrete path. Returns `data`. */
  async request(method: Method, path: string, params?: Record<string, unknown>): Promise<unknown> {
    return (await this.requestEnvelope(method, path, params)).data ?? null;
  }

  /** Like request(), but returns the whole envelope (`data`, plus `total` on paged lists such as task logs). */
  async requestEnvelope(method: Method, path: string, params?: Record<string, unknown>, signal?: AbortSignal): Promise<Envelope> {
    if (this.#closed) {
      throw new PveError({ kind: "config", method, path, message: `${method} ${path}: the client was closed` });
    }
    const filled = fillPath(path, params);
    const encoded = encodeParams(filled.rest);
    const inQuery = method === "GET" || method === "DELETE";
    const url = `${this.#options.origin}${API_PREFIX}${filled.path}${inQuery && encoded ? `?${encoded}` : ""}`;
    const body = inQuery ? undefined : encoded;
    const started = performance.now();
    let failed = true;
    try {
      const envelope = await this.#exchange(method, filled.path, url, body, signal);
      failed = false;
      return envelope;
    } finally {
      this.#stats.record(method, filled.template, performance.now() - started, failed);
    }
  }

  /**
   * Waits for a task to end; resolves on `OK` and `WARNINGS: n`, throws a PveError (kind "task") on
   * failure. For many tasks at once, a TaskWatcher asks each node once per poll.
   */
  waitForTask(upid: string, options?: WaitOptions): Promise<TaskResult> {
    return waitForTask(this, upid, options);
  }

  /** Count, time and errors per endpoint (method + template, concrete paths mapped to theirs), busiest first. */
  stats(): EndpointStat[] {
    return this.#stats.snapshot((path) => {
      try {
        return matchPath(decodeURIComponent(path))?.template;
      } catch {
        return undefined;
      }
    });
  }

  resetStats(): void {
    this.#stats.reset();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.close();
  }

  #context(method: string, path: string): CallContext {
    return {
      method,
      path,
      origin: this.#options.origin,
      identity: this.identity,
      authKind: this.#auth?.kind ?? this.#options.credentials.kind,
      scrub: (text) => this.#scrubber.scrub(text),
    };
  }

  async #exchange(method: Method, path: string, url: string, body: string | undefined, signal?: AbortSignal): Promise<Envelope> {
    const ctx = this.#context(method, path);
    const retries = method === "GET" ? this.#options.readRetries : 0;
    let reauthenticated = false;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { accept: "application/json", ...(await this.#auth.headers(method)) };
      if (body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
      let res: RawResponse;
      try {
        res = await send({
          pool: this.#pool,
          url,
          method,
          headers,
          ...(body !== undefined ? { body } : {}),
          timeoutMs: this.#options.timeoutMs,
          ...(signal ? { signal } : {}),
        });
      } catch (err) {
        if (attempt < retries && isTransientFailure(err) && !signal?.aborted) {
          await sleep(retryDelay(attempt));
          continue;
        }
        throw transportError(err, ctx, this.#options.timeoutMs);
      }
      if (res.status >= 200 && res.status < 300) return res.envelope ?? { data: null };
      // PVE checks the ticket before running anything, so after a 401 even a write may be
      // sent again once, with a fresh ticket (one that expired or was revoked meanwhile).
      if (res.status === 401 && !reauthenticated && this.#auth.invalidate()) {
        reauthenticated = true;
        continue;
      }
      if (attempt < retries && isTransientStatus(res)) {
        await sleep(retryDelay(attempt));
        continue;
      }
      throw httpError(res, ctx);
    }
  }

  async #postTicket(params: Record<string, string>): Promise<RawResponse> {
    const path = "/access/ticket";
    const started = performance.now();
    let failed = true;
    try {
      const res = await send({
        pool: this.#pool,
        url: `${this.#options.origin}${API_PREFIX}${path}`,
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
        body: encodeParams(params),
        timeoutMs: this.#options.timeoutMs,
      });
      failed = res.status >= 300;
      return res;
    } catch (err) {
      throw transportError(err, this.#context("POST", path), this.#options.timeoutMs);
    } finally {
      this.#stats.record("POST", path, performance.now() - started, failed);
    }
  }
}
