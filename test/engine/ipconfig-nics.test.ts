// `cloudInit.ipconfigN` with `nics:` left out: the VM's NICs are not managed, and a clone's
// come from its source, so netN is looked for on the live guest or the clone's source (live
// or made by the same plan); where no netN exists the plan says which slot and where it looked.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { planSpec } from "../../src/app/plan-spec.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { converge, type Lab, startLab } from "../support/engine-lab.js";

const TEMPLATE = `
  - vmid: 9500
    name: tpl-ci
    node: pve1
    template: true
    memory: 512
    disks:
      scsi0: { storage: local-lvm, size: 1G }
    nics:
      net0: { bridge: vmbr0 }
    cloudInit: { storage: local-lvm }
`;

/** A VM entry without `nics:` whose cloud-init configures `slots`. */
const ENTRY = (vmid: number, name: string, slots: number[], clone = "") => `
  - vmid: ${vmid}
    name: ${name}
    node: pve1
    ${clone}
    disks:
      scsi0: { storage: local-lvm, size: 1G }
    cloudInit:
      storage: local-lvm
      ipconfig:
${slots.map((n) => `        ipconfig${n}: { ip: dhcp }`).join("\n")}
`;

const plan = async (lab: Lab, entries: string) => (await planSpec(lab.client, parseSpec(`vms:${entries}`, "test.yaml"))).plan;
const errorsOf = (p: Awaited<ReturnType<typeof plan>>) => Object.fromEntries(p.guests.map((g) => [g.key, g.errors]));

describe("ipconfigN without nics:", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  after(async () => lab.close());

  it("a clone of a template this same plan makes gets its NIC from the template: planned and applied", async () => {
    const { plan: first, report } = await converge(lab, `vms:${TEMPLATE}${ENTRY(9501, "ci-a", [0], "clone: { from: tpl-ci }")}`);
    assert.deepEqual(errorsOf(first), { "tpl-ci": [], "ci-a": [] });
    assert.equal(report.ok, true, JSON.stringify(report.guests));
    const cfg = (await lab.client.request("GET", "/nodes/pve1/qemu/9501/config")) as Record<string, unknown>;
    assert.equal(cfg.ipconfig0, "ip=dhcp");
    assert.match(String(cfg.net0), /bridge=vmbr0/);
  });

  it("a clone of a live template: net0 is its source's; a slot the source lacks is an error naming it and the source", async () => {
    const planned = await plan(
      lab,
      `${TEMPLATE}${ENTRY(9502, "ci-b", [0], "clone: { from: tpl-ci }")}${ENTRY(9503, "ci-c", [0, 1], "clone: { from: tpl-ci }")}`,
    );
    assert.deepEqual(errorsOf(planned), {
      "tpl-ci": [],
      "ci-b": [],
      "ci-c": [
        "cloudInit.ipconfig.ipconfig1 configures net1, but its clone source tpl-ci (vmid 9500) has no net1 (`nics:` is left out, so the clone's NICs are its source's): add net1 under `nics`, or drop ipconfig1",
      ],
    });
  });

  it("a live VM is checked against its own NICs; a new VM without clone: has none", async () => {
    const planned = await plan(lab, `${ENTRY(9501, "ci-a", [0, 2], "clone: { from: tpl-ci }")}${ENTRY(9504, "ci-d", [0])}`);
    assert.deepEqual(errorsOf(planned), {
      "ci-a": [
        "cloudInit.ipconfig.ipconfig2 configures net2, but vmid 9501 has no net2 (`nics:` is left out, so its NICs are the live guest's): add net2 under `nics`, or drop ipconfig2",
      ],
      "ci-d": [
        "cloudInit.ipconfig.ipconfig0 configures net0, but new VM ci-d has no net0 (`nics:` is left out, and a VM created without `clone:` gets no other NIC): add net0 under `nics`, or drop ipconfig0",
      ],
    });
  });
});
