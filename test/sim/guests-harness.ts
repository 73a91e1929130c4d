// Test harness for the guest model: calls the real handlers with params validated against the
// real schema, a fake task manager that runs each task's work when told to (or at once), and
// permissions that are all granted unless a test restricts them.
import { validateParams } from "../../src/pve/validate.js";
import { matchEndpoint } from "../../src/schema/index.js";
import type { HttpMethod } from "../../src/schema/types.js";
import { createClusterModel, type ClusterConfig } from "../../src/sim/cluster/index.js";
import type { SimCluster } from "../../src/sim/cluster/model.js";
import {
  type Handler,
  type HandlerContext,
  PveApiError,
  PveResult,
  type Random,
  type Router,
  type StartTaskOptions,
} from "../../src/sim/contract.js";
import { registerGuestHandlers } from "../../src/sim/handlers/index.js";
import { jsonBody } from "../../src/sim/http/json-body.js";

export interface FakeTask {
  upid: string;
  options: StartTaskOptions;
  status: "running" | "stopped";
  exitstatus?: string;
  log: string[];
}

class SeqRandom implements Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (Math.imul(this.state, 1664525) + 1013904223) >>> 0;
    return this.state / 4294967296;
  }
  hex(bytes: number): string {
    let out = "";
    for (let i = 0; i < bytes; i++)
      out += Math.floor(this.next() * 256)
        .toString(16)
        .padStart(2, "0");
    return out;
  }
}

export interface HarnessOptions {
  nodes?: number;
  config?: ClusterConfig;
  /** Run task work immediately (default) or only on `runTasks()`. */
  deferTasks?: boolean;
  seed?: number;
}

export class Harness {
  readonly handlers = new Map<string, Handler>();
  readonly tasks: FakeTask[] = [];
  readonly model: SimCluster;
  clock = 1_764_000_000;
  /** Privileges denied to the caller: "path privilege" entries. */
  denied = new Set<string>();
  userid = "root@pam";
  /** Task types whose next run fails without running `work` (like the platform's injected faults). */
  readonly injectedFailures = new Map<string, string>();
  private readonly random: SeqRandom;
  private pending: FakeTask[] = [];

  constructor(private readonly options: HarnessOptions = {}) {
    this.random = new SeqRandom(options.seed ?? 42);
    this.model = createClusterModel({
      ...(options.nodes !== undefined ? { nodes: options.nodes } : {}),
      ...(options.config ? { config: options.config } : {}),
      random: this.random,
      now: () => this.clock,
    });
    const router: Router = { add: (method, template, handler) => this.handlers.set(`${method} ${template}`, handler) };
    registerGuestHandlers(router);
  }

  private has(path: string, privs: string[], any?: boolean): boolean {
    const ok = privs.map((p) => !this.denied.has(`${path} ${p}`));
    return any ? ok.some(Boolean) : ok.every(Boolean);
  }

