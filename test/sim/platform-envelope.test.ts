// The simulator's wire format: PVE's envelope, headers, status codes and reason phrases.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { call, type Credentials, login, startHttpSim } from "./platform-helpers.js";

describe("simulator envelope and error shapes", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  before(async () => {
    sim = await startHttpSim();
    root = await login(sim);
  });
  after(() => sim.close());

  it("answers GET /version in the data envelope with PVE's headers", async () => {
    const res = await call(sim, "GET", "/version", { auth: root });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.json), ["data"]);
    assert.match(res.json.data.version, /^9\.1\.\d+$/);
    assert.equal(res.json.data.release, "9.1");
    assert.match(res.json.data.repoid, /^[0-9a-f]{8}$/);
    assert.equal(res.headers.get("server"), "pve-api-daemon/3.0");
    assert.equal(res.headers.get("content-type"), "application/json;charset=UTF-8");
    assert.equal(res.headers.get("cache-control"), "max-age=0");
  });

  it("answers 401 'No ticket' without a body when no credentials are sent", async () => {
    const res = await call(sim, "GET", "/version");
    assert.equal(res.status, 401);
    assert.equal(res.reason, "No ticket");
    assert.equal(res.text, "");
  });

  it("answers 401 'Authentication failed!' for a forged ticket", async () => {
    const res = await call(sim, "GET", "/version", { auth: { ticket: "PVE:root@pam:6B0FEED8::Zm9yZ2Vk" } });
    assert.equal(res.status, 401);
    assert.equal(res.reason, "Authentication failed!");
    assert.equal(res.text, "");
  });

  it("answers a malformed cookie with 401, not a server error", async () => {
    const res = await call(sim, "GET", "/version", { headers: { Cookie: "PVEAuthCookie=%E0%A4%A" } });
    assert.equal(res.status, 401);
    assert.equal(res.reason, "Authentication failed!");
  });

  it("answers 501 with PVE's message for unknown paths and methods", async () => {
    const res = await call(sim, "GET", "/no/such/thing", { auth: root });
    assert.equal(res.status, 501);
    assert.equal(res.reason, "Method 'GET /no/such/thing' not implemented");
    assert.deepEqual(res.json, { data: null, message: "Method 'GET /no/such/thing' not implemented\n" });
    const wrongMethod = await call(sim, "DELETE", "/version", { auth: root });
    assert.equal(wrongMethod.status, 501);
    assert.equal(wrongMethod.reason, "Method 'DELETE /version' not implemented");
  });

  it("refuses a request body on DELETE with 501 'Unexpected content'", async () => {
    const withBody = await call(sim, "DELETE", "/access/users/bob@pve", { auth: root, json: { x: 1 } });
    assert.equal(withBody.status, 501);
    assert.equal(withBody.reason, "Unexpected content for method 'DELETE'");
  });

  it("answers 400 'Parameter verification failed.' with per-parameter errors", async () => {
    const res = await call(sim, "POST", "/access/users", { auth: root, params: { userid: "bob@pve", bogus: "1", enable: "true" } });
    assert.equal(res.status, 400);
    assert.equal(res.reason, "Parameter verification failed.");
    assert.equal(res.json.data, null);
    assert.equal(res.json.message, "Parameter verification failed.\n");
    assert.deepEqual(res.json.errors, {
      bogus: "property is not defined in schema and the schema does not allow additional properties",
      enable: "type check ('boolean') failed - got 'true'",
    });
  });

  it("reports a missing required parameter", async () => {
    const res = await call(sim, "POST", "/access/groups", { auth: root, params: { comment: "x" } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.json.errors, { groupid: "property is missing and it is not optional" });
  });

  it("refuses a body parameter that conflicts with the path", async () => {
    const res = await call(sim, "GET", "/nodes/pve1/tasks", { auth: root, params: { node: "pve2" } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.json.errors, { node: "duplicate parameter (already defined in URI) with conflicting values!" });
  });

  it("accepts JSON bodies and 0/1 booleans, and drops the _dc cache buster", async () => {
    const created = await call(sim, "POST", "/access/users", { auth: root, json: { userid: "json@pve", enable: 0, _dc: 123 } });
    assert.equal(created.status, 200);
    assert.deepEqual(created.json, { data: null });
    const read = await call(sim, "GET", "/access/users/json@pve", { auth: root, params: { _dc: "1700000000" } });
    assert.equal(read.status, 200);
    assert.equal(read.json.data.enable, 0);
  });

  it("answers 500 with PVE's message for an unknown node", async () => {
    const res = await call(sim, "GET", "/nodes/nosuchnode/tasks", { auth: root });
    assert.equal(res.status, 500);
    assert.equal(
      res.json.message,
      "hostname lookup 'nosuchnode' failed - failed to get address info for: nosuchnode: Name or service not known\n",
    );
  });

  it("answers 595 for a node that is offline", async () => {
    sim.admin.setNodeOnline("pve2", false);
    try {
      const res = await call(sim, "GET", "/nodes/pve2/tasks", { auth: root });
      assert.equal(res.status, 595);
      assert.equal(res.reason, "No route to host");
    } finally {
      sim.admin.setNodeOnline("pve2", true);
    }
    assert.equal((await call(sim, "GET", "/nodes/pve2/tasks", { auth: root })).status, 200);
  });

  it("lists directory indexes from the schema", async () => {
    const top = await call(sim, "GET", "/", { auth: root });
    assert.deepEqual(
      top.json.data.map((e: { subdir: string }) => e.subdir),
      ["version", "cluster", "nodes", "storage", "access", "pools"],
    );
    const cluster = await call(sim, "GET", "/cluster", { auth: root });
    const names = cluster.json.data.map((e: { name: string }) => e.name);
    assert.ok(names.includes("resources") && names.includes("nextid") && names.includes("tasks"));
    const disks = await call(sim, "GET", "/nodes/pve1/disks", { auth: root });
    assert.ok(
      disks.json.data.some((e: { name: string }) => e.name === "smart"),
      disks.text,
    );
    assert.equal((await call(sim, "GET", "/")).status, 401);
  });

  it("uses 500 and the plain message for errors handlers raise", async () => {
    const res = await call(sim, "GET", "/access/users/ghost@pve", { auth: root });
    assert.equal(res.status, 500);
    assert.equal(res.reason, "no such user ('ghost@pve')");
    assert.equal(res.json.message, "no such user ('ghost@pve')\n");
  });
});
