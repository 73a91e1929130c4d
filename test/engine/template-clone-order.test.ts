// A template and its clones in one spec: one plan makes the template and clones it (the clone
// is planned against the template as its create and conversion leave it, and at apply waits for
// them), and a second plan is empty; a template that fails leaves its clones not attempted.
// Destroying both (destroy, or state: absent): one run, the clones first, then the template.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { planSpec } from "../../src/app/plan-spec.js";
import { applyPlan } from "../../src/engine/apply.js";
import { buildDestroyPlan, buildPlan } from "../../src/engine/plan.js";
import { loadPlan, savedPlanContent, savePlan } from "../../src/engine/saved-plan.js";
import { verifySavedPlan } from "../../src/engine/saved-plan-verify.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { converge, desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const SPEC = (base: string, clone = "{ from: base, full: false }") => `
vms:
  - vmid: 9000
    name: base
    node: pve1
    ${base}
    memory: 512
    disks:
      scsi0: { storage: local-lvm, size: 1G }
    nics:
      net0: { bridge: vmbr0 }
    cloudInit: { storage: local-lvm, user: debian }
  - vmid: 9001
    name: web1
    node: pve1
    clone: ${clone}
    memory: 1024
    power: running
    disks:
      scsi0: { storage: local-lvm, size: 2G }
    cloudInit:
      storage: local-lvm
      user: debian
      ipconfig:
        ipconfig0: { ip: 10.0.10.31/24, gw: 10.0.10.1 }
`;

const STORAGES = [
  { id: "local", type: "dir" as const, content: ["iso", "vztmpl", "import", "snippets"] },
  { id: "local-lvm", type: "lvmthin" as const, content: ["images", "rootdir"] },
  { id: "thick", type: "lvm" as const, content: ["images", "rootdir"] },
];

const work = (plan: { guests: Array<{ key: string; steps: Array<{ action: string }>; errors: string[] }> }) =>
  plan.guests.map((g) => [g.key, g.steps.map((s) => s.action), g.errors]);

/** The spec with its vmids and names moved, so each test has guests of its own. */
const moved = (spec: string, n: number) =>
  spec
    .replaceAll("9000", `9${n}00`)
    .replaceAll("9001", `9${n}01`)
    .replaceAll("name: base", `name: base${n}`)
    .replaceAll("from: base,", `from: base${n},`)
    .replace("name: web1", `name: web${n}`);

describe("a template and its clones in one spec", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({ config: { storages: STORAGES, content: ["local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"] } });
  });
  after(async () => lab.close());

  it("one plan creates and converts the template and clones it with the follow-ups; one apply does it all; then nothing is left", async () => {
    const first = await converge(lab, SPEC("template: true"));
    assert.deepEqual(first.plan.preflightErrors, []);
    assert.deepEqual(work(first.plan), [
      ["base", ["create", "template"], []],
      ["web1", ["clone", "config", "disk-grow", "start"], []],
    ]);
    assert.equal(first.report.ok, true, JSON.stringify(first.report.guests));
    assert.deepEqual(
      first.report.guests.map((g) => [g.key, g.result, g.error]),
      [
        ["base", "created", undefined],
        ["web1", "created", undefined],
      ],
    );
    const cfg = (await lab.client.request("GET", "/nodes/pve1/qemu/9001/config")) as Record<string, unknown>;
    assert.match(String(cfg.scsi0), /^local-lvm:base-9000-disk-0\/vm-9001-disk-0,.*size=2G/);
    assert.match(String(cfg.ipconfig0), /ip=10.0.10.31\/24/);
    const second = (await planSpec(lab.client, parseSpec(SPEC("template: true"), "test.yaml"))).plan;
    assert.deepEqual(work(second), [
      ["base", [], []],
      ["web1", [], []],
    ]);
  });

  it("a guest converted in this run is cloned in the same run, its linked clone judged as the template it becomes", async () => {
    const spec = moved(SPEC("template: true"), 1);
    assert.equal(
      (await converge(lab, spec.replace("template: true", "power: stopped").replace(/ {2}- vmid: 9101[\s\S]*/, ""))).report.ok,
      true,
    );
    const first = await converge(lab, spec);
    assert.deepEqual(first.plan.preflightErrors, []);
    assert.deepEqual(work(first.plan), [
      ["base1", ["template"], []],
      ["web1", ["clone", "config", "disk-grow", "start"], []],
    ]);
    assert.equal(first.report.ok, true, JSON.stringify(first.report.guests));
    assert.deepEqual(
      work((await planSpec(lab.client, parseSpec(spec, "test.yaml"))).plan).flatMap(([, steps]) => steps),
      [],
    );
  });

  it("a container template and its linked clone: one plan, one apply, then nothing is left", async () => {
    const spec = `
