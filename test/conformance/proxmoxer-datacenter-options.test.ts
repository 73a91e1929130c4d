// Datacenter options (/cluster/options) through python3-proxmoxer, a client nobody here wrote:
// root sets max_workers and a MAC prefix and reads them back as PVE answers (only what was
// set), a new VM's NIC gets the prefix, `delete` removes options, and a user without Sys.Audit
// on / is refused the read. The same max_workers then sizes pvectl's per-node concurrency
// (test/engine/node-concurrency.test.ts).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { PROXMOXER_PREAMBLE, proxmoxerSkip, runProxmoxerScript } from "./proxmoxer.js";

const SCRIPT = `${PROXMOXER_PREAMBLE}
out = {"before": p.cluster.options.get()}
p.cluster.options.put(max_workers=6, mac_prefix="02:AB:CD")
out["set"] = p.cluster.options.get()
upid = node.qemu.post(vmid=901, name="mac-check", net0="virtio,bridge=vmbr0")
out["create"] = wait(upid)
out["net0"] = node.qemu(901).config.get()["net0"]
p.cluster.options.put(delete="max_workers,mac_prefix")
out["deleted"] = p.cluster.options.get()
p.access.users.post(userid="auditless@pve", password="auditless-pass-1")
p.access.acl.put(path="/vms", roles="PVEVMAdmin", users="auditless@pve")
limited = ProxmoxAPI(host, port=port, user="auditless@pve", password="auditless-pass-1", verify_ssl=ca)
try:
    limited.cluster.options.get()
    out["limited"] = "allowed"
except Exception as e:
    out["limited"] = str(e)
print(json.dumps(out))
`;

describe("datacenter options through proxmoxer", { skip: proxmoxerSkip }, () => {
  let sim: RunningSimulator;
  before(async () => {
    sim = await startSimulator({ port: 0, nodes: 1, seed: 5 });
  });
  after(async () => {
    await sim?.close();
  });

  it("sets, reads back and deletes options; new NICs take the MAC prefix; reading needs Sys.Audit on /", async () => {
    const out = await runProxmoxerScript(sim, SCRIPT);
    assert.deepEqual(out.before, {}, "a fresh datacenter.cfg answers no options, not their defaults");
    assert.deepEqual(out.set, { max_workers: 6, mac_prefix: "02:AB:CD" });
    assert.equal(out.create, "OK");
    assert.match(out.net0, /^virtio=02:AB:CD(:[0-9A-F]{2}){3},bridge=vmbr0$/);
    assert.deepEqual(out.deleted, {});
    assert.match(out.limited, /^403 Forbidden.*Permission check failed \(\/, Sys\.Audit\)/s);
  });
});
