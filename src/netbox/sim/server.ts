// The NetBox simulator's HTTP front: routing under /api/, auth, JSON bodies, list/detail
// handlers, bulk writes, available-ips, ETag/If-Match (4.6+), fault injection and a request log.
import type { IncomingMessage, ServerResponse } from "node:http";
import { checkAuth, type TokenSet } from "./auth.js";
import { allocateAvailableIps, listAvailableIps } from "./available-ips.js";
import { HttpError, notFound } from "./errors.js";
import type { EventBus } from "./events.js";
import { bulk, bulkItemId, createRow, deleteRow, updateRow } from "./ops.js";
import { filterRows, paginate } from "./query.js";
import type { ResourceDef, SimContext } from "./resource.js";
import { serializeBrief, serializeFull } from "./serialize.js";
import { schemaReply } from "./schema.js";
import type { Row } from "./store.js";
import { UNMODELLED_COLLECTIONS, unmodelledReply } from "./unmodelled.js";

export interface FaultRule {
  /** HTTP method to match (any when omitted). */
  method?: string;
  /** Matches the request path (with query), e.g. "/api/dcim/mac-addresses/". */
  path: string | RegExp;
  status: number;
  body?: unknown;
  /** How many matching requests fail (default 1). */
  times?: number;
  /** Let this many matching requests through first (e.g. fail only the second PATCH). */
  skip?: number;
}

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

export interface ServerState {
  ctx: SimContext;
  /** Changes a request made go to webhooks only when it succeeded. */
  events?: EventBus;
  tokens: TokenSet;
  faults: FaultRule[];
  log: LoggedRequest[];
  /** Every resource served, for the OpenAPI document at /api/schema/. */
  resources?: readonly ResourceDef[];
}

const MAX_LOG = 100_000;

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** The body is already text in its own Content-Type (the schema), not an object to send as JSON. */
  text?: true;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new HttpError(400, { detail: `JSON parse error - ${(err as Error).message}` });
  }
}

/**
 * NetBox 4.6's weak ETag: `last_updated` as Python's isoformat() prints it (`+00:00`, no
 * fraction when it is zero), not as the API serializes it (`Z`). Clients must treat it as opaque.
 */
function etagOf(row: Row): string {
  return `W/"${row.last_updated.replace(/\.0+Z$/, "Z").replace(/Z$/, "+00:00")}"`;
}

function takeFault(state: ServerState, method: string, path: string): FaultRule | undefined {
  const rule = state.faults.find(
    (f) => (!f.method || f.method.toUpperCase() === method) && (typeof f.path === "string" ? path.startsWith(f.path) : f.path.test(path)),
  );
  if (!rule) return undefined;
  if ((rule.skip ?? 0) > 0) {
    rule.skip = (rule.skip ?? 0) - 1;
    return undefined;
  }
  rule.times = (rule.times ?? 1) - 1;
  if (rule.times <= 0) state.faults.splice(state.faults.indexOf(rule), 1);
  return rule;
}

function render(ctx: SimContext, def: ResourceDef, row: Row, params: URLSearchParams): Record<string, unknown> {
  const brief = ["1", "true", "True"].includes(params.get("brief") ?? "");
  const out = brief ? serializeBrief(ctx, def, row) : serializeFull(ctx, def, row);
  const fields = params.get("fields");
  if (!fields) return out;
  const wanted = new Set(fields.split(",").map((f) => f.trim()));
  return Object.fromEntries(Object.entries(out).filter(([k]) => wanted.has(k)));
}

function optionsFor(def: ResourceDef): Record<string, unknown> {
  const post: Record<string, unknown> = {};
  for (const f of def.fields) {
    if (f.kind === "computed") continue;
    const entry: Record<string, unknown> = {
      type: f.kind === "choice" ? "choice" : "field",
      required: f.required === true,
      read_only: f.readOnly === true,
    };
    if (f.kind === "choice") entry.choices = f.values.map((v) => ({ value: v, display: v.charAt(0).toUpperCase() + v.slice(1) }));
    post[f.name] = entry;
  }
  return { name: def.path, renders: ["application/json"], parses: ["application/json"], actions: { POST: post } };
}

