// The connections of one client (the PVE client and the NetBox client each own one pool per
// origin): node:https (node:http for a plain-HTTP origin) with a keep-alive Agent. Built on
// Node's own modules rather than an HTTP library because every `ansible-inventory` run starts a
// fresh process, and loading one (undici: about a hundred modules) cost more than the
// inventory's two API calls.
//
// A connection is handed to a request only once it is ready: TCP connected and, for HTTPS, the
// server's certificate accepted by the TLS policy (tls.ts). The Agent's own TLS connect is not
// used: it would write the request as soon as the socket exists, and it resumes TLS sessions,
// which skips the certificate exchange the pin check needs.
import { Agent as HttpAgent, type ClientRequest, request as httpRequest, type RequestOptions } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { connect as netConnect, isIP, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { connect as tlsConnect, type TLSSocket } from "node:tls";
import type { TlsPolicy } from "./tls.js";

/**
 * Idle connections are dropped after 4 s, below pveproxy's keep-alive, whatever the server
 * advertises: that makes it unlikely that a request goes out on a socket the server is closing
 * (writes are not retried).
 */
export const IDLE_TIMEOUT_MS = 4_000;

/** The connection (and TLS handshake) did not complete in time. */
export class ConnectTimeout extends Error {
  readonly code = "CONNECT_TIMEOUT";
  constructor(readonly timeoutMs: number) {
    super(`connect timed out after ${timeoutMs} ms`);
    this.name = "ConnectTimeout";
  }
}

/** A request on a pool that was closed (its client was closed while the request waited). */
export class PoolClosed extends Error {
  readonly code = "POOL_CLOSED";
  constructor() {
    super("the connection pool was closed");
    this.name = "PoolClosed";
  }
}

export interface PoolTarget {
  protocol: "https" | "http";
  host: string;
  port: number;
  /** Parallel connections at most. */
  connections: number;
  /** Limit of TCP connect plus TLS handshake. */
  connectTimeoutMs: number;
  /** Which certificates are acceptable; required for HTTPS (see tls.ts). */
  tls?: TlsPolicy;
}

type ConnectCallback = (err: Error | null, stream: Duplex) => void;

/** A ready connection, or the reason there is none; `callback` is called exactly once. */
function openConnection(target: PoolTarget, callback: ConnectCallback): void {
  const https = target.protocol === "https";
  const policy = target.tls;
  if (https && !policy) throw new Error("an HTTPS pool needs a TLS policy");
  const socket: Socket = https
    ? tlsConnect({
        host: target.host,
        port: target.port,
        // SNI takes names only (Node warns about an address).
        ...(isIP(target.host) ? {} : { servername: target.host }),
        // Verification is decided by the policy, where the certificate and the reason are both at hand.
        rejectUnauthorized: false,
        // No `session`: every connection shows its certificate.
        ...(policy?.ca !== undefined ? { ca: policy.ca } : {}),
      })
    : netConnect({ host: target.host, port: target.port });
  let done = false;
  const finish = (err: Error | null): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    socket.off("error", finish);
    if (err) {
      // Whatever the socket reports while it is torn down is already decided.
      socket.on("error", () => {});
      socket.destroy();
      callback(err, socket);
    } else callback(null, socket);
  };
  const timer = setTimeout(() => finish(new ConnectTimeout(target.connectTimeoutMs)), target.connectTimeoutMs);
  socket.once("error", finish);
  if (https) socket.once("secureConnect", () => finish(policy?.check(socket as TLSSocket) ?? null));
  else socket.once("connect", () => finish(null));
}

/** Node's Agent, opening its connections with openConnection. */
function agentFor(target: PoolTarget): HttpAgent {
  // No maxSockets: the Agent counts a connection only once it is open, and these open later
  // (after the certificate check), so it would not hold the limit; ConnectionPool does.
  const options = { keepAlive: true, timeout: IDLE_TIMEOUT_MS };
  const agent = target.protocol === "https" ? new HttpsAgent({ ...options, maxCachedSessions: 0 }) : new HttpAgent(options);
  // Returning nothing makes the Agent wait for the callback (Node's documented async form).
  agent.createConnection = ((_options: unknown, callback: ConnectCallback) => {
    openConnection(target, callback);
    return undefined;
  }) as unknown as HttpAgent["createConnection"];
  return agent;
}

export class ConnectionPool {
  readonly #agent: HttpAgent;
  readonly #request: typeof httpRequest;
  readonly #limit: number;
  /** Exchanges running or waiting for a turn (close() waits for them). */
  readonly #inFlight = new Set<Promise<unknown>>();
  /** Exchanges waiting for one of the `#limit` turns, oldest first. */
  readonly #waiting: Array<() => void> = [];
  #running = 0;
  #closed = false;

  constructor(target: PoolTarget) {
    this.#agent = agentFor(target);
    this.#request = target.protocol === "https" ? httpsRequest : httpRequest;
    this.#limit = target.connections;
  }

  /**
   * Runs `exchange` when fewer than `connections` others run (one exchange uses one
   * connection at a time, so this bounds the connections); rejects with PoolClosed after close().
   */
  run<T>(exchange: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new PoolClosed());
    const done = this.#turn().then(async () => {
      try {
        return await exchange();
      } finally {
        this.#running -= 1;
        this.#waiting.shift()?.();
      }
    });
    this.#inFlight.add(done);
    const forget = () => this.#inFlight.delete(done);
    done.then(forget, forget);
    return done;
  }

  /** A request on one of the pool's connections; only inside run(). */
  request(url: string, options: Omit<RequestOptions, "agent">): ClientRequest {
    return this.#request(url, { ...options, agent: this.#agent });
  }

  /** Refuses new exchanges, waits for those in flight, then closes every connection. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
    this.#agent.destroy();
  }

  #turn(): Promise<void> {
    if (this.#running < this.#limit) {
      this.#running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.#waiting.push(() => {
        this.#running += 1;
        resolve();
      }),
    );
  }
}
