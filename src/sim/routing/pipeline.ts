// One API request from parsed HTTP to response, in PVE's order: find the endpoint (501 when
// unknown), authenticate (401), forward to the node (500/595 for unknown/offline nodes),
// check the schema's permissions (403), validate parameters (400), run the handler (its
// PveApiError, or 500 with the error's text).
import type { IncomingHttpHeaders } from "node:http";
import { validateParams, type RawParam } from "../../pve/validate.js";
import { matchEndpoint } from "../../schema/index.js";
import type { EndpointSchema, HttpMethod } from "../../schema/types.js";
import { type AuthIdentity, type ClusterModel, type HandlerContext, PveApiError, PveResult } from "../contract.js";
import { authenticate, authId } from "../access/authenticate.js";
import { missingFrom } from "../access/evaluate.js";
import { permissionError } from "../access/schema-check.js";
import type { AccessControl } from "../access/service.js";
import type { SimClock } from "../clock.js";
import { type ApiResponse, errorResponse, ok, unauthorized } from "../http/response.js";
import type { RawParams, RawValue } from "../http/request.js";
import type { SeededRandom } from "../random.js";
import type { TaskRunner } from "../tasks/manager.js";
import { directoryIndex, ROOT_INDEX } from "./directory-index.js";
import type { SimRouter } from "./router.js";

const METHODS = new Set(["GET", "POST", "PUT", "DELETE"]);

export interface ApiRequest {
  method: string;
  /** Path below /api2/json, without query string. */
  path: string;
  headers: IncomingHttpHeaders;
  params: RawParams;
  /** A body was sent (refused on GET/DELETE). */
  hasBody: boolean;
}

export interface ApiOutcome {
  response: ApiResponse;
  /** Schema template of the endpoint, when found. */
  template?: string;
  user?: string;
  /** Schedules the work of tasks started by the request; call after the response is written. */
  releaseTasks: () => void;
}

export interface PipelineDeps {
  router: SimRouter;
  access: AccessControl;
  tasks: TaskRunner;
  clock: SimClock;
  random: SeededRandom;
  cluster: () => ClusterModel;
}

function notImplemented(method: string, path: string): ApiResponse {
  return errorResponse(501, `Method '${method} ${path}' not implemented`);
}

function toRaw(value: RawValue): RawParam {
  if (value === null) return "";
  if (Array.isArray(value)) return value.map((v) => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)));
  if (typeof value === "object") return JSON.stringify(value);
  return value;
}

export function errorToResponse(err: unknown): ApiResponse {
  if (err instanceof PveApiError) {
    if (err.errors && Object.keys(err.errors).length > 0) return errorResponse(err.status, err.message, err.errors);
    return errorResponse(err.status, err.message);
  }
  const message = err instanceof Error ? err.message : String(err);
  return errorResponse(500, message);
}

/**
 * The tasks a request starts, scheduled once its response is written. A task started later, by
 * the work of one of them (an LXC create with start=1 calls the start API from its worker),
 * is scheduled at once: there is no response left to wait for.
 */
interface TaskReleases {
  done: boolean;
  pending: Array<() => void>;
}

export class ApiPipeline {
  constructor(private readonly deps: PipelineDeps) {}

  async handle(req: ApiRequest): Promise<ApiOutcome> {
    const releases: TaskReleases = { done: false, pending: [] };
    const outcome: ApiOutcome = {
      response: errorResponse(500, "internal error"),
      releaseTasks: () => {
        releases.done = true;
        for (const r of releases.pending.splice(0)) r();
      },
    };
    try {
      outcome.response = await this.run(req, outcome, releases);
    } catch (err) {
      outcome.response = errorToResponse(err);
    }
    return outcome;
  }

