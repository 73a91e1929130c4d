// The permission preflight of backup operations: what PVE checks inside vzdump, restore and
// an archive delete (VM.Backup on the guest, Datastore.AllocateSpace on the storage, or
// Datastore.Allocate instead) is checked before anything runs, and a user who has it passes.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planBackupRun } from "../../src/app/backup-plan.js";
import { planRestoreArchive } from "../../src/app/restore.js";
import { callNeeds } from "../../src/engine/privileges.js";
import { planPruneGuest } from "../../src/resources/backup/prune.js";
import { clientAs, converge, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const SPEC = `vms:
  - { vmid: 601, name: web, node: pve1, memory: 256, disks: { scsi0: { storage: local-lvm, size: 1G } } }
`;
const RUN = { storage: "local", mode: "snapshot", compress: "zstd" } as const;

describe("backup privileges", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({
      config: {
        access: {
          users: [
            { userid: "auditor@pve", password: "auditor123" },
            { userid: "operator@pve", password: "operator123" },
          ],
          acl: [
            { path: "/", roles: ["PVEAuditor"], users: ["auditor@pve", "operator@pve"] },
            { path: "/vms", roles: ["PVEVMUser"], users: ["operator@pve"] },
            { path: "/storage/local", roles: ["PVEDatastoreUser"], users: ["operator@pve"] },
          ],
        },
      },
    });
    assert.equal((await converge(lab, SPEC)).report.ok, true);
  });
  after(() => lab.close());

  it("refuses a backup the user may not make, naming each privilege and path", async () => {
    const auditor = clientAs(lab, "auditor@pve", "auditor123");
    try {
      const planned = await planBackupRun(auditor, { vmids: [601] }, RUN);
      const missing = planned.plan.preflightErrors.filter((p) => p.kind === "permission").map((p) => `${p.path} ${p.privilege}`);
      assert.deepEqual(missing.sort(), ["/storage/local Datastore.AllocateSpace", "/vms/601 VM.Backup"]);
      await assert.rejects(applyPlan(auditor, planned, fastApply), /preflight/i);
    } finally {
      await auditor.close();
    }
  });

  it("lets a user with VM.Backup and Datastore.AllocateSpace back up and restore over the guest; a new vmid needs VM.Allocate", async () => {
    const operator = clientAs(lab, "operator@pve", "operator123");
    try {
      const run = await planBackupRun(operator, { vmids: [601] }, RUN);
      assert.deepEqual(run.plan.preflightErrors, []);
      const report = await applyPlan(operator, run, fastApply);
      assert.equal(report.ok, true, report.guests[0]!.error);
      const archive = report.guests[0]!.steps[0]!.result!.replace(/^archive /, "");
      const restore = await planRestoreArchive(operator, { archive, vmid: 601 });
      assert.deepEqual(restore.plan.preflightErrors, [], "VM.Backup on an existing guest is enough to restore over it");
      const fresh = await planRestoreArchive(operator, { archive, vmid: 660 });
      assert.deepEqual(
        fresh.plan.preflightErrors.map((p) => `${p.path} ${p.privilege}`),
        ["/vms/660 VM.Allocate"],
        "a new guest needs VM.Allocate",
      );
    } finally {
      await operator.close();
    }
  });

  it("an archive delete needs Datastore.Allocate on the storage, or AllocateSpace there and VM.Backup on the guest", () => {
    const guest = { vmid: 601, type: "qemu" as const, node: "pve1", status: "stopped" as const, name: "web", template: false };
    const plan = planPruneGuest(
      guest,
      [
        {
          volid: "local:backup/vzdump-qemu-601-2026_01_01-00_00_00.vma.zst",
          vmid: 601,
          node: "pve1",
          storage: "local",
          mark: "remove",
          ctime: 1,
        },
      ],
      { "keep-last": 1 },
    );
    const needs = callNeeds(plan.steps[0]!.calls[0]!);
    assert.deepEqual(
      needs.map((n) => [n.path, n.anyOf ?? [n.privilege], (n.orOn ?? []).map((o) => `${o.path} ${o.privilege}`)]),
      [
        ["/storage/local", ["Datastore.AllocateSpace", "Datastore.Allocate"], []],
        ["/vms/601", ["VM.Backup"], ["/storage/local Datastore.Allocate"]],
      ],
    );
  });
});