/** If-Match as NetBox checks it: `*` or absent passes, else one of the listed ETags must be current; a 412 names the current one. */
function ifMatch(state: ServerState, req: IncomingMessage, row: Row): void {
  const header = req.headers["if-match"];
  if (state.ctx.version.n < 406 || !header || header === "*") return;
  const current = etagOf(row);
  if (
    !header
      .split(",")
      .map((e) => e.trim())
      .includes(current)
  )
    throw new HttpError(412, { detail: "Precondition failed." }, { ETag: current });
}

async function handleList(state: ServerState, def: ResourceDef, method: string, url: URL, req: IncomingMessage): Promise<Reply> {
  const { ctx } = state;
  const params = url.searchParams;
  switch (method) {
    case "GET": {
      const rows = filterRows(ctx, def, ctx.store.rows(def.path), params);
      const page = paginate(rows, params, url, ctx.version.n >= 406);
      return {
        status: 200,
        body: { count: page.count, next: page.next, previous: page.previous, results: page.rows.map((r) => render(ctx, def, r, params)) },
      };
    }
    case "OPTIONS":
      return { status: 200, body: optionsFor(def) };
    case "POST": {
      const body = await readBody(req);
      if (Array.isArray(body)) return { status: 201, body: bulk(ctx, body, (item) => render(ctx, def, createRow(ctx, def, item), params)) };
      const created = createRow(ctx, def, body);
      return { status: 201, body: render(ctx, def, created, params), headers: ctx.version.n >= 406 ? { ETag: etagOf(created) } : {} };
    }
    case "PUT":
    case "PATCH": {
      const body = await readBody(req);
      const rows = bulk(ctx, body, (item) => updateRow(ctx, def, bulkItemId(item), item, method === "PATCH"));
      return { status: 200, body: rows.map((r) => render(ctx, def, r, params)) };
    }
    case "DELETE": {
      const body = await readBody(req);
      bulk(ctx, body, (item) => deleteRow(ctx, def, bulkItemId(item)));
      return { status: 204 };
    }
    default:
      throw new HttpError(405, { detail: `Method "${method}" not allowed.` });
  }
}

async function handleDetail(
  state: ServerState,
  def: ResourceDef,
  id: number,
  method: string,
  url: URL,
  req: IncomingMessage,
): Promise<Reply> {
  const { ctx } = state;
  const params = url.searchParams;
  const row = ctx.store.get(def.path, id);
  if (!row) throw notFound();
  const withEtag = (r: Row): Record<string, string> => (ctx.version.n >= 406 ? { ETag: etagOf(r) } : {});
  switch (method) {
    case "GET":
      return { status: 200, body: render(ctx, def, row, params), headers: withEtag(row) };
    case "PUT":
    case "PATCH": {
      const body = await readBody(req);
      ifMatch(state, req, row);
      const updated = updateRow(ctx, def, id, body, method === "PATCH");
      return { status: 200, body: render(ctx, def, updated, params), headers: withEtag(updated) };
    }
    case "DELETE":
      ifMatch(state, req, row);
      deleteRow(ctx, def, id);
      return { status: 204 };
    default:
      throw new HttpError(405, { detail: `Method "${method}" not allowed.` });
  }
}

function apiRoot(state: ServerState): Record<string, string> {
  const apps = ["circuits", "core", "dcim", "extras", "ipam", "plugins", "status", "tenancy", "users", "virtualization", "vpn", "wireless"];
  return Object.fromEntries(apps.map((a) => [a, `${state.ctx.baseUrl}/api/${a}/`]));
}

function status(state: ServerState): Record<string, unknown> {
  return {
    "django-version": "5.1.5",
    "installed-apps": {},
    "netbox-version": state.ctx.version.full,
    "netbox-full-version": state.ctx.version.full,
    plugins: {},
    "python-version": "3.12.3",
    "rq-workers-running": 1,
  };
}

