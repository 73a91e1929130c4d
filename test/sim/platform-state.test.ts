// --state files, reset, and the access log.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { StateFileError } from "../../src/sim/index.js";
import { adminCall, call, createToken, login, startHttpSim } from "./platform-helpers.js";

const dir = mkdtempSync(join(tmpdir(), "pvectl-sim-state-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("simulator state", () => {
  it("saves users, tokens and tickets at close and loads them at the next start", async () => {
    const file = join(dir, "cluster.json");
    const first = await startHttpSim({ stateFile: file });
    const root = await login(first);
    assert.equal(
      (await call(first, "POST", "/access/users", { auth: root, params: { userid: "kept@pve", password: "password1" } })).status,
      200,
    );
    const token = await createToken(first, root, "root@pam", "keep", 0);
    await first.close();
    const saved = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(saved.format, "pvectl-sim-state");
    assert.ok(saved.access.users["kept@pve"]);
    assert.equal(readFileSync(file, "utf8").includes(token.token.split("=")[1] as string), false, "token secrets are stored hashed");

    const second = await startHttpSim({ stateFile: file });
    try {
      assert.equal((await call(second, "GET", "/version", { auth: token })).status, 200);
      assert.equal((await call(second, "GET", "/version", { auth: root })).status, 200, "tickets survive a restart");
      await login(second, "kept@pve", "password1");
    } finally {
      await second.close();
    }
  });

  it("saves shortly after a change, before close", async () => {
    const file = join(dir, "live.json");
    const sim = await startHttpSim({ stateFile: file });
    try {
      const root = await login(sim);
      await call(sim, "POST", "/access/groups", { auth: root, params: { groupid: "early" } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.ok(JSON.parse(readFileSync(file, "utf8")).access.groups.early);
    } finally {
      await sim.close();
    }
  });

  it("refuses a file that is not a simulator state file, with advice", async () => {
    const file = join(dir, "bad.json");
    writeFileSync(file, '{"hello": 1}');
    await assert.rejects(startHttpSim({ stateFile: file }), (err: unknown) => {
      assert.ok(err instanceof StateFileError);
      assert.match(err.userMessage(), /not a pvectl simulator state file.*Fix or delete the file/);
      return true;
    });
  });

  it("refuses a state file it cannot write at start, with advice", async () => {
    const file = join(dir, "no-such-dir", "state.json");
    await assert.rejects(startHttpSim({ stateFile: file }), (err: unknown) => {
      assert.ok(err instanceof StateFileError);
      assert.equal(
        err.userMessage(),
        `Cannot use the simulator state file ${file}: cannot write it (ENOENT). Check that its directory exists and is writable, or choose another --state path.`,
      );
      return true;
    });
  });

  it("resets to the initial state and clears the access log", async () => {
    const sim = await startHttpSim();
    try {
      const root = await login(sim);
      await call(sim, "POST", "/access/users", { auth: root, params: { userid: "temp@pve" } });
      assert.equal((await call(sim, "GET", "/access/users/temp@pve", { auth: root })).status, 200);
      const reset = await adminCall(sim, "POST", "/reset");
      assert.equal(reset.status, 200);
      assert.equal(sim.accessLog().total, 0);
      assert.equal((await call(sim, "GET", "/access/users/temp@pve", { auth: root })).status, 500);
    } finally {
      await sim.close();
    }
  });

  it("counts requests per endpoint template and status", async () => {
    const sim = await startHttpSim();
    try {
      const root = await login(sim);
      await call(sim, "GET", "/nodes/pve1/tasks", { auth: root });
      await call(sim, "GET", "/nodes/pve2/tasks", { auth: root });
      await call(sim, "GET", "/version");
      const log = sim.accessLog();
      assert.equal(log.total, 4);
      assert.deepEqual(log.byEndpoint, { "GET /nodes/{node}/tasks": 2, "GET /version": 1, "POST /access/ticket": 1 });
      assert.deepEqual(log.byStatus, { "200": 3, "401": 1 });
      assert.deepEqual(Object.keys(log.msByEndpoint), Object.keys(log.byEndpoint));
      assert.equal(log.entries[1]?.path, "/nodes/pve1/tasks");
      assert.equal(log.entries[1]?.user, "root@pam");
      const overHttp = (await adminCall(sim, "GET", "/access-log?entries=0")).json as { data: { total: number; entries: unknown[] } };
      assert.equal(overHttp.data.total, 4);
      assert.deepEqual(overHttp.data.entries, []);
      await adminCall(sim, "DELETE", "/access-log");
      assert.equal(sim.accessLog().total, 0);
    } finally {
      await sim.close();
    }
  });
});
