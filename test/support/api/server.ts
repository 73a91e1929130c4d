// A small PVE-shaped HTTP(S) server for client tests: listens on 127.0.0.1 port 0, records
// every request (path, query, form body, headers) and answers what the test's handler says.
import { createServer as createHttp, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttps } from "node:https";
import type { AddressInfo } from "node:net";

export interface Seen {
  method: string;
  /** Path below /api2/json, decoded. */
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export interface Reply {
  status?: number;
  /** HTTP reason phrase; PVE puts its error message here. */
  statusText?: string;
  /** JSON body; `{ data }` is added by `ok()`. Omit for no body (PVE's 401). */
  body?: unknown;
  delayMs?: number;
  /** Drop the connection without answering (a reset). */
  destroy?: boolean;
}

export type Handler = (req: Seen) => Reply | Promise<Reply>;

export interface TestServer {
  port: number;
  host: string;
  seen: Seen[];
  close(): Promise<void>;
}

export const ok = (data: unknown, extra: Record<string, unknown> = {}): Reply => ({ body: { data, ...extra } });

/** PVE's error envelope: message in the reason phrase and (PVE >= 8.3) in the body. */
export const pveError = (status: number, message: string, errors?: Record<string, string>): Reply => ({
  status,
  statusText: message,
  body: { data: null, message: `${message}\n`, ...(errors ? { errors } : {}) },
});

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startServer(handler: Handler, tls?: { key: string; cert: string }): Promise<TestServer> {
  const seen: Seen[] = [];
  const listener = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x");
    const body = await readBody(req);
    const record: Seen = {
      method: req.method ?? "",
      path: decodeURIComponent(url.pathname.replace(/^\/api2\/json/, "")),
      query: url.searchParams,
      form: new URLSearchParams(body),
      headers: req.headers,
    };
    seen.push(record);
    const reply = await handler(record);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (reply.destroy) {
      req.socket.destroy();
      return;
    }
    const payload = reply.body === undefined ? "" : JSON.stringify(reply.body);
    res.writeHead(reply.status ?? 200, reply.statusText ?? "OK", {
      "content-type": "application/json;charset=UTF-8",
      server: "pve-api-daemon/3.0",
      "content-length": Buffer.byteLength(payload),
    });
    res.end(payload);
  };
  const server = tls ? createHttps({ key: tls.key, cert: tls.cert }, listener) : createHttp(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    host: "127.0.0.1",
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on which nothing listens (bound, then released). */
export async function closedPort(): Promise<number> {
  const probe = createHttp();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
