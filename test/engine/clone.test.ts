import { plannedParams, plannedPath } from "../../src/plan/resolve-call.js";
// `clone:` on a VM: one plan clones the source and converges the copy (cores, memory, disk
// grown, cloud-init, tags, power) in the same apply, on the new vmid; a rerun plans nothing;
// what PVE refuses (a linked clone of a plain VM, local storage across nodes) is said in
// preflight, before anything is cloned.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan } from "../../src/engine/plan.js";
import { clientAs, desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";

type Config = Record<string, string | number>;

async function config(lab: Lab, node: string, vmid: number): Promise<Config> {
  return (await lab.client.request("GET", `/nodes/${node}/qemu/${vmid}/config`)) as Config;
}

async function listed(lab: Lab): Promise<Array<{ vmid: number; name?: string; node: string; tags?: string }>> {
  return (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{
    vmid: number;
    name?: string;
    node: string;
    tags?: string;
  }>;
}

/** A template as an operator makes one: a cloud image VM with cloud-init, converted. */
async function makeTemplate(lab: Lab, vmid: number, name: string, node: string, storage: string, tags = "pvectl"): Promise<void> {
  await lab.client.request("POST", `/nodes/${node}/qemu`, {
    vmid,
    name,
    memory: 1024,
    cores: 1,
    scsihw: "virtio-scsi-single",
    scsi0: `${storage}:4`,
    ide2: `${storage}:cloudinit`,
    net0: "virtio,bridge=vmbr0",
    tags,
  });
  await lab.client.request("POST", `/nodes/${node}/qemu/${vmid}/template`, {});
}

const WEB = (extra = "") => `vms:
  - name: web-a
    node: pve1
    power: running
    cores: 2
    memory: 2G
    tags: [web]
    clone: { from: debian-tpl }
    disks:
      scsi0: { storage: local-lvm, size: 8G }
    nics:
      net0: { bridge: vmbr1 }
    cloudInit:
      storage: local-lvm
      slot: ide2
      user: debian
${extra}`;

describe("clone: a VM cloned and converged in one plan", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({
      config: {
        access: {
          users: [
            { userid: "cloner@pve", password: "cloner123" },
            { userid: "pooler@pve", password: "pooler123" },
          ],
          acl: [
            { path: "/vms/9000", roles: ["PVETemplateUser"], users: ["cloner@pve", "pooler@pve"] },
            { path: "/pool/dev", roles: ["PVEVMAdmin"], users: ["pooler@pve"] },
          ],
        },
      },
    });
    await lab.client.request("POST", "/pools", { poolid: "dev" });
    await makeTemplate(lab, 9000, "debian-tpl", "pve1", "local-lvm");
    await makeTemplate(lab, 9001, "plain-src", "pve1", "local-lvm", "base");
    await lab.client.request("POST", "/nodes/pve1/qemu", {
      vmid: 9100,
      name: "not-a-template",
      memory: 512,
      scsi0: "local-lvm:2",
      tags: "pvectl",
    });
  });
  after(async () => lab.close());

  it("plans the clone, then the follow-ups diffed against the template's config, then the start", async () => {
    const { plan } = await buildPlan(lab.client, desired(WEB()));
    assert.deepEqual(plan.preflightErrors, []);
    const guest = plan.guests[0]!;
    assert.deepEqual(guest.errors, []);
    assert.deepEqual(
      guest.steps.map((s) => s.action),
      ["clone", "config", "config", "disk-grow", "nic-change", "start"],
    );
    // The template's tags carry no placement record: the first follow-up records the copy's node.
    assert.deepEqual(plannedParams(guest.steps[1]!.calls[0]!), { tags: "pvectl;pvectl-node.pve1" });
    const clone = guest.steps[0]!.calls[0]!;
    assert.equal(plannedPath(clone), "/nodes/pve1/qemu/9000/clone");
    assert.deepEqual(plannedParams(clone), { name: "web-a", full: 0 });
    // Every follow-up runs on the vmid the clone gets at apply.
    for (const step of guest.steps.slice(1)) for (const call of step.calls) assert.match(plannedPath(call), /\/qemu\/\{vmid\}\//);
    const config = guest.steps[2]!;
    assert.deepEqual(
      config.changes.map((c) => c.field),
      ["ciuser", "cores", "memory", "tags"],
    );
  });

  it("apply clones and converges on the new vmid; the copy gets new MACs; a rerun plans nothing", async () => {
    const { plan } = await buildPlan(lab.client, desired(WEB()));
    const report = await applyPlan(lab.client, plan, fastApply);
    assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
    const vmid = report.guests[0]!.vmid!;
    assert.ok(vmid !== 9000);
    const made = await config(lab, "pve1", vmid);
    const template = await config(lab, "pve1", 9000);
    assert.equal(made.cores, 2);
    assert.equal(made.memory, "2048");
    assert.match(String(made.scsi0), new RegExp(`^local-lvm:base-9000-disk-0/vm-${vmid}-disk-0,.*size=8G`));
    assert.match(String(made.net0), /bridge=vmbr1/);
    assert.notEqual(String(made.net0).split(",")[0], String(template.net0).split(",")[0]);
    assert.equal(made.tags, "pvectl;pvectl-node.pve1;web");
    const again = await buildPlan(lab.client, desired(WEB()));
    assert.deepEqual(again.plan.guests[0]!.steps, []);
    assert.match(again.plan.guests[0]!.warnings.join("\n"), /clone: is not used/);
  });

  it("a source without the ownership tag: the first follow-up tags the copy", async () => {
    const spec = `vms:\n  - name: from-plain\n    node: pve1\n    clone: { from: 9001 }\n    memory: 512\n`;
    const { plan } = await buildPlan(lab.client, desired(spec));
    const steps = plan.guests[0]!.steps;
    assert.deepEqual(
      steps.map((s) => s.action),
      ["clone", "config", "config"],
    );
    assert.deepEqual(plannedParams(steps[1]!.calls[0]!), { tags: "base;pvectl;pvectl-node.pve1" });
    const report = await applyPlan(lab.client, plan, fastApply);
    assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
    assert.deepEqual((await buildPlan(lab.client, desired(spec))).plan.guests[0]!.steps, []);
  });

  it("by name, only a guest with the ownership tag is a source; a hand-made one needs its vmid", async () => {
    const spec = `vms:\n  - name: nope\n    node: pve1\n    clone: { from: plain-src }\n`;
    const { plan } = await buildPlan(lab.client, desired(spec));
    assert.deepEqual(plan.guests[0]!.steps, []);
    assert.match(
      plan.guests[0]!.errors[0]!,
      /no guest named plain-src with the pvectl tag; 9001 on pve1 has that name .* write its vmid as clone.from/,
    );
  });

  it("preflight: a linked clone of a guest that is not a template is refused, with the fix", async () => {
    const spec = `vms:\n  - name: linked-bad\n    node: pve1\n    clone: { from: 9100, full: false }\n`;
    const { plan } = await buildPlan(lab.client, desired(spec));
    assert.deepEqual(
      plan.preflightErrors.map((p) => [p.kind, p.guest]),
      [["clone", "linked-bad"]],
    );
    assert.match(plan.preflightErrors[0]!.message, /needs a template as its source; guest 9100 on pve1 is not one: set full: true/);
  });

  it("preflight: a clone onto another node from local storage says to use a shared storage", async () => {
    const linked = `vms:\n  - name: far\n    node: pve2\n    clone: { from: 9000 }\n`;
    const a = (await buildPlan(lab.client, desired(linked))).plan.preflightErrors;
    assert.match(
      a.map((p) => p.message).join("\n"),
      /onto pve2 needs shared storage, but local-lvm is local to pve1: set full: true with clone.storage on a shared storage \(shared\)/,
    );
    const full = `vms:\n  - name: far\n    node: pve2\n    clone: { from: 9000, full: true, storage: shared }\n`;
    const b = await buildPlan(lab.client, desired(full));
    assert.deepEqual(b.plan.preflightErrors, []);
    assert.deepEqual(plannedParams(b.plan.guests[0]!.steps[0]!.calls[0]!), { name: "far", full: 1, target: "pve2", storage: "shared" });
    const report = await applyPlan(lab.client, b.plan, fastApply);
    assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
    const far = (await listed(lab)).find((g) => g.name === "far")!;
    assert.equal(far.node, "pve2");
    assert.match(String((await config(lab, "pve2", far.vmid)).scsi0), /^shared:/);
  });

  it("preflight: the privileges of a clone are named (VM.Allocate on the new vmid, space on the storage, the bridge)", async () => {
    const cloner = clientAs(lab, "cloner@pve", "cloner123");
    try {
      const spec = `vms:\n  - vmid: 777\n    name: mine\n    node: pve1\n    clone: { from: 9000 }\n`;
      const { plan } = await buildPlan(cloner, desired(spec));
      const missing = plan.preflightErrors.filter((p) => p.kind === "permission").map((p) => `${p.path} ${p.privilege}`);
      assert.ok(missing.includes("/vms/777 VM.Allocate"), missing.join("\n"));
      assert.ok(missing.includes("/storage/local-lvm Datastore.AllocateSpace"), missing.join("\n"));
      assert.ok(missing.includes("/sdn/zones/localnetwork/vmbr0 SDN.Use"), missing.join("\n"));
      assert.ok(!missing.some((m) => m.startsWith("/vms/9000 ")), "VM.Clone on the template is granted");
    } finally {
      await cloner.close();
    }
  });

  it("preflight: VM.Allocate on the pool a clone goes into does instead of on the new vmid (PVE's `or`)", async () => {
    const pooler = clientAs(lab, "pooler@pve", "pooler123");
    try {
      const spec = (pool: string) => `vms:\n  - vmid: 778\n    name: pooled\n    node: pve1\n    clone: { from: 9000 }\n${pool}`;
      const missing = async (pool: string) =>
        (await buildPlan(pooler, desired(spec(pool)))).plan.preflightErrors.filter((p) => p.kind === "permission").map((p) => p.message);
      assert.ok(!(await missing("    pool: dev\n")).some((m) => m.includes("/vms/778")), "the pool's VM.Allocate does");
      assert.ok(
        (await missing("")).some((m) => m.includes("lacks VM.Allocate on /vms/778 (needed by")),
        "without a pool, the vmid's is needed",
      );
    } finally {
      await pooler.close();
    }
  });

  it("clone.snapname: the copy is the source as it was at the snapshot, and the follow-ups are diffed against that", async () => {
    await lab.client.request("POST", "/nodes/pve1/qemu", {
      vmid: 9300,
      name: "snapped",
      memory: 1024,
      cores: 1,
      scsi0: "local-lvm:2",
      tags: "pvectl",
    });
    await lab.client.request("POST", "/nodes/pve1/qemu/9300/snapshot", { snapname: "golden" });
    await lab.client.request("PUT", "/nodes/pve1/qemu/9300/config", { memory: 4096 });
    const spec = `vms:\n  - name: from-snap\n    node: pve1\n    cores: 2\n    clone: { from: snapped, snapname: golden }\n`;
    const { plan } = await buildPlan(lab.client, desired(spec));
    assert.deepEqual(plan.preflightErrors, []);
    const steps = plan.guests[0]!.steps;
    assert.deepEqual(plannedParams(steps[0]!.calls[0]!), { name: "from-snap", full: 1, snapname: "golden" });
    assert.deepEqual(
      steps.slice(1).flatMap((s) => s.changes.map((c) => c.field)),
      ["tags", "cores"],
    );
    const report = await applyPlan(lab.client, plan, fastApply);
    assert.equal(report.ok, true, report.guests[0]!.error);
    const made = await config(lab, "pve1", report.guests[0]!.vmid!);
    assert.equal(Number(made.memory), 1024, "the snapshot's memory, not today's");
    assert.equal(made.cores, 2);
    assert.deepEqual((await buildPlan(lab.client, desired(spec))).plan.guests[0]!.steps, []);
    const missing = `vms:\n  - name: no-snap\n    node: pve1\n    clone: { from: snapped, snapname: nope }\n`;
    assert.match(
      (await buildPlan(lab.client, desired(missing))).plan.guests[0]!.errors.join(),
      /clone.snapname: snapshot nope of vmid 9300 cannot be read: .*does not exist/,
    );
  });
});
