// Password login: ticket cookie, CSRF token on writes, renewal before the two-hour life
// ends (with an injected clock), second-factor realms, and secrets kept out of messages.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { PveClient, PveError } from "../../src/api/index.js";
import { ok, type Reply, type Seen, startServer, type TestServer } from "../support/api/server.js";

const PASSWORD = "correct-horse-battery";
const OTP = "493817";
const MINUTE = 60_000;

describe("ticket authentication", () => {
  let server: TestServer;
  let issued = 0;
  let valid = new Set<string>();
  let tfaUsers = new Set<string>();
  let now = 0;
  const csrfOf = (ticket: string) => `CSRF-${ticket.slice(-6)}`;

  function issue(username: string): Reply {
    issued += 1;
    const ticket = `PVE:${username}:6740A1B${issued}::signature-${String(issued).padStart(6, "0")}`;
    valid.add(ticket);
    return ok({ username, ticket, CSRFPreventionToken: csrfOf(ticket), cap: {} });
  }

  function handle(req: Seen): Reply {
    if (req.path === "/access/ticket" && req.method === "POST") {
      const username = req.form.get("username") ?? "";
      const password = req.form.get("password") ?? "";
      const challenge = req.form.get("tfa-challenge");
      if (challenge) {
        return challenge === "PVE:!tfa!challenge" && password === `totp:${OTP}`
          ? issue(username)
          : { status: 401, statusText: "authentication failure", body: { data: null, message: "authentication failure\n" } };
      }
      if (valid.has(password)) return issue(username);
      if (password !== PASSWORD) {
        return { status: 401, statusText: "authentication failure", body: { data: null, message: "authentication failure\n" } };
      }
      if (tfaUsers.has(username)) return ok({ username, ticket: "PVE:!tfa!challenge", NeedTFA: 1 });
      return issue(username);
    }
    const cookie = /PVEAuthCookie=([^;]+)/.exec(req.headers.cookie ?? "")?.[1];
    const ticket = cookie ? decodeURIComponent(cookie) : undefined;
    if (!ticket) return { status: 401, statusText: "No ticket" };
    if (!valid.has(ticket)) return { status: 401, statusText: "Authentication failed!" };
    if (req.method !== "GET" && req.headers.csrfpreventiontoken !== csrfOf(ticket)) {
      return { status: 401, statusText: "Permission denied - invalid csrf token" };
    }
    return ok({ path: req.path });
  }

  before(async () => {
    server = await startServer((req) => handle(req));
  });
  beforeEach(() => {
    server.seen.length = 0;
    issued = 0;
    valid = new Set();
    tfaUsers = new Set();
    now = 1_000_000;
  });
  after(() => server.close());

  const makeClient = (extra: { user?: string; password?: string; otp?: string } = {}) =>
    new PveClient({ host: `http://127.0.0.1:${server.port}`, user: "root@pam", password: PASSWORD, clock: () => now, ...extra });

  const logins = () => server.seen.filter((r) => r.path === "/access/ticket");

  it("logs in once, sends the ticket as cookie, and the CSRF token only on writes", async () => {
    const client = makeClient();
    await Promise.all([client.get("/version"), client.get("/nodes"), client.get("/cluster/status")]);
    await client.post("/nodes/{node}/qemu/{vmid}/status/start", { node: "pve", vmid: 100 });
    await client.delete("/nodes/pve/qemu/100/snapshot/s1");
    assert.equal(logins().length, 1, "parallel requests share one login");
    const [login] = logins();
    assert.equal(login?.form.get("username"), "root@pam");
    const get = server.seen.find((r) => r.path === "/nodes");
    assert.match(String(get?.headers.cookie), /^PVEAuthCookie=PVE%3Aroot%40pam%3A6740A1B1%3A%3Asignature-000001$/);
    assert.equal(get?.headers.csrfpreventiontoken, undefined);
    const post = server.seen.find((r) => r.method === "POST" && r.path.endsWith("/start"));
    assert.equal(post?.headers.csrfpreventiontoken, "CSRF-000001");
    assert.equal(client.identity, "root@pam");
    await client.close();
  });

  it("renews the ticket with the ticket itself once it is an hour old, long before its 2 h expiry", async () => {
    const client = makeClient();
    await client.get("/version");
    now += 59 * MINUTE;
    await client.get("/version");
    assert.equal(logins().length, 1, "no renewal before an hour");
    now += 2 * MINUTE;
    await client.post("/nodes/pve/qemu/100/status/start");
    assert.equal(logins().length, 2);
    const renewal = logins()[1];
    assert.equal(renewal?.form.get("password"), "PVE:root@pam:6740A1B1::signature-000001", "renewed with the old ticket");
    const last = server.seen.at(-1);
    assert.match(String(last?.headers.cookie), /signature-000002/);
    assert.equal(last?.headers.csrfpreventiontoken, "CSRF-000002");
    await client.close();
  });

  it("logs in afresh when the ticket is too close to expiry to renew", async () => {
    const client = makeClient();
    await client.get("/version");
    now += 117 * MINUTE;
    await client.get("/version");
    assert.equal(logins()[1]?.form.get("password"), PASSWORD);
    await client.close();
  });

  it("falls back to the password when a renewal is refused", async () => {
    const client = makeClient();
    await client.get("/version");
    valid.clear(); // e.g. the auth key was rotated
    now += 70 * MINUTE;
    assert.deepEqual(await client.get("/version"), { path: "/version" });
    assert.deepEqual(
      logins().map((r) => (r.form.get("password") === PASSWORD ? "password" : "ticket")),
      ["password", "ticket", "password"],
    );
    await client.close();
  });

  it("logs in again once when the server no longer accepts the ticket, and repeats the request", async () => {
    const client = makeClient();
    await client.get("/version");
    valid.clear();
    assert.deepEqual(await client.post("/nodes/pve/qemu/100/status/stop"), { path: "/nodes/pve/qemu/100/status/stop" });
    assert.equal(logins().length, 2);
    await client.close();
  });

  it("reports a wrong password without showing it", async () => {
    const client = makeClient({ password: "wrong-password-1" });
    const err = await client.get("/version").catch((e: unknown) => e);
    await client.close();
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "auth");
    assert.equal(
      err.userMessage(),
      `login as root@pam at http://127.0.0.1:${server.port} failed: authentication failure. ` +
        "Check PROXMOX_USER (with its realm, e.g. root@pam or automation@pve) and PROXMOX_PASSWORD, and that the user is enabled.",
    );
    assert.ok(!err.message.includes("wrong-password-1"));
  });

  it("reports clearly that the realm needs a second factor", async () => {
    tfaUsers.add("alice@corp");
    const client = makeClient({ user: "alice@corp" });
    const err = await client.get("/version").catch((e: unknown) => e);
    await client.close();
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "auth");
    assert.equal(err.code, "NEED_TFA");
    assert.equal(
      err.userMessage(),
      `login as alice@corp at http://127.0.0.1:${server.port} needs a second factor (two-factor authentication is enabled for this user or realm). ` +
        "For automation use an API token (PROXMOX_TOKEN_ID and PROXMOX_TOKEN_SECRET), which needs no second factor; or pass a current TOTP code with PROXMOX_OTP.",
    );
  });

  it("answers the TFA challenge with the OTP when one is given", async () => {
    tfaUsers.add("alice@corp");
    const client = makeClient({ user: "alice@corp", otp: OTP });
    assert.deepEqual(await client.get("/nodes"), { path: "/nodes" });
    const second = logins()[1];
    assert.equal(second?.form.get("tfa-challenge"), "PVE:!tfa!challenge");
    assert.equal(second?.form.get("password"), `totp:${OTP}`);
    await client.close();

    const wrong = makeClient({ user: "alice@corp", otp: "000000" });
    const err = (await wrong.get("/nodes").catch((e: unknown) => e)) as PveError;
    await wrong.close();
    assert.equal(
      err.message,
      `second factor as alice@corp at http://127.0.0.1:${server.port} failed: authentication failure. Check PROXMOX_OTP: TOTP codes change every 30 seconds and each is accepted once.`,
    );
  });

  it("keeps password, ticket and CSRF token out of every error", async () => {
    const client = makeClient();
    await client.get("/version");
    const ticket = "PVE:root@pam:6740A1B1::signature-000001";
    const echo = new PveClient({ host: `http://127.0.0.1:${server.port}`, user: "root@pam", password: PASSWORD, clock: () => now });
    // A server that echoes credentials back in its error text.
    const leaky = await startServer((req) =>
      req.path === "/access/ticket"
        ? handle(req)
        : { status: 500, statusText: `boom ${req.headers.cookie} ${req.headers.csrfpreventiontoken} ${PASSWORD}` },
    );
    const leakyClient = new PveClient({ host: `http://127.0.0.1:${leaky.port}`, user: "root@pam", password: PASSWORD, clock: () => now });
    const err = (await leakyClient.post("/nodes/pve/qemu").catch((e: unknown) => e)) as PveError;
    for (const secret of [PASSWORD, "signature-00000", "CSRF-0000"]) {
      assert.ok(!err.message.includes(secret), `${secret} leaked: ${err.message}`);
      assert.ok(!String(err.pveMessage).includes(secret));
    }
    assert.ok(!err.message.includes(ticket));
    await Promise.all([client.close(), echo.close(), leakyClient.close(), leaky.close()]);
  });
});