  /** Calls an endpoint; returns `data` or throws the handler's PveApiError. */
  async call(method: HttpMethod, path: string, raw: Record<string, string | number> = {}): Promise<unknown> {
    const match = matchEndpoint(method, path);
    if (!match) throw new Error(`no endpoint ${method} ${path}`);
    const handler = this.handlers.get(`${method} ${match.endpoint.path}`);
    if (!handler) throw new Error(`no handler for ${method} ${match.endpoint.path}`);
    const input: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw)) input[k] = String(v);
    for (const [k, v] of Object.entries(match.pathParams)) input[k] = v;
    const validation = validateParams(match.endpoint, input);
    if (Object.keys(validation.errors).length > 0) {
      throw new PveApiError(400, "Parameter verification failed.", validation.errors);
    }
    const params: Record<string, string | number | undefined> = {};
    for (const [k, v] of Object.entries(validation.values)) params[k] = Array.isArray(v) ? v.join(",") : v;
    const ctx: HandlerContext = {
      method,
      path,
      endpoint: match.endpoint,
      params,
      auth: { userid: this.userid },
      hasPermission: (p, privs, any) => this.has(p, privs, any),
      checkPermission: (p, privs, any) => {
        if (!this.has(p, privs, any)) throw new PveApiError(403, `Permission check failed (${p}, ${privs.join("|")})`);
      },
      tasks: { start: (o) => this.startTask(o) },
      random: this.random,
      now: () => this.clock,
      cluster: this.model,
    };
    const result = await handler(ctx);
    if (!this.options.deferTasks) await this.runTasks();
    // What a client sees: the result as the platform writes it (JsonList runs included)
    const data = result instanceof PveResult ? result.data : result;
    if (data === undefined) return data;
    return (JSON.parse(Buffer.concat(jsonBody({ data })).toString("utf8")) as { data: unknown }).data;
  }

  /** Starts a task as the platform would for work outside a request (the HA manager after a node failure). */
  startTaskForTest(options: StartTaskOptions): string {
    return this.startTask(options);
  }

  private startTask(options: StartTaskOptions): string {
    const upid = `UPID:${options.node}:0000${(this.tasks.length + 1000).toString(16).toUpperCase()}:00000000:${this.clock.toString(16).toUpperCase()}:${options.type}:${options.id}:${this.userid}:`;
    const task: FakeTask = { upid, options, status: "running", log: [] };
    this.tasks.push(task);
    this.pending.push(task);
    return upid;
  }

  /** Runs the work of every started task (in start order). */
  async runTasks(): Promise<void> {
    while (this.pending.length > 0) {
      const task = this.pending.shift() as FakeTask;
      const injected = this.injectedFailures.get(task.options.type);
      if (injected !== undefined) {
        this.injectedFailures.delete(task.options.type);
        const handle = { upid: task.upid, log: (l: string) => task.log.push(l), warn: (l: string) => task.log.push(l) };
        await task.options.onFailure?.(handle, injected);
        task.exitstatus = injected;
        task.status = "stopped";
        continue;
      }
      try {
        await task.options.work({
          upid: task.upid,
          log: (l) => task.log.push(l),
          warn: (l) => task.log.push(`WARN: ${l}`),
        });
        task.exitstatus = task.log.some((l) => l.startsWith("WARN")) ? "WARNINGS: 1" : "OK";
      } catch (err) {
        task.exitstatus = err instanceof Error ? err.message : String(err);
      }
      task.status = "stopped";
    }
  }

  task(upid: unknown): FakeTask {
    const t = this.tasks.find((x) => x.upid === upid);
    if (!t) throw new Error(`no task ${String(upid)}`);
    return t;
  }

  lastTask(): FakeTask {
    const t = this.tasks[this.tasks.length - 1];
    if (!t) throw new Error("no task started");
    return t;
  }

  /** Calls and expects a task that ends OK; returns the UPID. */
  async ok(method: HttpMethod, path: string, raw: Record<string, string | number> = {}): Promise<string> {
    const upid = await this.call(method, path, raw);
    const t = this.task(upid);
    if (t.exitstatus !== "OK") throw new Error(`task ${t.options.type} ended with '${t.exitstatus}'`);
    return t.upid;
  }

  async config(vmid: number, node = "pve1", type = "qemu"): Promise<Record<string, string | number>> {
    return (await this.call("GET", `/nodes/${node}/${type}/${vmid}/config`)) as Record<string, string | number>;
  }

  async createVm(vmid: number, extra: Record<string, string | number> = {}, node = "pve1"): Promise<void> {
    await this.ok("POST", `/nodes/${node}/qemu`, { vmid, name: `vm${vmid}`, memory: 2048, cores: 2, ...extra });
  }
}

/** Expects a PveApiError with this status and message (and optional per-parameter errors). */
export async function rejects(promise: Promise<unknown>, status: number, message: string, errors?: Record<string, string>): Promise<void> {
  try {
    await promise;
  } catch (err) {
    if (!(err instanceof PveApiError)) throw err;
    if (err.status !== status || err.message !== message) {
      throw new Error(`expected ${status} '${message}', got ${err.status} '${err.message}' ${JSON.stringify(err.errors)}`);
    }
    if (errors) {
      for (const [k, v] of Object.entries(errors)) {
        if (err.errors?.[k] !== v) throw new Error(`expected errors.${k} = '${v}', got ${JSON.stringify(err.errors)}`);
      }
    }
    return;
  }
  throw new Error(`expected ${status} '${message}', but the call succeeded`);
}
