// The admin API over HTTP (/_sim) is guarded: a per-start token in a header, JSON content
// type on writes (so a web page cannot drive an --http simulator with a simple cross-site
// POST), state files only where the operator said at start, and every input checked.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { simOptionsFromFlags } from "../../src/cli/commands/sim.js";
import { type RunningSimulator, StateDirError, startSimulator } from "../../src/sim/index.js";
import { adminCall, startHttpSim } from "./platform-helpers.js";

async function raw(sim: RunningSimulator, method: string, path: string, headers: Record<string, string>, body?: string) {
  const res = await fetch(`${sim.url}/_sim${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  return { status: res.status, json: (await res.json()) as { data?: unknown; error?: string } };
}

describe("simulator admin API security", () => {
  let sim: RunningSimulator;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "pvectl-sim-admin-"));
    mkdirSync(join(dir, "saves"));
    sim = await startHttpSim({ stateFile: join(dir, "state.json"), stateDir: join(dir, "saves") });
  });
  after(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe("the admin token", () => {
    it("is random per start, not derived from the seed, and can be given", async () => {
      const again = await startHttpSim();
      const chosen = await startSimulator({ https: false, port: 0, seed: 42, adminToken: "ci-token" });
      try {
        assert.match(sim.adminToken, /^[0-9a-f]{48}$/);
        assert.notEqual(again.adminToken, sim.adminToken);
        assert.equal(chosen.adminToken, "ci-token");
      } finally {
        await again.close();
        await chosen.close();
      }
    });

    it("refuses requests without it, or with a wrong one, before doing anything", async () => {
      sim.admin.injectFault({ path: "^/never$", times: 1 });
      const missing = await raw(sim, "GET", "/info", {});
      assert.equal(missing.status, 401);
      assert.match(missing.json.error ?? "", /needs the admin token printed at start, in an 'X-Sim-Admin-Token: <token>'/);
      const wrong = await raw(sim, "DELETE", "/faults", { "X-Sim-Admin-Token": "guess" });
      assert.equal(wrong.status, 401);
      assert.match(wrong.json.error ?? "", /the one sent is wrong/);
      assert.equal(sim.admin.listFaults().requests.length, 1);
      sim.admin.clearFaults();
    });

    it("is accepted as a bearer token too", async () => {
      const res = await raw(sim, "GET", "/info", { Authorization: `Bearer ${sim.adminToken}` });
      assert.equal(res.status, 200);
    });
  });

  it("refuses a cross-site style text/plain POST even with the token, and changes nothing", async () => {
    const body = JSON.stringify({ status: 500 });
    const forged = await raw(sim, "POST", "/faults", { "Content-Type": "text/plain" }, body);
    assert.equal(forged.status, 401);
    const plain = await raw(sim, "POST", "/faults", { "Content-Type": "text/plain", "X-Sim-Admin-Token": sim.adminToken }, body);
    assert.equal(plain.status, 415);
    assert.match(plain.json.error ?? "", /need 'Content-Type: application\/json'/);
    const bare = await raw(sim, "POST", "/reset", { "X-Sim-Admin-Token": sim.adminToken });
    assert.equal(bare.status, 415);
    assert.equal(sim.admin.listFaults().requests.length, 0);
  });

  describe("inputs", () => {
    const refused = async (method: string, path: string, body: unknown, pattern: RegExp) => {
      const res = await adminCall(sim, method, path, body);
      assert.equal(res.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.json)}`);
      assert.match(res.json.error ?? "", pattern);
    };

    it("refuses fault statuses that are not whole numbers from 400 to 599, and bad fault fields", async () => {
      await refused(
        "POST",
        "/faults",
        { status: "abc" },
        /POST \/_sim\/faults: 'status' must be a whole number from 400 to 599, not "abc"/,
      );
      await refused("POST", "/faults", { status: 99999 }, /'status' must be a whole number from 400 to 599/);
      await refused("POST", "/faults", { status: 200 }, /'status'/);
      await refused("POST", "/faults", { path: "(" }, /'path' must be a regular expression/);
      await refused("POST", "/faults", { times: 0 }, /'times' must be a whole number from 1/);
      await refused("POST", "/faults", { times: 1.5 }, /'times'/);
      await refused("POST", "/faults", { probability: 2 }, /'probability' must be a number from 0 to 1/);
      await refused("POST", "/faults", { latencyMs: 1e308 }, /'latencyMs'/);
      await refused("POST", "/faults", { drop: "yes" }, /'drop' must be true or false/);
      await refused("POST", "/faults", { method: "PATCH" }, /'method' must be GET, POST, PUT or DELETE/);
      await refused("POST", "/faults", { stauts: 500 }, /unknown field 'stauts' \(known: method, path, status/);
      await refused("POST", "/faults", [500], /the body must be a JSON object/);
      await refused("POST", "/task-faults", { vmid: { x: 1 } }, /'vmid'/);
      await refused("POST", "/task-faults", { node: "../x" }, /'node' must be a node name/);
      assert.equal(sim.admin.listFaults().requests.length + sim.admin.listFaults().tasks.length, 0);
      const ok = await adminCall(sim, "POST", "/faults", { method: "get", path: "^/version$", status: 503, times: 1, probability: 0.5 });
      assert.equal(ok.status, 200, JSON.stringify(ok.json));
      sim.admin.clearFaults();
    });

    it("refuses times that are not finite and bounded, and leaves the clock alone", async () => {
      const before = Math.floor(Date.now() / 1000);
      await refused("POST", "/clock/advance", { seconds: 1e308 }, /'seconds' must be a number from 0 to 316224000/);
      await refused("POST", "/clock/advance", { seconds: -5 }, /'seconds'/);
      await refused("POST", "/clock/advance", { seconds: "60" }, /'seconds'/);
      await refused("POST", "/clock/advance", {}, /'seconds' is required/);
      const info = await adminCall(sim, "GET", "/info");
      assert.ok(Math.abs((info.json.data as { clock: number }).clock - before) < 60);
      await refused("POST", "/tasks/wait", { timeoutMs: -1 }, /'timeoutMs'/);
    });

    it("refuses bad timing, locks, ids and queries", async () => {
      await refused("PUT", "/timing", { profile: "fast" }, /'profile' must be one of instant, realistic/);
      await refused("PUT", "/timing", { workersPerNode: 0 }, /'workersPerNode' must be a whole number from 1 to 1024/);
      await refused("PUT", "/timing", { timeScale: 0 }, /'timeScale'/);
      await refused("POST", "/locks", { vmid: "abc" }, /'vmid' must be a whole number from 100/);
      await refused("POST", "/locks", { vmid: 100, lock: "mine" }, /'lock' must be one of backup, clone/);
      await refused("POST", "/reset", { hard: true }, /unknown field 'hard' \(send \{\} or no body\)/);
      await refused("DELETE", "/faults/abc", undefined, /'abc' is not a whole number from 1/);
      await refused("DELETE", "/locks/-1", undefined, /is not a whole number from 100/);
      await refused("GET", "/access-log?entries=maybe", undefined, /'entries' must be 0 or 1/);
      const garbled = await raw(sim, "POST", "/faults", { "Content-Type": "application/json", "X-Sim-Admin-Token": sim.adminToken }, "{");
      assert.equal(garbled.status, 400);
      assert.match(garbled.json.error ?? "", /the body is not valid JSON/);
    });
  });

  describe("state files", () => {
    it("saves to the --state file and to files inside --state-dir", async () => {
      const plain = await adminCall(sim, "POST", "/state/save", {});
      assert.deepEqual(plain.json.data, { file: join(dir, "state.json") });
      const named = await adminCall(sim, "POST", "/state/save", { file: "snap1.json" });
      assert.equal(named.status, 200, JSON.stringify(named.json));
      assert.ok(existsSync(join(dir, "saves", "snap1.json")));
      const absolute = await adminCall(sim, "POST", "/state/save", { file: join(dir, "saves", "snap2.json") });
      assert.equal(absolute.status, 200, JSON.stringify(absolute.json));
    });

    it("refuses any other path, also through .. and symlinks", async () => {
      symlinkSync(tmpdir(), join(dir, "saves", "out"));
      for (const file of [join(dir, "elsewhere.json"), "../escape.json", "out/escape.json", "/etc/pvectl-sim-state.json"]) {
        const res = await adminCall(sim, "POST", "/state/save", { file });
        assert.equal(res.status, 400, file);
        assert.match(res.json.error ?? "", /is not the --state file .* or a file inside --state-dir/);
      }
      assert.equal(existsSync(join(dir, "elsewhere.json")), false);
      assert.equal(existsSync(join(dir, "escape.json")), false);
      assert.equal(existsSync(join(tmpdir(), "escape.json")), false);
    });

    it("refuses every file when started without --state and --state-dir", async () => {
      const bare = await startHttpSim();
      try {
        const res = await adminCall(bare, "POST", "/state/save", { file: join(dir, "x.json") });
        assert.equal(res.status, 400);
        assert.match(res.json.error ?? "", /start the simulator with --state FILE or --state-dir DIR to save over HTTP/);
        assert.equal(existsSync(join(dir, "x.json")), false);
      } finally {
        await bare.close();
      }
    });

    it("needs --state-dir to be an existing directory", async () => {
      const missing = join(dir, "no-such-dir");
      assert.equal(
        simOptionsFromFlags({ host: "127.0.0.1", port: "0", rootPassword: "p", timing: "instant", stateDir: missing }).stateDir,
        missing,
      );
      await assert.rejects(startHttpSim({ stateDir: missing }), (err: unknown) => {
        assert.ok(err instanceof StateDirError);
        assert.equal(
          err.userMessage(),
          `Cannot use ${missing} as the simulator's state directory: it does not exist. Create the directory or give another --state-dir.`,
        );
        return true;
      });
    });
  });
});
