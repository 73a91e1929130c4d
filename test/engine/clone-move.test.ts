import { plannedParams } from "../../src/plan/resolve-call.js";
// A clone whose spec puts a disk on another storage than the clone lands on: the same plan
// clones, then moves the new copy there, removing the copy it moved from (it holds nothing of
// the user's), so no unusedN is left behind and a rerun is empty. An existing guest's move keeps
// its source as unusedN unless --allow-data-loss; a guest with snapshots keeps it in any case.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { planSpec } from "../../src/app/plan-spec.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { converge, type Lab, startLab } from "../support/engine-lab.js";

const TEMPLATE = `
vms:
  - vmid: 9300
    name: tpl-move
    node: pve1
    template: true
    memory: 512
    disks:
      scsi0: { storage: local-lvm, size: 1G }
`;

const CLONE = (storage: string) => `
vms:
  - vmid: 9301
    name: app-move
    node: pve1
    clone: { from: tpl-move, full: true }
    disks:
      scsi0: { storage: ${storage}, size: 2G }
`;

describe("disk moves after a clone and on existing guests", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
    assert.equal((await converge(lab, TEMPLATE)).report.ok, true);
  });
  after(async () => lab.close());

  it("a clone's disk moved in the same plan leaves no unused copy, and a rerun is empty", async () => {
    const { plan, report } = await converge(lab, CLONE("shared"));
    assert.equal(report.ok, true, JSON.stringify(report.guests));
    const steps = plan.guests[0]!.steps;
    assert.deepEqual(
      steps.map((s) => s.action),
      ["clone", "disk-move", "disk-grow"],
    );
    assert.match(
      steps[1]!.summary,
      /^move scsi0 of the new clone from local-lvm to shared: 1 GiB copied offline \(the VM is stopped\); the clone's copy on local-lvm is removed$/,
    );
    assert.equal(plannedParams(steps[1]!.calls[0]!).delete, 1);
    const cfg = (await lab.client.request("GET", "/nodes/pve1/qemu/9301/config")) as Record<string, unknown>;
    assert.match(String(cfg.scsi0), /^shared:9301\/vm-9301-disk-\d+\.\w+,.*size=2G/);
    assert.deepEqual(
      Object.keys(cfg).filter((k) => k.startsWith("unused")),
      [],
    );
    const again = (await planSpec(lab.client, parseSpec(CLONE("shared"), "test.yaml"))).plan;
    assert.deepEqual(again.guests[0]!.steps, []);
  });

  it("an existing guest's move keeps the source as unused0 without --allow-data-loss, and destroys it with it", async () => {
    const kept = await converge(lab, CLONE("local-lvm"));
    assert.equal(kept.report.ok, true, JSON.stringify(kept.report.guests));
    assert.deepEqual(
      kept.plan.guests[0]!.steps.map((s) => [s.action, s.severity]),
      [
        ["disk-move", "configuration"],
        ["disk-delete", "data-loss-risk"],
      ],
    );
    let cfg = (await lab.client.request("GET", "/nodes/pve1/qemu/9301/config")) as Record<string, unknown>;
    assert.match(String(cfg.scsi0), /^local-lvm:/);
    assert.match(String(cfg.unused0), /^shared:9301\//, "the source is kept");
    // Plan and report say the same: kept, not planned again, and exactly how to remove it.
    const removal = "`qm set 9301 --delete unused0` on node pve1";
    const keptText = new RegExp(
      `destroy ${String(cfg.unused0).replace(/[./]/g, "\\$&")}, the source of the move of scsi0: without --allow-data-loss it stays as unused0, and later plans do not destroy it \\(pvectl keeps no record of the move\\); remove it then with ${removal}`,
    );
    assert.match(kept.plan.guests[0]!.steps[1]!.summary, keptText);
    assert.match(kept.report.guests[0]!.pending.join("\n"), keptText);
    // A rerun (also the one after a run killed between the move and the destroy) plans nothing, and its warning says how to remove it.
    const rerun = (await planSpec(lab.client, parseSpec(CLONE("local-lvm"), "test.yaml"))).plan;
    assert.deepEqual(rerun.guests[0]!.steps, []);
    assert.match(
      rerun.guests[0]!.warnings.join("\n"),
      new RegExp(`unused0 holds ${String(cfg.unused0).replace(/[./]/g, "\\$&")}, attached to nothing.*to destroy it, run ${removal}`),
    );

    const back = await converge(lab, CLONE("shared"), { allowDataLoss: true });
    assert.equal(back.report.ok, true, JSON.stringify(back.report.guests));
    cfg = (await lab.client.request("GET", "/nodes/pve1/qemu/9301/config")) as Record<string, unknown>;
    assert.match(String(cfg.scsi0), /^shared:/);
    // unused0 (kept by the first move) stays; the second move's source became unused1 and was destroyed.
    assert.deepEqual(
      Object.keys(cfg).filter((k) => k.startsWith("unused")),
      ["unused0"],
    );
  });

  it("a guest with snapshots: the move keeps its source (the snapshots use it), even with --allow-data-loss", async () => {
    // A raw volume on NFS cannot be snapshotted (the earlier moves leave a raw one, as PVE's
    // format resolution does): convert it to qcow2 in place first.
    await lab.client.waitForTask(
      (await lab.client.request("POST", "/nodes/pve1/qemu/9301/move_disk", {
        disk: "scsi0",
        storage: "shared",
        format: "qcow2",
        delete: 1,
      })) as string,
    );
    await lab.client.waitForTask((await lab.client.request("POST", "/nodes/pve1/qemu/9301/snapshot", { snapname: "before" })) as string);
    const before = (await lab.client.request("GET", "/nodes/pve1/qemu/9301/config")) as Record<string, unknown>;
    const source = String(before.scsi0).split(",")[0];
    const { plan, report } = await converge(lab, CLONE("local-lvm"), { allowDataLoss: true });
    assert.equal(report.ok, true, JSON.stringify(report.guests));
    const steps = plan.guests[0]!.steps;
    assert.deepEqual(
      steps.map((s) => s.action),
      ["disk-move"],
    );
    assert.equal(
      steps[0]!.summary,
      `move scsi0 from shared to local-lvm: 2 GiB copied offline (the VM is stopped), without the VM's snapshots; the source volume ${source} is kept as unused1 (the snapshots still use it, so PVE refuses to destroy it)`,
    );
    const cfg = (await lab.client.request("GET", "/nodes/pve1/qemu/9301/config")) as Record<string, unknown>;
    assert.equal(String(cfg.unused1), source);
  });
});
