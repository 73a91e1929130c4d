// Config-file fidelity seen through a client nobody here wrote (Debian's python3-proxmoxer):
// a `|`-style description comes back as PVE reads it, volumes are numbered in qemu-server's
// drive order and `format=` is gone from allocated drives.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { proxmoxerSkip as skip, runProxmoxerScript } from "../conformance/proxmoxer.js";

const SCRIPT = `
import json, sys, time
from proxmoxer import ProxmoxAPI
host, port, ca, password = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
p = ProxmoxAPI(host, port=port, user="root@pam", password=password, verify_ssl=ca)
node = p.nodes("pve1")
def wait(upid):
    for _ in range(600):
        if node.tasks(upid).status.get()["status"] == "stopped":
            return
        time.sleep(0.05)
wait(node.qemu.post(vmid=100, name="cfg", bios="ovmf", description="managed by ansible\\n",
                    efidisk0="local-lvm:1,efitype=4m", sata0="local-lvm:1", scsi0="local-lvm:1,format=raw",
                    virtio0="shared:1,format=qcow2", ide0="local-lvm:1"))
print(json.dumps(node.qemu(100).config.get()))
`;

describe("python3-proxmoxer reads configs as PVE writes them", { skip }, () => {
  let sim: RunningSimulator;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 1 });
  });
  after(async () => {
    await sim.close();
  });

  it("sees the description trimmed, disks numbered ide, scsi, virtio, sata, efidisk0 and no format=", async () => {
    const config = await runProxmoxerScript(sim, SCRIPT);
    assert.equal(config.description, "managed by ansible");
    assert.equal(config.ide0, "local-lvm:vm-100-disk-0,size=1G");
    assert.equal(config.scsi0, "local-lvm:vm-100-disk-1,size=1G");
    assert.equal(config.virtio0, "shared:100/vm-100-disk-0.qcow2,size=1G");
    assert.equal(config.sata0, "local-lvm:vm-100-disk-2,size=1G");
    assert.match(config.efidisk0, /^local-lvm:vm-100-disk-3,efitype=4m,/);
  });
});
