// The NetBox simulator: enough of NetBox's REST API (4.2 schema, version-gated 4.5/4.6
// behaviour) for pvectl's NetBox integration and for other clients such as pynetbox.
//   const nb = await startNetboxSimulator({ seed: "demo" });
//   ... nb.url, nb.token (v1), nb.v2Token ... nb.admin.create("virtualization/virtual-machines", {...})
//   await nb.close();
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { HttpError } from "./errors.js";
import { type Delivery, EventBus } from "./events.js";
import { createRow, deleteRow, updateRow } from "./ops.js";
import { filterRows } from "./query.js";
import { buildRegistry, parseVersion } from "./registry.js";
import type { ResourceDef, SimContext } from "./resource.js";
import { seedDemo } from "./seed.js";
import { serializeBrief, serializeFull } from "./serialize.js";
import { createHandler, type FaultRule, type LoggedRequest, type ServerState } from "./server.js";
import { Store } from "./store.js";

export type { Delivery } from "./events.js";
export { seedDemo } from "./seed.js";
export type { FaultRule, LoggedRequest } from "./server.js";

export interface NetboxSimulatorOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Address to bind; default 127.0.0.1. */
  host?: string;
  /** NetBox version to behave like (feature gates: MAC objects 4.2, v2 tokens 4.5, ETag 4.6). Default "4.6.8". */
  version?: string;
  /** Accepted write-enabled tokens: v1 keys (40 hex) or v2 `nbt_<key>.<token>`. One v1 and one v2 token are generated when omitted. */
  tokens?: string[];
  /** Accepted tokens without write permission. */
  readOnlyTokens?: string[];
  /** Initial data: "demo" (a site, a Proxmox cluster, platforms, custom fields, a prefix, VLANs and planned VMs) or a function. */
  seed?: "demo" | "empty" | ((admin: NetboxSimAdmin) => void);
}

/** Direct access to the simulator's data, bypassing HTTP and auth but not NetBox's validation. */
export interface NetboxSimAdmin {
  create(path: string, body: Record<string, unknown>): Record<string, unknown>;
  update(path: string, id: number, patch: Record<string, unknown>): Record<string, unknown>;
  get(path: string, id: number): Record<string, unknown> | undefined;
  list(path: string, filters?: Record<string, string | string[]>): Record<string, unknown>[];
  /** The id of the single object matching the filters; throws when there is not exactly one. */
  idOf(path: string, filters: Record<string, string | string[]>): number;
  remove(path: string, id: number): void;
  /** Makes the next matching request(s) fail with the given status and body. */
  failNext(rule: FaultRule): void;
  /** Every request served so far (method, path with query, status). */
  readonly requests: LoggedRequest[];
  clearRequests(): void;
  /** Webhooks sent by event rules (url, event, object, answer status or error). */
  readonly webhookDeliveries: Delivery[];
  /** Resolves when every webhook sent so far has been answered or failed. */
  webhooksIdle(): Promise<void>;
}

export interface NetboxSimulator {
  url: string;
  /** A write-enabled v1 token key (send as `Authorization: Token <key>`). */
  token: string;
  /** A write-enabled v2 token (send as `Authorization: Bearer <token>`; NetBox >= 4.5). */
  v2Token: string;
  version: string;
  admin: NetboxSimAdmin;
  close(): Promise<void>;
}

function unwrap<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof HttpError) throw new Error(`NetBox simulator refused the write (${err.status}): ${JSON.stringify(err.body)}`);
    throw err;
  }
}

/** An admin write is a request of its own: its changes reach event rules when it succeeded. */
function asRequest<T>(events: EventBus, fn: () => T): T {
  try {
    const out = unwrap(fn);
    events.flush();
    return out;
  } catch (err) {
    events.discard();
    throw err;
  }
}

function makeAdmin(ctx: SimContext, state: ServerState, events: EventBus): NetboxSimAdmin {
  const params = (filters?: Record<string, string | string[]>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(filters ?? {})) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
    return p;
  };
  const admin: NetboxSimAdmin = {
    create: (path, body) => asRequest(events, () => serializeFull(ctx, ctx.def(path), createRow(ctx, ctx.def(path), body))),
    update: (path, id, patch) => asRequest(events, () => serializeFull(ctx, ctx.def(path), updateRow(ctx, ctx.def(path), id, patch, true))),
    get: (path, id) => {
      const row = ctx.store.get(ctx.def(path).path, id);
      return row ? serializeFull(ctx, ctx.def(path), row) : undefined;
    },
    list: (path, filters) => {
      const def = ctx.def(path);
      return unwrap(() => filterRows(ctx, def, ctx.store.rows(def.path), params(filters)).map((r) => serializeFull(ctx, def, r)));
    },
    idOf: (path, filters) => {
      const found = admin.list(path, filters);
      if (found.length !== 1) throw new Error(`expected one ${path} matching ${JSON.stringify(filters)}, found ${found.length}`);
      return Number(found[0]?.id);
    },
    remove: (path, id) => asRequest(events, () => deleteRow(ctx, ctx.def(path), id)),
    failNext: (rule) => {
      state.faults.push({ ...rule });
    },
    get requests() {
      return state.log;
    },
    clearRequests: () => {
      state.log.length = 0;
    },
    webhookDeliveries: events.deliveries,
    webhooksIdle: () => events.idle(),
  };
  return admin;
}

export async function startNetboxSimulator(options: NetboxSimulatorOptions = {}): Promise<NetboxSimulator> {
  const version = parseVersion(options.version ?? "4.6.8");
  const registry = buildRegistry(version);
  const store = new Store();
  const ctx: SimContext = {
    store,
    baseUrl: "http://127.0.0.1",
    version,
    def(path: string): ResourceDef {
      const def = registry.get(path);
      if (!def) throw new Error(`the NetBox simulator has no resource ${path}`);
      return def;
    },
    brief(path, id) {
      if (id === null || id === undefined) return null;
      const def = ctx.def(path);
      const row = store.get(def.path, id);
      return row ? serializeBrief(ctx, def, row) : null;
    },
    full: (def, row) => serializeFull(ctx, def, row),
    remove: (path, id) => deleteRow(ctx, ctx.def(path), id),
  };
  const events = new EventBus(ctx);
  ctx.changed = (def, kind, row, before) => events.record(def, kind, row, before);
  const v1 = randomBytes(20).toString("hex");
  const v2 = `nbt_${randomBytes(6).toString("hex")}.${randomBytes(20).toString("hex")}`;
  const writable = options.tokens ?? [v1, v2];
  const state: ServerState = {
    ctx,
    tokens: { writable: new Set(writable), readOnly: new Set(options.readOnlyTokens ?? []) },
    faults: [],
    log: [],
    events,
    resources: [...registry.values()],
  };
  const admin = makeAdmin(ctx, state, events);
  const seed = options.seed ?? "empty";
  if (seed === "demo") seedDemo(admin);
  else if (typeof seed === "function") seed(admin);

  const server = createServer(createHandler(state));
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  ctx.baseUrl = url;
  return {
    url,
    token: writable.find((t) => !t.startsWith("nbt_")) ?? v1,
    v2Token: writable.find((t) => t.startsWith("nbt_")) ?? v2,
    version: version.full,
    admin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
