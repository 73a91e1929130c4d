// The simulator's /version, /access/* and task answers have the shapes of responses recorded
// from real PVE servers (test/sim/platform-fixtures, provenance in SOURCE.md).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { Router } from "../../src/sim/contract.js";
import type { RunningSimulator } from "../../src/sim/index.js";
import { call, type Credentials, login, startHttpSim } from "./platform-helpers.js";

// biome-ignore lint/suspicious/noExplicitAny: recorded JSON is inspected structurally
function fixture(name: string): any {
  return JSON.parse(readFileSync(new URL(`./platform-fixtures/${name}`, import.meta.url), "utf8"));
}

const keys = (o: object) => Object.keys(o).sort();
const UPID_RE = /^UPID:[a-zA-Z0-9-]+:[0-9A-F]{8}:[0-9A-F]{8,9}:[0-9A-F]{8}:[^:]+:[^:]*:[^:]+:$/;

function failingTask(router: Router): void {
  router.add("POST", "/nodes/{node}/startall", (ctx) =>
    ctx.tasks.start({
      node: String(ctx.params.node),
      type: "vzcreate",
      id: "100",
      kind: "create",
      work: (task) => {
        task.log('  Logical volume "vm-100-disk-0" created.');
        throw new Error("unable to create CT 100 - volume 'local:vztmpl/alpine.tar.xz' does not exist\n");
      },
    }),
  );
}

