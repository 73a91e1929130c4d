// The client's connections (src/util/http/pool.ts, on node:https): a refused certificate means not a
// byte of the request was written, no TLS session is resumed (a resumed one skips the
// certificate the pin check reads), idle connections are reused and then dropped after
// IDLE_TIMEOUT_MS, a connect that does not complete is a connection error with code CONNECT_TIMEOUT, and close()
// lets the exchanges in flight finish.
import assert from "node:assert/strict";
import { createServer as createHttp, type Server } from "node:http";
import { createServer as createHttps } from "node:https";
import { createServer as createTcp, type AddressInfo, type Socket } from "node:net";
import { before, describe, it } from "node:test";
import { connect as tlsConnect, createServer as createTls, type TLSSocket } from "node:tls";
import { PveClient, PveError } from "../../src/api/index.js";
import { IDLE_TIMEOUT_MS } from "../../src/util/http/pool.js";
import { type TestCerts, testCerts } from "./helpers/certs.js";

const token = { tokenId: "automation@pve!ci", tokenSecret: "5f0c6a3e-1d2b-4c8e-9a7f-0b1c2d3e4f50" };
const VERSION = JSON.stringify({ data: { version: "9.1.1" } });

async function listen(server: Server | ReturnType<typeof createTcp>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** The server side of a handshake may end after the client's. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
}

const close = (server: { close(cb: () => void): unknown; closeAllConnections?: () => void }) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });

describe("connection pool", () => {
  let certs: TestCerts;
  before(async () => {
    certs = await testCerts();
  });

  it("writes nothing on a connection whose certificate does not match the pin", async () => {
    // A bare TLS server: it counts every byte the client writes after the handshake.
    let received = 0;
    const server = createTls({ key: certs.server.key, cert: certs.server.cert }, (socket) => {
      socket.on("data", (chunk: Buffer) => {
        received += chunk.length;
      });
      socket.on("error", () => {});
    });
    const port = await listen(server as unknown as Server);
    try {
      const pinned = new PveClient({ host: "127.0.0.1", port, ...token, fingerprint: certs.selfSigned.fingerprint256, readRetries: 0 });
      const err = await pinned.get("/version").catch((e: unknown) => e);
      await pinned.close();
      assert.ok(err instanceof PveError);
      assert.equal(err.code, "PIN_MISMATCH");
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(received, 0, "not one byte of the request reached the server");

      // The counter does see a request when one is sent (verification off, on purpose).
      const open = new PveClient({
        host: "127.0.0.1",
        port,
        ...token,
        validateCerts: false,
        warn: () => {},
        timeoutMs: 300,
        readRetries: 0,
      });
      await open.get("/version").catch(() => {});
      await open.close();
      assert.ok(received > 0);
    } finally {
      await close(server);
    }
  });

  it("never resumes a TLS session: every connection shows its certificate", async () => {
    const resumed: boolean[] = [];
    const server = createHttps({ key: certs.selfSigned.key, cert: certs.selfSigned.cert }, (_req, res) => {
      setTimeout(() => res.end(VERSION), 20);
    });
    server.on("secureConnection", (socket: TLSSocket) => resumed.push(socket.isSessionReused()));
    const port = await listen(server);
    try {
      // The server would resume: a client that offers the session it got is resumed.
      const session = await new Promise<Buffer>((resolve, reject) => {
        const s = tlsConnect({ host: "127.0.0.1", port, rejectUnauthorized: false }, () => s.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        s.once("session", (value: Buffer) => {
          resolve(value);
          s.destroy();
        });
        s.on("error", reject);
      });
      await new Promise<void>((resolve, reject) => {
        const s = tlsConnect({ host: "127.0.0.1", port, rejectUnauthorized: false, session }, () =>
          s.end("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        );
        s.resume();
        s.on("close", () => resolve());
        s.on("error", reject);
      });
      await until(() => resumed.length === 2);
      assert.deepEqual(resumed, [false, true]);
      resumed.length = 0;

      // The client opens three connections (parallel requests), then three more after closing.
      for (let round = 0; round < 2; round++) {
        const client = new PveClient({ host: "127.0.0.1", port, ...token, fingerprint: certs.selfSigned.fingerprint256, connections: 3 });
        await Promise.all([1, 2, 3].map(() => client.get("/version")));
        await client.close();
      }
      assert.deepEqual(resumed, [false, false, false, false, false, false]);
    } finally {
      await close(server);
    }
  });

  it("reuses an idle connection, and drops it after IDLE_TIMEOUT_MS", async () => {
    const opened: Socket[] = [];
    const closedAt: number[] = [];
    const server = createHttp((_req, res) => res.end(VERSION));
    server.on("connection", (socket: Socket) => {
      opened.push(socket);
      socket.on("close", () => closedAt.push(Date.now()));
    });
    const port = await listen(server);
    const client = new PveClient({ host: `http://127.0.0.1:${port}`, ...token });
    try {
      await client.get("/version");
      await new Promise((r) => setTimeout(r, 200));
      await client.get("/version");
      assert.equal(opened.length, 1, "the second request used the idle connection");
      const idleSince = Date.now();
      await new Promise((r) => setTimeout(r, IDLE_TIMEOUT_MS + 800));
      assert.equal(closedAt.length, 1, "the idle connection was closed");
      const idle = (closedAt[0] as number) - idleSince;
      assert.ok(idle >= IDLE_TIMEOUT_MS - 300 && idle <= IDLE_TIMEOUT_MS + 800, `closed after ${idle} ms idle`);
    } finally {
      await client.close();
      await close(server);
    }
  });

  it("a connect (or TLS handshake) that does not complete keeps its classification", async () => {
    // Accepts TCP, never answers the TLS hello.
    const held: Socket[] = [];
    const silent = createTcp((socket) => held.push(socket));
    const port = await listen(silent);
    try {
      const client = new PveClient({ host: "127.0.0.1", port, ...token, fingerprint: certs.selfSigned.fingerprint256, timeoutMs: 500 });
      const started = Date.now();
      const err = await client.get("/version").catch((e: unknown) => e);
      await client.close();
      assert.ok(err instanceof PveError);
      assert.equal(err.kind, "connection");
      assert.equal(err.code, "CONNECT_TIMEOUT");
      assert.match(err.message, /: the connection timed out \(no answer from the host; a firewall may drop the packets\)\./);
      assert.equal(err.classify().transient, true);
      assert.ok(Date.now() - started < 2000, "given up after the connect timeout");
    } finally {
      for (const socket of held) socket.destroy();
      await close(silent);
    }
  });

  it("close() lets the exchanges in flight finish, then refuses new ones", async () => {
    const server = createHttp((_req, res) => setTimeout(() => res.end(VERSION), 300));
    const port = await listen(server);
    try {
      const client = new PveClient({ host: `http://127.0.0.1:${port}`, ...token });
      const pending = client.get("/version");
      await new Promise((r) => setTimeout(r, 50));
      await client.close();
      assert.deepEqual(await pending, { version: "9.1.1" });
      await assert.rejects(client.get("/version"), /the client was closed/);
    } finally {
      await close(server);
    }
  });
});