  private async run(req: ApiRequest, outcome: ApiOutcome, releases: TaskReleases): Promise<ApiResponse> {
    const { access, clock } = this.deps;
    if (!METHODS.has(req.method)) return notImplemented(req.method, req.path);
    const method = req.method as HttpMethod;
    if ((method === "GET" || method === "DELETE") && req.hasBody) {
      return errorResponse(501, `Unexpected content for method '${method}'`);
    }
    if (method === "GET" && (req.path === "/" || req.path === "")) return this.rootIndex(req, outcome);
    const match = matchEndpoint(method, req.path);
    if (!match) return notImplemented(method, req.path);
    const { endpoint, pathParams } = match;
    outcome.template = endpoint.path;

    let auth: AuthIdentity | undefined;
    if (endpoint.permissions?.user !== "world") {
      const result = authenticate(req.headers, method, access.state, access.signer, clock.now());
      if (!result.ok) return unauthorized(result.message);
      auth = result.identity;
      outcome.user = authId(auth);
      if (auth.tokenid && !endpoint.allowtoken) {
        throw permissionError(`URI '${req.path}' not available with API token, need proper ticket.\n`);
      }
    }

    const conflicts: Record<string, string> = {};
    const raw: RawParams = { ...req.params };
    for (const [name, value] of Object.entries(pathParams)) {
      const given = raw[name];
      if (given !== undefined && String(given) !== value) {
        conflicts[name] = "duplicate parameter (already defined in URI) with conflicting values!";
      }
      raw[name] = value;
    }
    if (Object.keys(conflicts).length > 0) throw new PveApiError(400, "Parameter verification failed.", conflicts);

    this.checkNode(endpoint, raw);

    const identity: AuthIdentity = auth ?? { userid: "" };
    if (auth) access.checker.check(endpoint.permissions, auth, raw);

    const rawForValidation: Record<string, RawParam> = {};
    for (const [k, v] of Object.entries(raw)) rawForValidation[k] = toRaw(v);
    const validation = validateParams(endpoint, rawForValidation);
    if (Object.keys(validation.errors).length > 0) {
      throw new PveApiError(400, "Parameter verification failed.", validation.errors);
    }
    const params: Record<string, string | number | undefined> = {};
    for (const [k, v] of Object.entries(validation.values)) params[k] = Array.isArray(v) ? v.join(",") : v;

    const handler = this.deps.router.get(method, endpoint.path);
    if (!handler) {
      const index = directoryIndex(endpoint);
      return index ? ok(index) : notImplemented(method, req.path);
    }
    const ctx = this.context(method, req.path, endpoint, params, identity, releases);
    const result = await handler(ctx);
    if (result instanceof PveResult) return ok(result.data, result.attributes);
    return ok(result);
  }

  private rootIndex(req: ApiRequest, outcome: ApiOutcome): ApiResponse {
    const result = authenticate(req.headers, "GET", this.deps.access.state, this.deps.access.signer, this.deps.clock.now());
    if (!result.ok) return unauthorized(result.message);
    outcome.template = "/";
    outcome.user = authId(result.identity);
    return ok(ROOT_INDEX);
  }

  /** pveproxy forwards `proxyto` requests to the named node: unknown names fail DNS, offline nodes 595. */
  private checkNode(endpoint: EndpointSchema, raw: RawParams): void {
    const param = endpoint.proxyto;
    if (!param) return;
    const node = raw[param];
    if (typeof node !== "string" || node === "localhost") return;
    const cluster = this.deps.cluster();
    if (!cluster.nodeNames().includes(node)) {
      throw new PveApiError(500, `hostname lookup '${node}' failed - failed to get address info for: ${node}: Name or service not known`);
    }
    if (!cluster.isNodeOnline(node)) throw new PveApiError(595, "No route to host");
  }

  private context(
    method: HttpMethod,
    path: string,
    endpoint: EndpointSchema,
    params: Record<string, string | number | undefined>,
    auth: AuthIdentity,
    releases: TaskReleases,
  ): HandlerContext {
    const { access, tasks, clock, random } = this.deps;
    const cluster = this.deps.cluster();
    const privilegesOn = access.evaluator.forRequest(auth);
    return {
      method,
      path,
      endpoint,
      params,
      auth,
      hasPermission: (p, privs, any) => missingFrom(privilegesOn(p), privs, any) === undefined,
      checkPermission: (p, privs, any) => {
        const missing = missingFrom(privilegesOn(p), privs, any);
        if (missing !== undefined) throw permissionError(`${p}, ${missing}`);
      },
      tasks: {
        start: (options) => {
          const { record, release } = tasks.create(options, options.user ?? authId(auth));
          if (releases.done) release();
          else releases.pending.push(release);
          return record.upid;
        },
      },
      random,
      now: () => clock.now(),
      cluster,
    };
  }
}
