// Issue #19's wire shapes seen through a client nobody here wrote: Debian's python3-proxmoxer
// over verified HTTPS. One script, one login: the ticket's cap, /nodes and /cluster/resources
// node keys, realms, pool members, and a running VM's full status.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { proxmoxerSkip as skip, runProxmoxerScript } from "../conformance/proxmoxer.js";

const SCRIPT = `
import json, sys, time
import requests
from proxmoxer import ProxmoxAPI
host, port, ca, password = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
out = {}
# the raw login answer, as proxmoxer itself reads it, for the cap object
r = requests.post(f"https://{host}:{port}/api2/json/access/ticket", data={"username": "root@pam", "password": password}, verify=ca)
out["cap"] = {area: sorted(privs) for area, privs in r.json()["data"]["cap"].items()}
p = ProxmoxAPI(host, port=port, user="root@pam", password=password, verify_ssl=ca)
out["nodes"] = p.nodes.get()
out["resource_nodes"] = p.cluster.resources.get(type="node")
out["domains"] = p.access.domains.get()
def wait(upid):
    for _ in range(200):
        st = p.nodes("pve1").tasks(upid).status.get()
        if st["status"] == "stopped":
            return st.get("exitstatus")
        time.sleep(0.05)
    return "timeout"
out["create"] = wait(p.nodes("pve1").qemu.post(vmid=100, name="web", memory=2048, balloon=1024,
    scsi0="local-lvm:4", ide2="local:iso/debian-13-netinst.iso,media=cdrom",
    net0="virtio,bridge=vmbr0", net1="virtio,bridge=vmbr1"))
p.pools.post(poolid="team")
p.pools("team").put(vms="100")
out["members"] = p.pools("team").get()["members"]
out["stopped"] = p.nodes("pve1").qemu(100).status.current.get()
out["start"] = wait(p.nodes("pve1").qemu(100).status.start.post())
out["running"] = p.nodes("pve1").qemu(100).status.current.get()
print(json.dumps(out))
`;

type Row = Record<string, unknown>;
const sum = (xs: unknown[]) => xs.reduce<number>((a, b) => a + (b as number), 0);

describe("issue #19 shapes through python3-proxmoxer", { skip }, () => {
  let sim: RunningSimulator;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 3 });
  });
  after(async () => {
    await sim.close();
  });

  it("sees PVE's cap, node keys, realms, pool members and full VM status", async () => {
    const out = await runProxmoxerScript(sim, SCRIPT);

    assert.deepEqual(out.cap.access, ["Group.Allocate", "Permissions.Modify", "User.Modify"]);
    assert.deepEqual(out.cap.mapping, ["Mapping.Audit", "Mapping.Modify", "Mapping.Use", "Permissions.Modify"]);

    for (const n of out.nodes as Row[]) {
      assert.match(String(n.ssl_fingerprint), /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
      assert.ok(!("cgroup-mode" in n));
    }
    for (const n of out.resource_nodes as Row[]) {
      assert.equal(n["cgroup-mode"], 2);
      assert.ok(!("ssl_fingerprint" in n));
    }
    for (const r of out.domains as Row[]) assert.ok(!("default" in r), String(r.realm));

    assert.equal(out.create, "OK");
    assert.deepEqual(
      (out.members as Row[]).map((m) => m.id),
      ["qemu/100"],
    );
    assert.ok(!("pool" in (out.members[0] as Row)));

    const stopped = out.stopped as Row;
    assert.equal(stopped.memhost, 0);
    for (const k of ["blockstat", "nics", "ballooninfo", "pressurecpusome"]) assert.ok(!(k in stopped), k);

    assert.equal(out.start, "OK");
    const running = out.running as Row;
    const blockstat = running.blockstat as Record<string, Row>;
    assert.deepEqual(Object.keys(blockstat).sort(), ["ide2", "scsi0"]);
    assert.equal(sum(Object.values(blockstat).map((d) => d.rd_bytes)), running.diskread);
    assert.equal(sum(Object.values(blockstat).map((d) => d.wr_bytes)), running.diskwrite);
    const nics = running.nics as Record<string, Row>;
    assert.deepEqual(Object.keys(nics), ["tap100i0", "tap100i1"]);
    assert.equal(sum(Object.values(nics).map((t) => t.netin)), running.netin);
    const info = running.ballooninfo as Record<string, number> & { total_mem: number; free_mem: number; actual: number };
    assert.equal(running.balloon, info.actual);
    assert.equal(info.max_mem, running.maxmem);
    assert.equal(info.total_mem - info.free_mem, running.mem);
    assert.equal(running.balloon_min, 1024 * 1024 ** 2);
    assert.equal(typeof running.memhost, "number");
    for (const k of [
      "pressurecpusome",
      "pressurecpufull",
      "pressureiosome",
      "pressureiofull",
      "pressurememorysome",
      "pressurememoryfull",
    ]) {
      assert.equal(typeof running[k], "number", k);
    }
  });
});
