// Fidelity against a client nobody here wrote: python3-proxmoxer creates an HA resource and a
// PVE 9 node-affinity rule, reads them back as PVE stores them, asks HA to migrate the guest and
// migrates a plain VM with the API, waiting for the tasks as a script would.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";

const PYTHON = "/usr/bin/python3";
const PROXMOXER = "/usr/lib/python3/dist-packages/proxmoxer/__init__.py";
const skip =
  !existsSync(PYTHON) || !existsSync(PROXMOXER) ? "python3-proxmoxer is not installed (apt-get install python3-proxmoxer)" : false;

const SCRIPT = `
import json, sys, time
from proxmoxer import ProxmoxAPI
host, port, ca, password = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
p = ProxmoxAPI(host, port=port, user="root@pam", password=password, verify_ssl=ca)

def wait(node, upid):
    while True:
        s = p.nodes(node).tasks(upid).status.get()
        if s["status"] == "stopped":
            return s["exitstatus"]
        time.sleep(0.05)

out = {}
wait("pve1", p.nodes("pve1").qemu.post(vmid=100, memory=1024, scsi0="shared:2"))
wait("pve1", p.nodes("pve1").qemu.post(vmid=101, scsi0="shared:2"))
p.cluster.ha.resources.post(sid="vm:100", state="started", max_relocate=2, comment="web")
p.cluster.ha.rules.post(rule="web-home", type="node-affinity", resources="vm:100", nodes="pve1:2,pve2:1")
out["resources"] = [{k: v for k, v in r.items() if k != "digest"} for r in p.cluster.ha.resources.get()]
out["rules"] = [{k: v for k, v in r.items() if k != "digest"} for r in p.cluster.ha.rules.get()]
try:
    p.cluster.ha.rules.post(rule="other", type="node-affinity", resources="vm:100", nodes="pve3")
except Exception as e:
    out["refused"] = str(e)
out["migrate"] = p.cluster.ha.resources("vm:100").migrate.post(node="pve3")
time.sleep(0.2)
out["vm100_node"] = [r["node"] for r in p.cluster.resources.get(type="vm") if r["vmid"] == 100][0]
p.cluster.ha.rules("web-home").delete()
out["ha_migrate_task"] = wait("pve1", p.nodes("pve1").qemu(100).migrate.post(target="pve3", online=1))
time.sleep(0.2)
out["vm100_after"] = [r["node"] for r in p.cluster.resources.get(type="vm") if r["vmid"] == 100][0]
out["precondition"] = p.nodes("pve1").qemu(101).migrate.get(target="pve2")
out["plain_migrate"] = wait("pve1", p.nodes("pve1").qemu(101).migrate.post(target="pve2"))
out["vm101_node"] = [r["node"] for r in p.cluster.resources.get(type="vm") if r["vmid"] == 101][0]
out["status_ids"] = [e["id"] for e in p.cluster.ha.status.current.get()]
print(json.dumps(out))
`;

describe("HA and migration through python3-proxmoxer", { skip }, () => {
  let sim: RunningSimulator;
  let dir: string;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 3, nodes: 3 });
    dir = mkdtempSync(join(tmpdir(), "pvectl-sim-ha-proxmoxer-"));
  });
  after(async () => {
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates and reads HA resources and rules, migrates through HA and directly", async () => {
    const caFile = join(dir, "ca.pem");
    const scriptFile = join(dir, "ha.py");
    writeFileSync(caFile, sim.ca as string);
    writeFileSync(scriptFile, SCRIPT);
    // Asynchronous on purpose: the simulator runs in this process and must keep answering.
    const { stdout } = await promisify(execFile)(PYTHON, [scriptFile, "127.0.0.1", String(sim.port), caFile, sim.rootPassword], {
      encoding: "utf8",
      timeout: 60000,
    });
    const out = JSON.parse(stdout);
    assert.deepEqual(out.resources, [{ sid: "vm:100", type: "vm", state: "started", max_relocate: 2, comment: "web" }]);
    assert.deepEqual(out.rules, [{ rule: "web-home", type: "node-affinity", resources: "vm:100", nodes: "pve1:2,pve2:1", order: 1 }]);
    assert.match(out.refused, /^500 Internal Server Error: create ha rule failed: 400 Rule 'other' is invalid\./);
    assert.deepEqual(out.migrate, { sid: "vm:100", "requested-node": "pve3" });
    assert.equal(out.vm100_node, "pve1", "migrated, then failback takes it back to the rule's preferred node");
    assert.equal(out.ha_migrate_task, "OK");
    assert.equal(out.vm100_after, "pve3");
    assert.deepEqual(out.precondition.allowed_nodes, ["pve2", "pve3"]);
    assert.deepEqual(out.precondition.local_disks, []);
    assert.equal(out.plain_migrate, "OK");
    assert.equal(out.vm101_node, "pve2");
    assert.deepEqual(out.status_ids.slice(0, 3), ["quorum", "master", "fencing"]);
  });
});
