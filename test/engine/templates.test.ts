// `template: true` against the simulator: a VM and a container are created and converted in
// one apply (the ownership tag survives, a rerun plans nothing), a running guest is stopped
// first only with --allow-restart, the conversion's privilege is checked before anything
// changes, and templates imported back plan nothing.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { stringify } from "yaml";
import { planSpec } from "../../src/app/plan-spec.js";
import { callNeeds } from "../../src/engine/privileges.js";
import { selectGuests } from "../../src/engine/show.js";
import { lxcCalls } from "../../src/resources/lxc/calls.js";
import { qemuCalls } from "../../src/resources/qemu/calls.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { clientAs, converge, type Lab, startLab } from "../support/engine-lab.js";

const CT_TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

const VM_TPL = (vmid: number, extra = "") => `
vms:
  - vmid: ${vmid}
    name: tpl${vmid}
    node: pve1
    template: true
    cores: 2
    memory: 1G
    tags: [base]
    disks:
      scsi0: { storage: local-lvm, size: 2G }
    nics:
      net0: { bridge: vmbr0 }
${extra}`;

const CT_TPL = (vmid: number) => `
containers:
  - vmid: ${vmid}
    hostname: ct${vmid}
    node: pve1
    template: true
    ostemplate: ${CT_TEMPLATE}
    memory: 512
    rootfs: { storage: local-lvm, size: 1G }
    nics:
      net0: { bridge: vmbr0, ip: dhcp }
`;

const RUNNING_VM = (vmid: number, template: boolean) => `
vms:
  - vmid: ${vmid}
    name: run${vmid}
    node: pve1
    ${template ? "template: true" : "power: running"}
    memory: 512
    disks:
      scsi0: { storage: local-lvm, size: 1G }
`;

async function config(lab: Lab, type: "qemu" | "lxc", vmid: number): Promise<Record<string, unknown>> {
  return (await lab.client.request("GET", `/nodes/pve1/${type}/${vmid}/config`)) as Record<string, unknown>;
}

async function replan(lab: Lab, yaml: string) {
  return (await planSpec(lab.client, parseSpec(yaml, "test.yaml"))).plan;
}

const work = (plan: { guests: Array<{ key: string; steps: Array<{ summary: string }>; errors: string[] }> }) =>
  plan.guests.map((g) => [g.key, g.steps.map((s) => s.summary), g.errors]);

