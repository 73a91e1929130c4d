import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

type Row = Record<string, unknown>;

describe("HA resources", () => {
  it("an HA-managed VM reports hastate, powers through hastart/hastop and needs purge to be destroyed", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:1" });
    await h.call("POST", "/cluster/ha/resources", { sid: "vm:100", state: "started", comment: "web" });
    let status = (await h.call("GET", "/nodes/pve1/qemu/100/status/current")) as Row;
    assert.equal(status.status, "running");
    assert.deepEqual(status.ha, { managed: 1, state: "started" });
    const res = (await h.call("GET", "/cluster/resources", { type: "vm" })) as Row[];
    assert.equal(res[0]?.hastate, "started");
    // as resources.cfg holds it: no defaults filled in, the file's digest on every entry
    const [listed] = (await h.call("GET", "/cluster/ha/resources")) as Row[];
    assert.match(String(listed?.digest), /^[0-9a-f]{40}$/);
    assert.deepEqual({ ...listed, digest: undefined }, { sid: "vm:100", type: "vm", state: "started", comment: "web", digest: undefined });
    assert.match(await h.ok("POST", "/nodes/pve1/qemu/100/status/shutdown"), /:hastop:100:/);
    status = (await h.call("GET", "/nodes/pve1/qemu/100/status/current")) as Row;
    assert.equal(status.status, "stopped");
    assert.deepEqual(status.ha, { managed: 1, state: "stopped" });
    await rejects(
      h.call("DELETE", "/nodes/pve1/qemu/100"),
      500,
      "unable to remove VM 100 - used in HA resources and purge parameter not set.",
    );
    await h.ok("DELETE", "/nodes/pve1/qemu/100", { purge: 1 });
    assert.deepEqual(await h.call("GET", "/cluster/ha/resources"), []);
  });

  it("ha-managed=1 on create, duplicate resources refused, removal keeps the guest", async () => {
    const h = new Harness();
    await h.createVm(100, { "ha-managed": 1, start: 1 });
    assert.equal(((await h.call("GET", "/cluster/ha/resources/vm:100")) as Row).state, "started");
    await rejects(
      h.call("POST", "/cluster/ha/resources", { sid: "100" }),
      500,
      "create resource failed: resource ID 'vm:100' already defined",
    );
    await h.call("DELETE", "/cluster/ha/resources/vm:100");
    const status = (await h.call("GET", "/nodes/pve1/qemu/100/status/current")) as Row;
    assert.deepEqual(status.ha, { managed: 0 });
    assert.equal(status.status, "running");
  });
});
