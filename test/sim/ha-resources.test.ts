// HA resources as PVE 9's API keeps them and the simulated HA manager acting on them: sid forms
// and PVE's messages, what GET shows, groups refused, ignored resources left alone, and moves
// (migrate, relocate, a plain migrate request on an HA guest) done by tasks of root@pam.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

type Row = Record<string, unknown>;
const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

async function lab(): Promise<Harness> {
  const h = new Harness({ nodes: 3 });
  await h.createVm(100, { scsi0: "local-lvm:1" });
  await h.ok("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate: TEMPLATE, rootfs: "local-lvm:1" });
  return h;
}

describe("HA resources: configuration", () => {
  it("accepts vm:/ct: ids and bare VMIDs and refuses what PVE refuses, with its messages", async () => {
    const h = await lab();
    await rejects(
      h.call("POST", "/cluster/ha/resources", { sid: "555" }),
      500,
      "unable to detect SID from VMID - VM/CT 555 does not exist",
    );
    await rejects(h.call("POST", "/cluster/ha/resources", { sid: "vm:555" }), 500, "resource 'vm:555' does not exist in cluster");
    await rejects(h.call("POST", "/cluster/ha/resources", { sid: "vm:200" }), 500, "resource 'vm:200' - guest with ID 200 is not a VM");
    await rejects(
      h.call("POST", "/cluster/ha/resources", { sid: "ct:100" }),
      500,
      "resource 'ct:100' - guest with ID 100 is not a container",
    );
    await rejects(
      h.call("POST", "/cluster/ha/resources", { sid: "vm:100", group: "g1" }),
      500,
      "invalid parameter 'group': ha groups have been migrated to rules",
    );
    await h.call("POST", "/cluster/ha/resources", { sid: "200", state: "stopped", max_restart: 2 });
    const ct = (await h.call("GET", "/cluster/ha/resources/ct:200")) as Row;
    assert.deepEqual({ ...ct, digest: 0 }, { sid: "ct:200", type: "ct", state: "stopped", max_restart: 2, digest: 0 });
    await rejects(h.call("GET", "/cluster/ha/resources/vm:100"), 500, "no such resource 'vm:100'");
    await rejects(
      h.call("PUT", "/cluster/ha/resources/vm:100", { comment: "x" }),
      500,
      "update resources config failed: no such resource 'vm:100'",
    );
    await rejects(
      h.call("PUT", "/cluster/ha/resources/ct:200", { comment: "x", digest: "0".repeat(40) }),
      500,
      "update resources config failed: detected modified configuration - file changed by other user? Try again.",
    );
    await h.call("PUT", "/cluster/ha/resources/ct:200", { comment: "db", delete: "max_restart", digest: String(ct.digest) });
    assert.deepEqual((await h.call("GET", "/cluster/ha/resources", { type: "ct" })) as Row[], [
      {
        sid: "ct:200",
        type: "ct",
        state: "stopped",
        comment: "db",
        digest: ((await h.call("GET", "/cluster/ha/resources")) as Row[])[0]?.digest,
      },
    ]);
    await rejects(h.call("DELETE", "/cluster/ha/resources/vm:100"), 500, "cannot delete service 'vm:100', not HA managed!");
  });

  it("an ignored resource is configured but not managed: direct power calls work again", async () => {
    const h = await lab();
    await h.call("POST", "/cluster/ha/resources", { sid: "vm:100", state: "ignored" });
    assert.deepEqual(((await h.call("GET", "/nodes/pve1/qemu/100/status/current")) as Row).ha, { managed: 0 });
    assert.match(await h.ok("POST", "/nodes/pve1/qemu/100/status/start"), /:qmstart:100:root@pam:/);
    await rejects(h.call("POST", "/cluster/ha/resources/vm:100/migrate", { node: "pve2" }), 500, "resource 'vm:100' is not HA managed");
  });
});

describe("HA resources: the manager acts", () => {
  it("requested states start and stop the guest through root@pam tasks on its node", async () => {
    const h = await lab();
    const before = h.tasks.length;
    await h.call("POST", "/cluster/ha/resources", { sid: "vm:100" });
    const started = h.tasks.slice(before);
    assert.deepEqual(
      started.map((t) => [t.options.type, t.options.node, t.options.user]),
      [["qmstart", "pve1", "root@pam"]],
    );
    assert.equal(h.model.guest(100)?.status, "running");
    assert.deepEqual(((await h.call("GET", "/nodes/pve1/qemu/100/status/current")) as Row).ha, { managed: 1, state: "started" });
    await h.call("PUT", "/cluster/ha/resources/vm:100", { state: "disabled" });
    assert.equal(h.tasks.at(-1)?.options.type, "qmshutdown");
    assert.equal(h.model.guest(100)?.status, "stopped");
  });

  it("migrate moves a running VM online (qmigrate by root@pam); relocate stops a CT, moves it offline and starts it", async () => {
    const h = await lab();
    await h.call("POST", "/cluster/ha/resources", { sid: "vm:100" });
    await h.call("POST", "/cluster/ha/resources", { sid: "ct:200" });
    let before = h.tasks.length;
    const answer = (await h.call("POST", "/cluster/ha/resources/vm:100/migrate", { node: "pve2" })) as Row;
    assert.deepEqual(answer, { sid: "vm:100", "requested-node": "pve2" });
    const migration = h.tasks.slice(before);
    assert.deepEqual(
      migration.map((t) => [t.options.type, t.options.node, t.options.user, t.exitstatus]),
      [["qmigrate", "pve1", "root@pam", "OK"]],
    );
    assert.equal(h.model.guest(100)?.node, "pve2");
    assert.equal(h.model.guest(100)?.status, "running", "an online migration keeps it running");
    before = h.tasks.length;
    await h.call("POST", "/cluster/ha/resources/200/relocate", { node: "pve3" });
    assert.deepEqual(
      h.tasks.slice(before).map((t) => [t.options.type, t.options.node]),
      [
        ["vzshutdown", "pve1"],
        ["vzmigrate", "pve1"],
        ["vzstart", "pve3"],
      ],
    );
    assert.equal(h.model.guest(200)?.node, "pve3");
    assert.equal(h.model.guest(200)?.status, "running");
  });

  it("while HA migrates a VM it holds lock: migrate and the manager shows the move with its target", async () => {
    const h = new Harness({ nodes: 3, deferTasks: true });
    await h.call("POST", "/nodes/pve1/qemu", { vmid: 100, scsi0: "local-lvm:1" });
    await h.runTasks();
    await h.call("POST", "/cluster/ha/resources", { sid: "vm:100" });
    await h.runTasks();
    await h.call("POST", "/cluster/ha/resources/vm:100/migrate", { node: "pve2" });
    assert.equal((await h.config(100)).lock, "migrate");
    const ms = (await h.call("GET", "/cluster/ha/status/manager_status")) as { manager_status: { service_status: Record<string, Row> } };
    assert.deepEqual({ ...ms.manager_status.service_status["vm:100"], uid: 0 }, { node: "pve1", state: "migrate", target: "pve2", uid: 0 });
    const current = (await h.call("GET", "/cluster/ha/status/current")) as Row[];
    assert.equal(current.find((e) => e.id === "service:vm:100")?.status, "vm:100 (pve1, migrate)");
    await h.runTasks();
    assert.equal((await h.config(100, "pve2")).lock, undefined);
    const after = (await h.call("GET", "/cluster/ha/status/manager_status")) as { manager_status: { service_status: Record<string, Row> } };
    assert.deepEqual({ ...after.manager_status.service_status["vm:100"], uid: 0 }, { node: "pve2", state: "started", running: 1, uid: 0 });
  });

  it("POST …/migrate of an HA-managed VM answers with an hamigrate task; the HA manager moves it", async () => {
    const h = await lab();
    await h.call("POST", "/cluster/ha/resources", { sid: "vm:100" });
    const upid = await h.ok("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve3", online: 1 });
    assert.match(upid, /:hamigrate:100:/);
    assert.deepEqual(h.task(upid).log, ["Requesting HA migration for VM 100 to node pve3"]);
    assert.equal(h.tasks.at(-1)?.options.type, "qmigrate");
    assert.equal(h.model.guest(100)?.node, "pve3");
    await rejects(h.call("POST", "/nodes/pve3/qemu/100/migrate", { target: "pve1" }), 500, "can't migrate running VM without --online");
  });

  it("a failed node's resources are recovered on another node and started there", async () => {
    const h = await lab();
    await h.call("POST", "/cluster/ha/resources", { sid: "vm:100" });
    await h.call("POST", "/cluster/ha/resources", { sid: "ct:200", state: "stopped" });
    h.model.setNodeOnline("pve1", false);
    h.model.nodeLivenessChanged({ start: (o) => h.startTaskForTest(o) });
    await h.runTasks();
    // in sid order, each to the online node with the fewest HA resources (then by name)
    assert.equal(h.model.guest(200)?.node, "pve2", "a stopped resource is recovered too");
    assert.equal(h.model.guest(200)?.status, "stopped");
    const vm = h.model.guest(100);
    assert.equal(vm?.node, "pve3");
    assert.equal(vm?.status, "running");
  });
});
