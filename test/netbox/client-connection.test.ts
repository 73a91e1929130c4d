// The NetBox client's connections, on the same transport as the PVE client's (src/util/http):
// a certificate refused by default and accepted with the CA (text or file) or `insecure`, a
// refused one sends nothing, a host-name mismatch, a NetBox that does not answer in time,
// a connect that never completes, keep-alive reuse, and what each error tells the user.
import assert from "node:assert/strict";
import { createServer as createHttp } from "node:http";
import { type AddressInfo, createServer as createTcp, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { NetboxClient } from "../../src/netbox/client.js";
import { NetboxConnectionError } from "../../src/netbox/errors.js";
import { type TestCerts, testCerts } from "../api/helpers/certs.js";
import { startServer, type TestServer } from "../api/helpers/server.js";

const TOKEN = "ef".repeat(20);
const STATUS = { "netbox-version": "4.6.8" };

/** The NetboxConnectionError `promise` rejects with. */
async function connectionError(promise: Promise<unknown>): Promise<NetboxConnectionError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof NetboxConnectionError, `expected a NetboxConnectionError, got ${String(err)}`);
  return err;
}

describe("NetBox client connections", () => {
  let certs: TestCerts;
  let selfSigned: TestServer;
  let caSigned: TestServer;
  before(async () => {
    certs = await testCerts();
    selfSigned = await startServer(() => ({ body: STATUS }), certs.selfSigned);
    caSigned = await startServer(() => ({ body: STATUS }), certs.server);
  });
  after(async () => {
    await selfSigned.close();
    await caSigned.close();
  });

  it("refuses a self-signed certificate by default, sends nothing, and says how to trust it", async () => {
    const url = `https://127.0.0.1:${selfSigned.port}`;
    const client = new NetboxClient({ url, token: TOKEN });
    const err = await connectionError(client.status());
    await client.close();
    assert.equal(err.code, "DEPTH_ZERO_SELF_SIGNED_CERT");
    assert.equal(
      err.userMessage(),
      `cannot reach NetBox at ${url} (DEPTH_ZERO_SELF_SIGNED_CERT): the server's TLS certificate is not trusted: give its CA as a PEM file with \`netbox.caFile\` in the configuration.`,
    );
    assert.ok(!err.userMessage().includes(TOKEN));
    assert.equal(selfSigned.seen.length, 0, "no request (and no token) reached the server");
  });

  it("refuses a certificate from an unknown CA, and accepts it with the CA as text or as a file", async () => {
    const url = `https://127.0.0.1:${caSigned.port}`;
    const plain = new NetboxClient({ url, token: TOKEN });
    const err = await connectionError(plain.status());
    await plain.close();
    assert.equal(err.code, "UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    assert.match(err.userMessage(), /certificate is not trusted: give its CA as a PEM file with `netbox.caFile`/);

    for (const trust of [{ ca: certs.caCert }, { caFile: certs.caPath }]) {
      const client = new NetboxClient({ url, token: TOKEN, ...trust });
      assert.deepEqual(await client.status(), STATUS);
      await client.close();
    }
    assert.equal(caSigned.seen.at(-1)?.headers.authorization, `Token ${TOKEN}`);
  });

  it("a given CA replaces the system's: a certificate it did not sign is refused", async () => {
    const client = new NetboxClient({ url: `https://127.0.0.1:${selfSigned.port}`, token: TOKEN, caFile: certs.caPath });
    const err = await connectionError(client.status());
    await client.close();
    assert.equal(err.code, "DEPTH_ZERO_SELF_SIGNED_CERT");
  });

  it("refuses a CA-signed certificate issued for another host name, and says so", async () => {
    const other = await startServer(() => ({ body: STATUS }), certs.otherName);
    const url = `https://127.0.0.1:${other.port}`;
    const client = new NetboxClient({ url, token: TOKEN, ca: certs.caCert });
    const err = await connectionError(client.status());
    await client.close();
    await other.close();
    assert.equal(err.code, "ERR_TLS_CERT_ALTNAME_INVALID");
    assert.equal(
      err.userMessage(),
      `cannot reach NetBox at ${url} (ERR_TLS_CERT_ALTNAME_INVALID): the server's TLS certificate is not valid for this host name: use the name the certificate was issued for in the NetBox URL.`,
    );
  });

  it("https:// to a plain-HTTP port is a failed handshake, not an untrusted certificate", async () => {
    const plain = await startServer(() => ({ body: STATUS }));
    const url = `https://127.0.0.1:${plain.port}`;
    const client = new NetboxClient({ url, token: TOKEN });
    const err = await connectionError(client.status());
    await client.close();
    await plain.close();
    assert.match(err.code, /^(ERR_SSL_|EPROTO$)/);
    assert.equal(
      err.userMessage(),
      `cannot reach NetBox at ${url} (${err.code}): the TLS handshake failed: check that the NetBox URL's scheme and port are NetBox's (https:// to an HTTPS port, http:// to a plain one).`,
    );
    assert.equal(plain.seen.length, 0, "nothing was sent in the clear");
  });

  it("accepts any certificate with insecure", async () => {
    const client = new NetboxClient({ url: `https://127.0.0.1:${selfSigned.port}`, token: TOKEN, insecure: true });
    assert.deepEqual(await client.status(), STATUS);
    await client.close();
  });

  it("a NetBox that does not answer within timeoutMs is a TIMEOUT that says so", async () => {
    const slow = await startServer(() => ({ body: STATUS, delayMs: 1500 }));
    const url = `http://127.0.0.1:${slow.port}`;
    const client = new NetboxClient({ url, token: TOKEN, timeoutMs: 300 });
    const started = Date.now();
    const err = await connectionError(client.status());
    await client.close();
    await slow.close();
    assert.ok(Date.now() - started < 1200, "gave up after the timeout, not after the answer");
    assert.equal(
      err.userMessage(),
      `cannot reach NetBox at ${url} (TIMEOUT): NetBox did not answer in time: check that it is not overloaded, and the network path to it.`,
    );
  });

  it("a connect (TLS handshake included) that never completes is a CONNECT_TIMEOUT", async () => {
    // Accepts TCP, never answers the TLS hello.
    const held: Socket[] = [];
    const silent = createTcp((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const client = new NetboxClient({ url: `https://127.0.0.1:${port}`, token: TOKEN, timeoutMs: 400 });
      const err = await connectionError(client.status());
      await client.close();
      assert.equal(err.code, "CONNECT_TIMEOUT");
      assert.match(err.userMessage(), /check the NetBox URL/);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("keeps its connections alive, opens at most `connections` of them, and refuses requests after close()", async () => {
    let opened = 0;
    let running = 0;
    let mostAtOnce = 0;
    const server = createHttp((_req, res) => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      setTimeout(() => {
        running -= 1;
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(STATUS));
      }, 30);
    });
    server.on("connection", () => {
      opened += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new NetboxClient({ url, token: TOKEN, connections: 2 });
    try {
      for (let i = 0; i < 3; i++) await client.status();
      assert.equal(opened, 1, "one connection carried the three requests in turn");
      await Promise.all([1, 2, 3, 4, 5].map(() => client.status()));
      assert.equal(mostAtOnce, 2, "five requests at once ran two at a time");
      assert.equal(opened, 2);
      await client.close();
      const err = await connectionError(client.status());
      assert.equal(err.code, "POOL_CLOSED");
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("a URL that is not http(s) is refused at the first request, naming it", async () => {
    const client = new NetboxClient({ url: "ftp://netbox.example", token: TOKEN });
    const err = await connectionError(client.status());
    assert.equal(
      err.userMessage(),
      "cannot reach NetBox at ftp://netbox.example (UNSUPPORTED_PROTOCOL): check the NetBox URL (NETBOX_URL or `url` in the NetBox config), that NetBox is running, and the network path to it.",
    );
  });
});