describe("templates against the simulator", () => {
  let lab: Lab;
  before(async () => {
    // Realistic timing (fast): a container's conversion runs after its call has answered null.
    lab = await startLab({
      timing: "realistic",
      timeScale: 0.02,
      config: {
        access: {
          users: [{ userid: "ops@pve", password: "ops12345" }],
          roles: [{ roleid: "Tuner", privs: ["VM.Audit", "VM.Config.Options", "VM.Config.CPU", "VM.PowerMgmt"] }],
          acl: [{ path: "/vms", roles: ["Tuner"], users: ["ops@pve"] }],
        },
      },
    });
  });
  after(async () => lab.close());

  it("creates a VM and converts it in one apply: base volumes, ownership tag kept, rerun empty", async () => {
    const { plan, report } = await converge(lab, VM_TPL(9000));
    assert.deepEqual(
      plan.guests[0]!.steps.map((s) => s.action),
      ["create", "template"],
    );
    assert.equal(report.ok, true, JSON.stringify(report.guests));
    const cfg = await config(lab, "qemu", 9000);
    assert.equal(cfg.template, 1);
    assert.match(String(cfg.scsi0), /^local-lvm:base-9000-disk-0,/);
    assert.deepEqual(String(cfg.tags).split(";").sort(), ["base", "pvectl", "pvectl-node.pve1"]);
    assert.deepEqual(work(await replan(lab, VM_TPL(9000))), [["tpl9000", [], []]]);
  });

  it("creates a container and converts it; apply waits for the vztemplate task PVE does not name", async () => {
    const { plan, report } = await converge(lab, CT_TPL(9100));
    assert.deepEqual(
      plan.guests[0]!.steps.map((s) => s.action),
      ["create", "template"],
    );
    // The final read-back runs right after the last step: converted by then, or not converged.
    assert.equal(report.ok, true, JSON.stringify(report.guests));
    const cfg = await config(lab, "lxc", 9100);
    assert.equal(cfg.template, 1);
    assert.match(String(cfg.rootfs), /^local-lvm:base-9100-disk-0,/);
    assert.match(String(cfg.tags), /pvectl/);
    assert.deepEqual(work(await replan(lab, CT_TPL(9100))), [["ct9100", [], []]]);
  });

  it("a template's options converge; its disks and `template: false` are plan errors", async () => {
    const more = await converge(lab, VM_TPL(9000).replace("cores: 2", "cores: 4"));
    assert.equal(more.report.ok, true, JSON.stringify(more.report.guests));
    assert.deepEqual(
      more.plan.guests[0]!.steps.map((s) => s.action),
      ["config"],
    );
    assert.equal((await config(lab, "qemu", 9000)).cores, 4);
    const grow = await replan(lab, VM_TPL(9000).replace("cores: 2", "cores: 4").replace("size: 2G", "size: 4G"));
    assert.match(grow.guests[0]!.errors.join("\n"), /vmid 9000 is a template: pvectl does not change its volumes/);
    const back = await replan(lab, VM_TPL(9000).replace("template: true", "template: false").replace("cores: 2", "cores: 4"));
    assert.match(back.guests[0]!.errors.join("\n"), /PVE has no way to turn a template back into a VM .*; clone it/);
  });

  it("a running VM is converted only with --allow-restart, stopped first", async () => {
    assert.equal((await converge(lab, RUNNING_VM(9200, false))).report.ok, true);
    const held = await converge(lab, RUNNING_VM(9200, true));
    assert.deepEqual(
      held.plan.guests[0]!.steps.map((s) => [s.action, s.severity]),
      [
        ["stop", "service-impact"],
        ["template", "service-impact"],
      ],
    );
    assert.equal((await config(lab, "qemu", 9200)).template, undefined, "nothing converted without --allow-restart");
    const { report } = await converge(lab, RUNNING_VM(9200, true), { allowRestart: true });
    assert.equal(report.ok, true, JSON.stringify(report.guests));
    assert.equal((await config(lab, "qemu", 9200)).template, 1);
    assert.deepEqual(work(await replan(lab, RUNNING_VM(9200, true))), [["run9200", [], []]]);
  });

  it("import writes both templates with `template: true`, and their plan is empty", async () => {
    const shown = await selectGuests(lab.client, { vmids: [9000, 9100] });
    assert.deepEqual(shown.skipped, []);
    const vm = shown.vms.find((g) => g.vmid === 9000)!;
    const ct = shown.vms.find((g) => g.vmid === 9100)!;
    assert.equal(vm.template, true);
    assert.equal(ct.template, true);
    assert.equal(vm.power, undefined);
    const yaml = stringify({ version: 1, vms: [vm], containers: [ct] });
    assert.deepEqual(work(await replan(lab, yaml)), [
      ["tpl9000", [], []],
      ["ct9100", [], []],
    ]);
  });

  it("the conversion needs VM.Allocate on the guest, found before anything changes", async () => {
    assert.deepEqual(
      callNeeds(qemuCalls.template("pve1", 300)).map((n) => `${n.path} ${n.privilege}`),
      ["/vms/300 VM.Allocate"],
    );
    assert.deepEqual(
      callNeeds(lxcCalls.template("pve1", 301)).map((n) => `${n.path} ${n.privilege}`),
      ["/vms/301 VM.Allocate"],
    );
    assert.equal((await converge(lab, RUNNING_VM(9300, false).replace("power: running", "power: stopped"))).report.ok, true);
    const ops = clientAs(lab, "ops@pve", "ops12345");
    try {
      const { plan } = await planSpec(ops, parseSpec(RUNNING_VM(9300, true), "test.yaml"));
      assert.deepEqual(
        plan.preflightErrors.map((p) => p.message),
        ["ops@pve lacks VM.Allocate on /vms/9300 (needed by step run9300/1-template)"],
      );
    } finally {
      await ops.close();
    }
  });
});
