// Security groups, SDN (pending until applied) and query-url-metadata as Debian's
// python3-proxmoxer sees them over verified HTTPS against the in-process simulator: a client
// nobody here wrote, sending its own encodings (form bodies, query strings, path quoting).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { proxmoxerSkip as skip, runProxmoxerScript } from "./proxmoxer.js";

// One JSON document; each expected failure is caught and recorded as its message.
const SCRIPT = `
import json, sys, time
from proxmoxer import ProxmoxAPI
host, port, ca, password = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
p = ProxmoxAPI(host, port=port, user="root@pam", password=password, verify_ssl=ca)
out = {}
def err(f):
    try:
        f()
        return None
    except Exception as e:
        return str(e)

fw = p.cluster.firewall.groups
fw.post(group="webservers", comment="HTTP(S) in")
fw("webservers").post(type="in", action="ACCEPT", proto="tcp", dport="443", enable=1)
fw("webservers").post(type="in", action="ACCEPT", proto="tcp", dport="80", enable=1, pos=1)
out["groups"] = [[g["group"], g.get("comment")] for g in fw.get()]
out["rules"] = [[r["pos"], r["dport"], r["enable"]] for r in fw("webservers").get()]
out["rule1"] = fw("webservers")(1).get()["dport"]
out["dup_group"] = err(lambda: fw.post(group="webservers"))
out["not_empty"] = err(lambda: fw("webservers").delete())
fw("webservers")("0").delete()  # proxmoxer drops a falsy id: 0 must be a string
fw("webservers")("0").delete()  # proxmoxer drops a falsy id: 0 must be a string
fw("webservers").delete()
out["groups_after"] = fw.get()

sdn = p.cluster.sdn
sdn.zones.post(zone="lab", type="simple")
sdn.vnets.post(vnet="labnet", zone="lab", alias="lab")
sdn.vnets("labnet").subnets.post(subnet="10.20.0.0/24", type="subnet", gateway="10.20.0.1")
out["vnets"] = [v["vnet"] for v in sdn.vnets.get()]
out["running_before"] = sdn.vnets.get(running=1)
out["pending"] = [[v["vnet"], v.get("state"), v.get("pending")] for v in sdn.vnets.get(pending=1)]
out["subnets"] = [[s["subnet"], s["cidr"], s["gateway"]] for s in sdn.vnets("labnet").subnets.get()]
upid = sdn.put()
node = upid.split(":")[1]
for _ in range(100):
    st = p.nodes(node).tasks(upid).status.get()
    if st["status"] == "stopped":
        break
    time.sleep(0.05)
out["apply"] = [upid.split(":")[5], st.get("exitstatus")]
out["running_after"] = [v["vnet"] for v in sdn.vnets.get(running=1)]
out["pending_after"] = [v.get("state") for v in sdn.vnets.get(pending=1)]
out["zone_in_use"] = err(lambda: sdn.zones("lab").delete())

url = "https://cdimage.example.org/debian/debian-13.1.0-amd64-netinst.iso"
out["meta"] = p.nodes("pve1").get("query-url-metadata", url=url)
out["meta_down"] = err(lambda: p.nodes("pve1").get("query-url-metadata", url="https://mirror.invalid/x.iso"))
print(json.dumps(out))
`;

describe("python3-proxmoxer: security groups, SDN, query-url-metadata", { skip }, () => {
  let sim: RunningSimulator;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 3 });
  });
  after(async () => {
    await sim.close();
  });

  it("creates, lists, applies and deletes as PVE answers them", async () => {
    const out = await runProxmoxerScript(sim, SCRIPT);
    assert.deepEqual(out.groups, [["webservers", "HTTP(S) in"]]);
    assert.deepEqual(out.rules, [
      [0, "443", 1],
      [1, "80", 1],
    ]);
    assert.equal(out.rule1, "80");
    // this proxmoxer reads `errors` from `data` (null on a 400), so only the reason line shows
    assert.equal(out.dup_group, "400 Bad Request: Parameter verification failed.");
    assert.equal(out.not_empty, "500 Internal Server Error: Security group 'webservers' is not empty");
    assert.deepEqual(out.groups_after, []);

    assert.deepEqual(out.vnets, ["labnet"]);
    assert.deepEqual(out.running_before, []);
    assert.deepEqual(out.pending, [["labnet", "new", { zone: "lab", alias: "lab" }]]);
    assert.deepEqual(out.subnets, [["lab-10.20.0.0-24", "10.20.0.0/24", "10.20.0.1"]]);
    assert.deepEqual(out.apply, ["reloadnetworkall", "OK"]);
    assert.deepEqual(out.running_after, ["labnet"]);
    assert.deepEqual(out.pending_after, [null]);
    assert.equal(out.zone_in_use, "500 Internal Server Error: delete sdn zone object failed: zone lab is used by vnet labnet");

    assert.equal(out.meta.filename, "debian-13.1.0-amd64-netinst.iso");
    assert.equal(out.meta.mimetype, "application/x-iso9660-image");
    assert.ok(Number.isInteger(out.meta.size) && out.meta.size > 50 * 1024 * 1024);
    assert.equal(
      out.meta_down,
      "500 Internal Server Error: invalid server response: '500 Can't connect to mirror.invalid:443 (Name or service not known)'",
    );
  });
});