describe("simulator answers have the recorded shapes", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  let upid: string;
  before(async () => {
    sim = await startHttpSim({ extraHandlers: failingTask });
    root = await login(sim);
    await call(sim, "POST", "/access/groups", { auth: root, params: { groupid: "group1" } });
    await call(sim, "POST", "/access/users", { auth: root, params: { userid: "bob@pve", email: "bob@example.com" } });
    await call(sim, "POST", "/access/users/bob@pve/token/bobtoken", { auth: root });
    await call(sim, "PUT", "/access/acl", { auth: root, params: { path: "/access", roles: "PVEUserAdmin", users: "bob@pve" } });
    upid = (await call(sim, "POST", "/nodes/pve1/startall", { auth: root })).json.data;
    await sim.admin.waitForTasks();
  });
  after(() => sim.close());

  it("GET /version", async () => {
    const res = await call(sim, "GET", "/version", { auth: root });
    assert.deepEqual(keys(res.json), keys(fixture("bpg-terraform__GET_version.json")));
    assert.deepEqual(keys(res.json.data), keys(fixture("bpg-terraform__GET_version.json").data));
  });

  it("GET /access", async () => {
    const res = await call(sim, "GET", "/access", { auth: root });
    const ours = res.json.data.map((e: { subdir: string }) => e.subdir);
    for (const e of fixture("go-proxmox__GET_access.json").data) assert.ok(ours.includes(e.subdir), e.subdir);
  });

  it("POST /access/ticket", async () => {
    const res = await call(sim, "POST", "/access/ticket", { params: { username: "root@pam", password: "proxmox" } });
    const recorded = fixture("fog-proxmox__POST_access_ticket__02.json").data;
    for (const k of keys(recorded)) assert.ok(k in res.json.data, k);
    for (const area of keys(recorded.cap)) assert.ok(area in res.json.data.cap, area);
    for (const [area, privs] of Object.entries(recorded.cap as Record<string, Record<string, number>>)) {
      // PVE 9 dropped VM.Monitor; every other privilege root had then, it has now.
      for (const priv of Object.keys(privs).filter((p) => p !== "VM.Monitor"))
        assert.equal(res.json.data.cap[area][priv], 1, `${area} ${priv}`);
    }
  });

  it("GET /access/users, /access/groups, /access/domains, tokens, ACL and roles", async () => {
    const cases: Array<[string, string]> = [
      ["/access/users", "fog-proxmox__GET_access_users__02.json"],
      ["/access/groups", "fog-proxmox__GET_access_groups__01.json"],
      ["/access/domains", "fog-proxmox__GET_access_domains__01.json"],
      ["/access/users/bob@pve/token", "fog-proxmox__GET_access_users_USERID_token__01.json"],
      ["/access/acl", "fog-proxmox__GET_access_acl__01.json"],
      ["/access/roles", "fog-proxmox__GET_access_roles.json"],
    ];
    for (const [path, file] of cases) {
      const res = await call(sim, "GET", path, { auth: root });
      const recorded = fixture(file).data as Array<Record<string, unknown>>;
      const ourKeys = new Set(res.json.data.flatMap((item: object) => Object.keys(item)));
      for (const item of recorded) {
        for (const [k, v] of Object.entries(item)) {
          assert.ok(ourKeys.has(k), `${path}: recorded key '${k}' is missing`);
          const ours = res.json.data.find((o: Record<string, unknown>) => k in o)[k];
          assert.equal(typeof ours, typeof v, `${path}: '${k}' is a ${typeof ours}, recorded as ${typeof v}`);
        }
      }
    }
  });

  it("a token created without expire has none of its own (the user's expiry still ends it), as pve-access-control stores it", async () => {
    const expire = Math.floor(Date.now() / 1000) + 3600;
    await call(sim, "POST", "/access/users", { auth: root, params: { userid: "carol@pve", expire } });
    const made = await call(sim, "POST", "/access/users/carol@pve/token/ci", { auth: root });
    assert.equal("expire" in made.json.data.info, false, "create_token answers the token as given: no expire");
    const read = await call(sim, "GET", "/access/users/carol@pve/token/ci", { auth: root });
    assert.equal(read.json.data.expire, 0, "read back from user.cfg: 0, not the user's expiry");
  });

  it("duplicate users and groups fail with the messages recorded from PVE", async () => {
    const user = await call(sim, "POST", "/access/users", { auth: root, params: { userid: "bob@pve" } });
    assert.equal(user.status, 500);
    assert.equal(user.reason, "create user failed: error during cfs-locked 'file-user_cfg' operation: user 'bob@pve' already exists");
    const group = await call(sim, "POST", "/access/groups", { auth: root, params: { groupid: "group1" } });
    assert.equal(group.status, 500);
    assert.equal(group.reason, "create group failed: error during cfs-locked 'file-user_cfg' operation: group 'group1' already exists");
  });

  it("GET /nodes/{node}/tasks items", async () => {
    const res = await call(sim, "GET", "/nodes/pve1/tasks", { auth: root });
    const recorded = fixture("community-proxmox__GET_nodes_NODE_tasks.json");
    assert.deepEqual(keys(res.json.data[0]), keys(recorded[0]));
    for (const k of keys(recorded[0])) assert.equal(typeof res.json.data[0][k], typeof recorded[0][k], k);
    for (const t of recorded) assert.match(t.upid, UPID_RE);
    assert.match(upid, UPID_RE);
  });

  it("GET /nodes/{node}/tasks/{upid}/status, running and stopped", async () => {
    const res = await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`, { auth: root });
    const stopped = fixture("fog-proxmox__GET_nodes_NODE_tasks_UPID_status__02.json").data;
    assert.deepEqual(keys(res.json.data), keys(stopped));
    assert.equal(res.json.data.exitstatus, "unable to create CT 100 - volume 'local:vztmpl/alpine.tar.xz' does not exist");
    const running = fixture("fog-proxmox__GET_nodes_NODE_tasks_UPID_status__01.json").data;
    assert.deepEqual(
      keys(running),
      keys(stopped).filter((k) => k !== "exitstatus"),
    );
  });

  it("GET /nodes/{node}/tasks/{upid}/log", async () => {
    const res = await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(upid)}/log`, { auth: root });
    const recorded = fixture("fog-proxmox__GET_nodes_NODE_tasks_UPID_log__02.json");
    assert.deepEqual(keys(res.json), keys(recorded));
    assert.deepEqual(keys(res.json.data[0]), keys(recorded.data[0]));
    assert.match(recorded.data.at(-1).t, /^TASK ERROR: /);
    assert.equal(res.json.data.at(-1).t, "TASK ERROR: unable to create CT 100 - volume 'local:vztmpl/alpine.tar.xz' does not exist");
  });
});