containers:
  - vmid: 9700
    hostname: ct-base
    node: pve1
    template: true
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"
    rootfs: { storage: local-lvm, size: 2G }
    nics:
      net0: { bridge: vmbr0, ip: dhcp }
  - vmid: 9701
    hostname: ct-web
    node: pve1
    power: running
    clone: { from: ct-base }
    memory: 1G
    rootfs: { storage: local-lvm, size: 4G }
`;
    const first = await converge(lab, spec);
    assert.deepEqual(first.plan.preflightErrors, []);
    assert.deepEqual(
      work(first.plan).map(([key, steps, errors]) => [key, (steps as string[])[0], errors]),
      [
        ["ct-base", "create", []],
        ["ct-web", "clone", []],
      ],
    );
    assert.equal(first.report.ok, true, JSON.stringify(first.report.guests));
    const cfg = (await lab.client.request("GET", "/nodes/pve1/lxc/9701/config")) as Record<string, unknown>;
    assert.match(String(cfg.rootfs), /^local-lvm:base-9700-disk-0\/vm-9701-disk-0,.*size=4G/);
    const second = (await planSpec(lab.client, parseSpec(spec, "test.yaml"))).plan;
    assert.deepEqual(
      work(second).flatMap(([, steps, errors]) => [...(steps as string[]), ...(errors as string[])]),
      [],
    );
  });

  it("a template whose create fails leaves its clone not attempted, saying why", async () => {
    const spec = moved(SPEC("template: true"), 2);
    lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu$", status: 400, message: "simulated refusal", times: 1 });
    const { plan, report } = await converge(lab, spec);
    assert.deepEqual(
      plan.guests.map((g) => g.steps[0]?.action),
      ["create", "clone"],
    );
    assert.equal(report.ok, false);
    const web = report.guests.find((g) => g.key === "web2")!;
    assert.equal(web.result, "failed");
    assert.match(web.error!, /^not attempted: its clone source base2 failed \(create/);
    assert.deepEqual(
      web.steps.map((s) => s.status),
      ["not-run", "not-run", "not-run", "not-run"],
    );
    const listed = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number }>;
    assert.deepEqual(
      listed.filter((g) => g.vmid === 9201 || g.vmid === 9200),
      [],
      "neither was made",
    );
  });

  it("preflight judges the clone by the template as planned: a linked clone of disks on plain LVM is refused before anything runs", async () => {
    const spec = moved(SPEC("template: true"), 3).replace(/storage: local-lvm, size/g, "storage: thick, size");
    const planned = (await planSpec(lab.client, parseSpec(spec, "test.yaml"))).plan;
    assert.deepEqual(
      planned.preflightErrors.map((p) => [p.guest, p.message.split(":")[0]]),
      [["web3", "Linked clone feature is not available for template 9300 on pve1"]],
    );
    // Onto another node: the template's planned node and storage decide.
    const elsewhere = moved(SPEC("template: true"), 3).replace("node: pve1\n    clone:", "node: pve2\n    clone:");
    const across = (await planSpec(lab.client, parseSpec(elsewhere, "test.yaml"))).plan;
    assert.deepEqual(
      across.preflightErrors.map((p) => [p.guest, p.message.split(":")[0]]),
      [["web3", "cloning template 9300 on pve1 onto pve2 needs shared storage, but local-lvm is local to pve1"]],
    );
  });

  it("a clone whose source is neither live nor in the spec stays an error", async () => {
    const spec = moved(SPEC("template: true"), 4).replace(/ {2}- vmid: 9400[\s\S]*?(?= {2}- vmid: 9401)/, "");
    const planned = (await planSpec(lab.client, parseSpec(spec, "test.yaml"))).plan;
    assert.deepEqual(work(planned), [["web4", [], ["clone.from: no guest named base4 with the pvectl tag"]]]);
  });

  it("a template without a vmid in the spec: its clone waits for the next run, saying why and what to do", async () => {
    const spec = moved(SPEC("template: true"), 8).replace("  - vmid: 9800\n    name", "  - name");
    const planned = (await planSpec(lab.client, parseSpec(spec, "test.yaml"))).plan;
    assert.deepEqual(work(planned), [
      ["base8", ["create", "template"], []],
      [
        "web8",
        [],
        [
          "clone.from: base8 is created by this same plan, and its vmid is allocated at apply (give base8 a vmid in the spec to clone it in the same run): apply this plan, then apply again to clone web8 from it",
        ],
      ],
    ]);
  });

  it("a saved plan of the template and its clone is applied in one run (the recomputed plan matches)", async () => {
    const spec = moved(SPEC("template: true"), 5);
    const dir = mkdtempSync(join(tmpdir(), "pvectl-clone-order-"));
    try {
      const specFile = join(dir, "spec.yaml");
      const file = join(dir, "plan.json");
      writeFileSync(specFile, spec);
      const options = { shutdownTimeoutSeconds: 120, forceStop: false, adopt: false };
      const built = await buildPlan(lab.client, desired(spec), options);
      assert.deepEqual(
        work(built.plan).map(([key, steps]) => [key, steps]),
        [
          ["base5", ["create", "template"]],
          ["web5", ["clone", "config", "disk-grow", "start"]],
        ],
      );
      await savePlan(file, await savedPlanContent(lab.client, built, [specFile], options, undefined));
      const verified = await verifySavedPlan(lab.client, await loadPlan(file), desired(spec));
      assert.deepEqual(verified.problems, []);
      const report = await applyPlan(lab.client, verified.plan, { ...fastApply, desired: desired(spec) });
      assert.equal(report.ok, true, JSON.stringify(report.guests));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("destroying a template with its running linked clone: one run, the clone first, then the template, each said", async () => {
    const spec = moved(SPEC("template: true"), 6);
    assert.equal((await converge(lab, spec)).report.ok, true);
    const plan = await buildDestroyPlan(lab.client, { desired: desired(spec) });
    assert.deepEqual(work(plan), [
      ["base6", ["destroy"], []],
      ["web6", ["stop", "destroy"], []],
    ]);
    assert.deepEqual(plan.guests[0]?.warnings, [
      "destroyed after its linked clones web6 in this run: PVE refuses to destroy a template while a linked clone's disk exists",
    ]);
    const report = await applyPlan(lab.client, plan, { ...fastApply, allowDataLoss: true, allowRestart: true });
    assert.equal(report.ok, true, JSON.stringify(report.guests));
    assert.deepEqual(
      report.guests.map((g) => [g.key, g.result]),
      [
        ["base6", "destroyed"],
        ["web6", "destroyed"],
      ],
    );
    const listed = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number }>;
    assert.deepEqual(
      listed.filter((g) => g.vmid === 9600 || g.vmid === 9601),
      [],
    );
  });

  it("state: absent on a template and its linked clones: one apply destroys the clones, then the template", async () => {
    const spec = moved(SPEC("template: true"), 10);
    const second = `  - vmid: 91002\n    name: web10b\n    node: pve1\n    clone: { from: base10, full: false }\n    memory: 1024\n    power: running\n`;
    assert.equal((await converge(lab, spec + second)).report.ok, true);
    const gone = `${spec + second}`.replace(/ {4}node: pve1\n/g, "    node: pve1\n    state: absent\n");
    const { plan, report } = await converge(lab, gone, { allowDataLoss: true, allowRestart: true });
    assert.deepEqual(plan.preflightErrors, []);
    assert.deepEqual(work(plan), [
      ["base10", ["destroy"], []],
      ["web10", ["stop", "destroy"], []],
      ["web10b", ["stop", "destroy"], []],
    ]);
    assert.equal(report.ok, true, JSON.stringify(report.guests));
    assert.match(plan.guests[0]!.warnings.join("\n"), /destroyed after its linked clones web10, web10b in this run/);
    const listed = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number }>;
    assert.deepEqual(
      listed.filter((g) => [91000, 91001, 91002].includes(g.vmid)),
      [],
    );
  });

  it("a linked clone whose destroy is refused leaves its template not attempted, saying why, and both stay", async () => {
    const spec = moved(SPEC("template: true"), 9);
    assert.equal((await converge(lab, spec)).report.ok, true);
    lab.sim.admin.injectFault({ method: "DELETE", path: "^/nodes/pve1/qemu/9901$", status: 400, message: "simulated refusal", times: 1 });
    const plan = await buildDestroyPlan(lab.client, { desired: desired(spec) });
    const report = await applyPlan(lab.client, plan, { ...fastApply, allowDataLoss: true, allowRestart: true });
    const base = report.guests.find((g) => g.key === "base9")!;
    assert.equal(base.result, "failed");
    assert.match(
      base.error!,
      /^not attempted: its linked clone web9 failed \(.*simulated refusal.*\), and PVE refuses to destroy a template while a linked clone's disk exists$/,
    );
    const listed = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number }>;
    assert.deepEqual(
      listed
        .filter((g) => g.vmid === 9900 || g.vmid === 9901)
        .map((g) => g.vmid)
        .sort(),
      [9900, 9901],
    );
  });
});
