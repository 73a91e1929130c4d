// A VM created with start=1, seen through Debian's python3-proxmoxer (a client nobody here
// wrote) against a simulator with realistic task timing: the create's UPID is a qmcreate task
// that ends before the VM runs; the start is a qmstart task of its own, found in the node's task
// list, as qemu-server's create_vm forks it ("Execute autostart").
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { PROXMOXER_PREAMBLE, runProxmoxerScript, proxmoxerSkip as skip } from "./proxmoxer.js";

const SCRIPT = `
${PROXMOXER_PREAMBLE}out = {}
upid = node.qemu.post(vmid=100, name="auto", memory=512, scsi0="local-lvm:1", start=1)
out["create_type"] = upid.split(":")[5]
out["create"] = wait(upid)
out["log"] = [l["t"] for l in node.tasks(upid).log.get(limit=50)]
out["status_after_create"] = node.qemu(100).status.current.get()["status"]
starts = node.tasks.get(vmid=100, typefilter="qmstart", source="all")
out["starts"] = len(starts)
out["start"] = wait(starts[0]["upid"]) if starts else None
out["status_after_start"] = node.qemu(100).status.current.get()["status"]
print(json.dumps(out))
`;

describe("a VM created with start=1 over the wire (python3-proxmoxer)", { skip }, () => {
  let sim: RunningSimulator;
  before(async () => {
    // A create takes about 30 ms, its start about 2 s: the VM is still stopped when the create ends.
    sim = await startSimulator({ port: 0, timing: "realistic", timeScale: 0.01, durations: { start: 200 } });
  });
  after(async () => {
    await sim?.close();
  });

  it("ends qmcreate first, then a separate qmstart task runs the VM", async () => {
    const out = await runProxmoxerScript(sim, SCRIPT);
    assert.equal(out.create_type, "qmcreate");
    assert.equal(out.create, "OK");
    assert.ok(out.log.includes("Execute autostart"), JSON.stringify(out.log));
    assert.equal(out.status_after_create, "stopped");
    assert.equal(out.starts, 1);
    assert.equal(out.start, "OK");
    assert.equal(out.status_after_start, "running");
  });
});
