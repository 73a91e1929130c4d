// Templates pvectl made, as a client nobody here wrote sees them: Debian's python3-proxmoxer
// lists a VM template and a container template pvectl created and converted, finds PVE
// refusing to start them, and linked-clones both from their base volumes. pvectl's plan of
// the same spec stays empty afterwards (a clone does not change its template).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { PROXMOXER_PREAMBLE, proxmoxerSkip as skip, runProxmoxerScript } from "./proxmoxer.js";

const CT_TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

const SPEC = `
vms:
  - vmid: 9000
    name: vm-base
    node: pve1
    template: true
    memory: 1G
    disks:
      scsi0: { storage: local-lvm, size: 2G }
    nics:
      net0: { bridge: vmbr0 }
containers:
  - vmid: 9100
    hostname: ct-base
    node: pve1
    template: true
    ostemplate: ${CT_TEMPLATE}
    rootfs: { storage: local-lvm, size: 1G }
`;

const SCRIPT = `
${PROXMOXER_PREAMBLE}out = {}
out["resources"] = sorted([r["vmid"], r["type"], r["template"]] for r in p.cluster.resources.get(type="vm"))
out["qemu_list"] = [[v["vmid"], v.get("template")] for v in node.qemu.get()]
out["vm_config"] = node.qemu(9000).config.get()
out["ct_config"] = node.lxc(9100).config.get()
out["vm_start"] = wait(node.qemu(9000).status.start.post())
out["ct_start"] = wait(node.lxc(9100).status.start.post())
out["vm_clone"] = wait(node.qemu(9000).clone.post(newid=9001, name="vm-from-base", full=0))
out["vm_clone_config"] = node.qemu(9001).config.get()
out["ct_clone"] = wait(node.lxc(9100).clone.post(newid=9101, hostname="ct-from-base", full=0))
out["ct_clone_config"] = node.lxc(9101).config.get()
print(json.dumps(out))
`;

describe("templates pvectl made, read and cloned by python3-proxmoxer", { skip }, () => {
  let sim: RunningSimulator;
  let client: PveClient;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 3, config: { content: [CT_TEMPLATE] } });
    client = new PveClient({
      host: "127.0.0.1",
      port: sim.port,
      user: "root@pam",
      password: sim.rootPassword,
      fingerprint: sim.fingerprint as string,
    });
    const planned = await planSpec(client, parseSpec(SPEC, "templates.yaml"));
    const report = await applyPlan(client, planned, { taskPoll: { minIntervalMs: 5, maxIntervalMs: 20 } });
    assert.equal(report.ok, true, JSON.stringify(report.guests));
  });
  after(async () => {
    await client?.close();
    await sim?.close();
  });

  it("sees both as templates, cannot start them, and linked-clones them from their base volumes", async () => {
    const out = await runProxmoxerScript(sim, SCRIPT, 120_000);
    assert.deepEqual(out.resources, [
      [9000, "qemu", 1],
      [9100, "lxc", 1],
    ]);
    assert.deepEqual(out.qemu_list, [[9000, 1]]);
    assert.equal(out.vm_config.template, 1);
    assert.match(out.vm_config.scsi0, /^local-lvm:base-9000-disk-0,/);
    assert.match(out.vm_config.tags, /pvectl/);
    assert.equal(out.ct_config.template, 1);
    assert.match(out.ct_config.rootfs, /^local-lvm:base-9100-disk-0,/);
    assert.equal(out.vm_start, "you can't start a vm if it's a template");
    assert.equal(out.ct_start, "you can't start a CT if it's a template");
    assert.equal(out.vm_clone, "OK");
    assert.match(out.vm_clone_config.scsi0, /^local-lvm:base-9000-disk-0\/vm-9001-disk-0,/);
    assert.equal(out.ct_clone, "OK");
    assert.match(out.ct_clone_config.rootfs, /^local-lvm:base-9100-disk-0\/vm-9101-disk-0,/);
  });

  it("pvectl's plan of the templates is still empty after the clones", async () => {
    const { plan } = await planSpec(client, parseSpec(SPEC, "templates.yaml"));
    assert.deepEqual(
      plan.guests.map((g) => [g.key, g.steps.map((s) => s.summary), g.errors]),
      [
        ["vm-base", [], []],
        ["ct-base", [], []],
      ],
    );
  });
});