async function route(state: ServerState, req: IncomingMessage, url: URL): Promise<Reply> {
  const method = (req.method ?? "GET").toUpperCase();
  const parts = url.pathname.split("/").filter(Boolean);
  if (parts[0] !== "api") throw notFound();
  checkAuth(req.headers.authorization, method, state.tokens, state.ctx.version);
  const rest = parts.slice(1);
  if (rest.length === 0) return { status: 200, body: apiRoot(state) };
  if (rest.length === 1 && rest[0] === "status") return { status: 200, body: status(state) };
  if (rest.length === 1 && rest[0] === "schema") {
    const schema = schemaReply(state.resources ?? [], state.ctx.version, url.searchParams);
    return { status: 200, body: schema.body, headers: { "Content-Type": schema.contentType }, text: true };
  }
  if (rest.length === 1 && rest[0] === "authentication-check" && state.ctx.version.n >= 405)
    return { status: 200, body: { id: 1, username: "pvectl", display: "pvectl" } };
  const [app, resource, idText, action] = rest;
  const def = app && resource ? tryDef(state.ctx, `${app}/${resource}`) : undefined;
  if (!def && UNMODELLED_COLLECTIONS.has(`${app}/${resource}`) && action === undefined)
    return unmodelledReply(`${app}/${resource}`, method, idText === undefined);
  if (!def) throw notFound();
  if (idText === undefined) return handleList(state, def, method, url, req);
  if (!/^\d+$/.test(idText)) throw notFound();
  const id = Number(idText);
  if (action === undefined) return handleDetail(state, def, id, method, url, req);
  if (def.path === "ipam/prefixes" && action === "available-ips" && rest.length === 4) {
    if (method === "GET") return { status: 200, body: listAvailableIps(state.ctx, id, url.searchParams) };
    if (method === "POST") {
      const body = await readBody(req);
      const { many, rows } = allocateAvailableIps(state.ctx, id, body);
      const ipDef = state.ctx.def("ipam/ip-addresses");
      const out = rows.map((r) => serializeFull(state.ctx, ipDef, r));
      return { status: 201, body: many ? out : out[0] };
    }
    throw new HttpError(405, { detail: `Method "${method}" not allowed.` });
  }
  throw notFound();
}

function tryDef(ctx: SimContext, path: string): ResourceDef | undefined {
  try {
    return ctx.def(path);
  } catch {
    return undefined;
  }
}

export function createHandler(state: ServerState): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? "/", state.ctx.baseUrl);
    const method = (req.method ?? "GET").toUpperCase();
    const pathWithQuery = url.pathname + url.search;
    const finish = (reply: Reply) => {
      state.log.push({ method, path: pathWithQuery, status: reply.status });
      // A long-running `pvectl netbox sim` keeps only the recent requests.
      if (state.log.length > MAX_LOG) state.log.splice(0, state.log.length - MAX_LOG);
      const headers: Record<string, string> = { "API-Version": state.ctx.version.full.split(".").slice(0, 2).join("."), ...reply.headers };
      const hasBody = reply.body !== undefined && reply.status !== 204;
      if (hasBody) headers["Content-Type"] ??= "application/json";
      res.writeHead(reply.status, headers);
      res.end(hasBody ? (reply.text ? String(reply.body) : JSON.stringify(reply.body)) : undefined);
    };
    const fault = takeFault(state, method, pathWithQuery);
    if (fault) {
      // Drain the body so the client sees the injected answer, not a reset connection.
      req.resume();
      req.on("end", () => finish({ status: fault.status, body: fault.body ?? { detail: "Injected fault." } }));
      return;
    }
    // Single writes validate fully before touching the store, and bulk writes restore their
    // own snapshot on failure (ops.ts), so no copy of the store is needed here.
    route(state, req, url).then(
      (reply) => {
        finish(reply);
        state.events?.flush();
      },
      (err: unknown) => {
        state.events?.discard();
        if (err instanceof HttpError) finish({ status: err.status, body: err.body, headers: err.headers });
        else finish({ status: 500, body: { error: String(err), exception: "Server Error", netbox_version: state.ctx.version.full } });
      },
    );
  };
}
