// The HTTP(S) transport: /api2/json/... goes through the API pipeline (after request faults
// and latency), /_sim/... to the admin API (behind its token); every API request lands in the
// access log.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { answerFate } from "../faults/rules.js";
import { errorToResponse } from "../routing/pipeline.js";
import type { Simulator } from "../simulator.js";
import type { TlsMaterial } from "../tls.js";
import type { StateFilePolicy } from "../admin-state-path.js";
import { refuseAdminRequest } from "./admin-guard.js";
import { type AdminInfo, adminFailure, handleAdmin } from "./admin-http.js";
import { mergeParams, parseBody, parseQuery, type RawParams, readBody } from "./request.js";
import { type ApiResponse, errorResponse, writeResponse } from "./response.js";

const API_PREFIX = "/api2/json";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ServerOptions {
  tls?: TlsMaterial;
  latencyMs: number;
  authFailureDelayMs: number;
  info: AdminInfo;
  /** Required by every /_sim request (see admin-guard.ts). */
  adminToken: string;
  /** Where POST /_sim/state/save may write. */
  statePolicy: StateFilePolicy;
}

export class SimHttpServer {
  readonly server: Server;

  constructor(
    private readonly sim: Simulator,
    private readonly options: ServerOptions,
  ) {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      this.dispatch(req, res).catch((err: unknown) => {
        if (!res.headersSent) writeResponse(res, errorToResponse(err));
        else res.destroy();
      });
    };
    this.server = options.tls ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, handler) : createHttpServer(handler);
    this.server.keepAliveTimeout = 30000;
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, host, () => {
        this.server.off("error", reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://sim.invalid");
    const method = (req.method ?? "GET").toUpperCase();
    if (url.pathname.startsWith("/_sim/")) {
      writeResponse(res, await this.admin(req, method, url));
      return;
    }
    if (url.pathname !== API_PREFIX && !url.pathname.startsWith(`${API_PREFIX}/`)) {
      await readBody(req);
      writeResponse(res, errorResponse(501, `Method '${method} ${url.pathname}' not implemented`));
      return;
    }
    await this.api(req, res, method, url);
  }

  private async admin(req: IncomingMessage, method: string, url: URL): Promise<ApiResponse> {
    const body = await readBody(req);
    const refused = refuseAdminRequest(req.headers, method, body.length > 0, this.options.adminToken);
    if (refused) return adminFailure(refused.status, refused.error);
    let parsed: unknown;
    if (body.length > 0) {
      try {
        parsed = JSON.parse(body.toString("utf8"));
      } catch (err) {
        return adminFailure(400, `the body is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
      }
    }
    const context = { admin: this.sim.admin, info: this.options.info, statePolicy: this.options.statePolicy };
    return handleAdmin(context, method, url.pathname, url.searchParams, parsed);
  }

  private async api(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    const started = performance.now();
    const path = url.pathname.slice(API_PREFIX.length) || "/";
    const body = await readBody(req);
    const fault = this.sim.faults.matchRequest(method, path);
    const latency = this.options.latencyMs + (fault?.latencyMs ?? 0);
    if (latency > 0) await sleep(latency);
    if (fault?.drop) {
      this.sim.log.record({ time: Date.now(), method, path, endpoint: path, status: 0, durationMs: performance.now() - started });
      req.socket.destroy();
      return;
    }
    let response: ApiResponse = errorResponse(500, "internal error");
    let template: string | undefined;
    let user: string | undefined;
    let release = () => {};
    if (fault?.status !== undefined) {
      response = errorResponse(fault.status, fault.message ?? "simulated failure");
    } else {
      let params: RawParams | undefined;
      try {
        const bodyParams = method === "POST" || method === "PUT" ? parseBody(body, req.headers["content-type"]) : {};
        params = mergeParams(bodyParams, parseQuery(url.search));
      } catch (err) {
        const e = err as { status?: number; message?: string };
        response = errorResponse(e.status ?? 400, e.message ?? String(err));
      }
      if (params) {
        const outcome = await this.sim.pipeline.handle({ method, path, headers: req.headers, params, hasBody: body.length > 0 });
        response = outcome.response;
        template = outcome.template;
        user = outcome.user;
        release = outcome.releaseTasks;
        if (response.status === 401 && this.options.authFailureDelayMs > 0) await sleep(this.options.authFailureDelayMs);
      }
    }
    const fate = answerFate(fault);
    if (fate.kind === "send" && fate.delayMs === 0) {
      writeResponse(res, response);
      release();
    } else {
      // The request was handled and its tasks run; the answer comes late or never.
      release();
      if (fate.kind === "lose") req.socket.destroy();
      else {
        await sleep(fate.delayMs);
        if (!res.destroyed) writeResponse(res, response);
      }
    }
    this.sim.log.record({
      time: Date.now(),
      method,
      path,
      endpoint: template ?? path,
      status: response.status,
      durationMs: performance.now() - started,
      ...(user ? { user } : {}),
    });
    if (method !== "GET" && response.status === 200) this.sim.markChanged();
  }
}
