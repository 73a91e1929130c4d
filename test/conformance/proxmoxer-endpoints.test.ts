// Issue #19's automation endpoints driven by a client nobody here wrote: Debian's
// python3-proxmoxer over verified HTTPS against an in-process simulator. Realm create/update/
// delete, node network edit/apply/revert with the `changes` diff, and rrddata of a node and
// its guests.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { proxmoxerSkip as skip, runProxmoxerScript } from "./proxmoxer.js";

// One JSON document out. `raw` reads a whole envelope through proxmoxer's own session (its
// ticket and CSRF header), because proxmoxer hands back only `data` and `changes` sits beside it.
const SCRIPT = `
import json, sys, time
from proxmoxer import ProxmoxAPI
host, port, ca, password = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
p = ProxmoxAPI(host, port=port, user="root@pam", password=password, verify_ssl=ca)
def raw(path):
    return p._store["session"].request("GET", p._store["base_url"] + path).json()
def wait(upid):
    for _ in range(500):
        s = p.nodes("pve1").tasks(upid).status.get()
        if s["status"] == "stopped":
            return s["exitstatus"]
        time.sleep(0.01)
    return "timeout"
def err(f):
    try:
        f()
        return None
    except Exception as e:
        return str(e)
out = {}

# Realms
p.access.domains.post(realm="sso", type="openid", **{"issuer-url": "https://idp.example/x", "client-id": "pve", "username-claim": "email"}, comment="SSO")
p.access.domains.post(realm="corp", type="ldap", server1="ldap.example", base_dn="dc=example,dc=com", user_attr="uid", password="bindpw", default=1)
p.access.domains("corp").put(server2="ldap2.example", delete="user_attr")
out["sso"] = p.access.domains("sso").get()
out["corp"] = p.access.domains("corp").get()
out["realms"] = sorted((r["realm"], r.get("default", 0)) for r in p.access.domains.get())
out["pam_twice"] = err(lambda: p.access.domains.post(realm="pam", type="pam"))
p.access.domains("sso").delete()
out["after_delete"] = sorted(r["realm"] for r in p.access.domains.get())

# Network
out["changes_before"] = "changes" in raw("/nodes/pve1/network")
p.nodes("pve1").network.post(iface="vmbr7", type="bridge", cidr="10.7.0.1/24", autostart=1)
listed = raw("/nodes/pve1/network")
out["changes"] = listed.get("changes")
p.nodes("pve1").qemu.post(vmid=700, net0="virtio,bridge=vmbr7", memory=1024)
out["start_pending"] = wait(p.nodes("pve1").qemu(700).status.start.post())
out["apply"] = wait(p.nodes("pve1").network.put())
out["start_applied"] = wait(p.nodes("pve1").qemu(700).status.start.post())
p.nodes("pve1").network("vmbr7").put(type="bridge", mtu=9000)
out["vmbr7"] = p.nodes("pve1").network("vmbr7").get()
p.nodes("pve1").network.delete()
out["reverted_mtu"] = p.nodes("pve1").network("vmbr7").get().get("mtu")

# rrddata
out["node_rrd"] = p.nodes("pve1").rrddata.get(timeframe="hour", cf="AVERAGE")
out["vm_rrd"] = p.nodes("pve1").qemu(700).rrddata.get(timeframe="day", cf="MAX")
out["vm_status"] = p.nodes("pve1").qemu(700).status.current.get()
p.nodes("pve1").lxc.post(vmid=701, ostemplate="local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst", rootfs="local-lvm:4")
time.sleep(0.2)
out["ct_rrd"] = p.nodes("pve1").lxc(701).rrddata.get(timeframe="week", cf="AVERAGE")
print(json.dumps(out))
`;

describe("python3-proxmoxer: realms, node network, rrddata", { skip }, () => {
  let sim: RunningSimulator;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 7 });
  });
  after(async () => {
    await sim.close();
  });

  it("drives the endpoints as PVE answers them", async () => {
    const out = await runProxmoxerScript(sim, SCRIPT, 90_000);

    assert.equal(out.sso.type, "openid");
    assert.equal(out.sso["issuer-url"], "https://idp.example/x");
    assert.equal(out.sso["username-claim"], "email");
    assert.equal(out.corp.server2, "ldap2.example");
    assert.equal(out.corp.user_attr, undefined);
    assert.equal(out.corp.password, undefined);
    assert.deepEqual(
      out.realms.filter((r: [string, number]) => r[1]).map((r: [string, number]) => r[0]),
      ["corp"],
    );
    assert.match(out.pam_twice, /^500 Internal Server Error: domain 'pam' already exists/);
    assert.deepEqual(out.after_delete, ["corp", "pam", "pve"]);

    assert.equal(out.changes_before, false);
    assert.match(out.changes, /\+iface vmbr7 inet static\n\+\taddress 10\.7\.0\.1\/24\n/);
    assert.match(out.start_pending, /bridge 'vmbr7' does not exist/);
    assert.equal(out.apply, "OK");
    assert.equal(out.start_applied, "OK");
    assert.equal(out.vmbr7.mtu, "9000", "PVE answers interface options as text");
    assert.equal(out.reverted_mtu, null);

    assert.equal(out.node_rrd.length, 70);
    assert.equal(typeof out.node_rrd.at(-1).memtotal, "number");
    assert.equal(out.vm_rrd.length, 70);
    assert.equal(out.vm_rrd[1].time - out.vm_rrd[0].time, 1800);
    assert.equal(out.vm_rrd.at(-1).maxmem, out.vm_status.maxmem);
    assert.equal(out.ct_rrd.length, 70);
    assert.equal(out.ct_rrd.at(-1).maxdisk, 4 * 1024 ** 3);
  });
});
