// One HTTP exchange on a pool's connection, its answer read whole as text: no retries, no
// parsing, no idea of PVE or NetBox. Throws the low-level error when no response arrived
// (RequestTimeout, ConnectTimeout, TlsRejection, or Node's ECONNREFUSED ...; errorCode() finds
// the code wherever it sits).
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { ConnectionPool } from "./pool.js";

/** An attempt ended by its own timeout: the server did not answer (or stopped answering) in time. */
export class RequestTimeout extends Error {
  readonly code = "TIMEOUT";
  constructor(readonly timeoutMs: number) {
    super(`request timed out after ${timeoutMs} ms`);
    this.name = "RequestTimeout";
  }
}

export interface HttpRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Longest wait for the server: for the headers, then between pieces of the body. */
  timeoutMs: number;
  /** Ends the exchange with the signal's reason (task waits). */
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** The reason phrase (older PVE puts its error message only there). */
  statusText: string;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * `request` on one of `pool`'s connections. The timeout is the socket's own idle timer: no
 * extra timer or AbortController per request.
 */
export function exchange(pool: ConnectionPool, request: HttpRequest): Promise<HttpResponse> {
  const { signal } = request;
  return pool.run(
    () =>
      new Promise<HttpResponse>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        let settled = false;
        const settle = (err: unknown, response?: HttpResponse): void => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener("abort", onAbort);
          if (response) resolve(response);
          else reject(err);
        };
        const headers: Record<string, string | number> = { ...request.headers };
        if (request.body !== undefined) headers["content-length"] = Buffer.byteLength(request.body);
        const req = pool.request(request.url, { method: request.method, headers });
        const fail = (err: unknown): void => {
          settle(err);
          req.destroy();
        };
        const onAbort = (): void => fail(signal?.reason);
        signal?.addEventListener("abort", onAbort, { once: true });
        req.setTimeout(request.timeoutMs, () => fail(new RequestTimeout(request.timeoutMs)));
        req.on("error", fail);
        req.on("response", (res: IncomingMessage) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            text += chunk;
          });
          res.on("error", fail);
          res.on("end", () =>
            settle(undefined, { status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", headers: res.headers, text }),
          );
        });
        req.end(request.body);
      }),
  );
}

/** The low-level code of a failed exchange, wherever Node put it (AggregateError from happy eyeballs, cause). */
export function errorCode(err: unknown): string | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const e = err as { code?: unknown; errors?: unknown[]; cause?: unknown };
  if (typeof e.code === "string") return e.code;
  if (Array.isArray(e.errors) && e.errors.length > 0) return errorCode(e.errors[0]);
  if (e.cause) return errorCode(e.cause);
  return undefined;
}
