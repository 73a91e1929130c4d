import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ApplyReport } from "../../src/engine/report.js";
import type { Plan } from "../../src/plan/types.js";
import { renderPlan } from "../../src/cli/render/plan.js";
import { renderReport } from "../../src/cli/render/report.js";

const plan: Plan = {
  format: "pvectl-plan/1",
  createdAt: "2026-12-02T10:00:00.000Z",
  target: "https://pve:8006",
  preflightErrors: [],
  guests: [
    {
      key: "web1",
      name: "web1",
      vmid: 201,
      node: "pve1",
      exists: true,
      digest: "d",
      errors: [],
      warnings: ["unused0 holds local-lvm:vm-201-disk-3, attached to nothing; pvectl leaves it (delete it in PVE if it is not needed)"],
      steps: [
        {
          id: "web1/1-config-pending",
          action: "config-pending",
          severity: "service-impact",
          summary: "change memory (pending until reboot: the guest is running)",
          changes: [{ field: "memory", before: "2048", after: "4096" }],
          calls: [],
        },
        {
          id: "web1/2-disk-delete",
          action: "disk-delete",
          severity: "data-loss-risk",
          summary: "delete scsi1 and destroy volume local-lvm:vm-201-disk-1",
          changes: [{ field: "scsi1", before: "local-lvm:vm-201-disk-1 (8 GiB)" }],
          calls: [],
          deletesVolumes: ["local-lvm:vm-201-disk-1"],
        },
      ],
    },
    { key: "db1", name: "db1", vmid: 301, node: "pve3", exists: true, errors: [], warnings: [], steps: [] },
    {
      key: "big",
      name: "big",
      vmid: 302,
      node: "pve3",
      exists: true,
      errors: ["scsi0: shrinking from 32 GiB to 16 GiB is refused"],
      warnings: [],
      steps: [],
    },
  ],
};

describe("plan rendering", () => {
  it("groups by guest with markers, severities, before -> after, named volumes and a summary by severity", () => {
    assert.equal(
      renderPlan(plan),
      [
        "Target: https://pve:8006",
        "~ web1 (vmid 201) on pve1",
        "    ~ change memory (pending until reboot: the guest is running)  [service-impact]",
        "        memory: 2048 -> 4096",
        "    - delete scsi1 and destroy volume local-lvm:vm-201-disk-1  [data-loss-risk]",
        "        scsi1: local-lvm:vm-201-disk-1 (8 GiB) (removed)",
        "        destroys volume local-lvm:vm-201-disk-1",
        "    warning: unused0 holds local-lvm:vm-201-disk-3, attached to nothing; pvectl leaves it (delete it in PVE if it is not needed)",
        "= db1 (vmid 301) on pve3: no changes",
        "! big (vmid 302) on pve3",
        "    error: scsi0: shrinking from 32 GiB to 16 GiB is refused",
        "",
        "Plan: 0 to create, 1 to change, 0 to destroy, 1 unchanged, 1 with errors.",
        "Steps by severity: 1 service-impact, 1 data-loss-risk.",
        "Not converged: 1 guest(s) with errors (their steps do not run); fix what is listed above and run again.",
        "",
      ].join("\n"),
    );
  });
});

describe("report rendering", () => {
  it("prints one block per guest in the same shape", () => {
    const report: ApplyReport = {
      target: "https://pve:8006",
      elapsedSeconds: 1.5,
      ok: false,
      guests: [
        {
          key: "web1",
          name: "web1",
          result: "created",
          vmid: 201,
          node: "pve1",
          macs: { net0: "BC:24:11:00:00:01" },
          volumes: { scsi0: "local-lvm:vm-201-disk-0" },
          steps: [],
          pending: [],
          warnings: [],
        },
        {
          key: "web2",
          name: "web2",
          result: "failed",
          node: "pve2",
          macs: {},
          volumes: {},
          steps: [],
          pending: [],
          warnings: [],
          error: "create web2 on pve2: task qmcreate 202 on node pve2 failed: out of space",
        },
      ],
    };
    assert.equal(
      renderReport(report),
      [
        "created   web1  vmid 201  node pve1",
        "          macs: net0=BC:24:11:00:00:01",
        "          volumes: scsi0=local-lvm:vm-201-disk-0",
        "failed    web2  vmid -  node pve2",
        "          error: create web2 on pve2: task qmcreate 202 on node pve2 failed: out of space",
        "",
        "Apply finished with errors in 1.5s: 1 created, 1 failed.",
        "",
      ].join("\n"),
    );
  });
});
