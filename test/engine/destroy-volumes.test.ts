// destroy names every volume PVE frees with the guest (qemu-server destroy_vm): disks, the
// cloud-init drive, EFI vars, TPM state and unusedN volumes it owns; nothing else.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/engine/apply.js";
import { buildDestroyPlan, buildPlan } from "../../src/engine/plan.js";
import { liveVmFromConfig } from "../../src/resources/qemu/read.js";
import { destroyStep } from "../../src/resources/destroy-plan.js";
import { GUEST_KINDS } from "../../src/resources/index.js";
import { volumeOwner } from "../../src/resources/qemu/steps.js";
import { desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const SPEC = `
vms:
  - vmid: 170
    name: full
    node: pve1
    bios: ovmf
    efidisk: { storage: local-lvm, efitype: 4m }
    tpm: { storage: local-lvm, version: v2.0 }
    disks:
      scsi0: { storage: local-lvm, size: 2G }
      scsi1: { storage: local-lvm, size: 1G }
    cloudInit:
      storage: local-lvm
      user: debian
    nics:
      net0: { bridge: vmbr0 }
`;

async function volumesOnStorage(lab: Lab): Promise<string[]> {
  const content = (await lab.client.request("GET", "/nodes/pve1/storage/local-lvm/content")) as Array<{ volid: string }>;
  return content
    .map((c) => c.volid)
    .filter((v) => volumeOwner(v) === 170)
    .sort();
}

describe("destroy names every volume it deletes", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
    const { plan, context } = await buildPlan(lab.client, desired(SPEC));
    const report = await applyPlan(lab.client, plan, { ...fastApply, cluster: context.cluster });
    assert.equal(report.ok, true, JSON.stringify(report.guests[0]));
    // scsi1 detached: its volume stays as unused0, which PVE destroys with the guest.
    await lab.client.request("PUT", "/nodes/pve1/qemu/170/config", { delete: "scsi1" });
  });
  after(async () => lab.close());

  it("lists the cloud-init volume, EFI vars, TPM state and unused volumes, exactly the ones that go", async () => {
    const before = await volumesOnStorage(lab);
    assert.ok(
      before.some((v) => v.includes("cloudinit")),
      `a cloud-init volume exists: ${before.join(", ")}`,
    );
    assert.ok(before.length >= 5, `disk, unused disk, cloud-init, EFI and TPM volumes: ${before.join(", ")}`);

    const plan = await buildDestroyPlan(lab.client, { desired: desired(SPEC) });
    const destroy = plan.guests[0]!.steps.find((s) => s.action === "destroy")!;
    assert.deepEqual(destroy.deletesVolumes, before, "the plan names every volume of the guest");
    for (const volume of before) assert.match(destroy.summary, new RegExp(volume.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));

    const report = await applyPlan(lab.client, plan, { ...fastApply, allowDataLoss: true, allowRestart: true });
    assert.equal(report.guests[0]!.result, "destroyed");
    assert.deepEqual(await volumesOnStorage(lab), [], "every volume the plan named is gone, and no other");
  });
});

describe("volumeOwner", () => {
  it("reads the owning vmid from PVE's volume names", () => {
    assert.equal(volumeOwner("local-lvm:vm-100-disk-0"), 100);
    assert.equal(volumeOwner("local:100/vm-100-disk-0.qcow2"), 100);
    assert.equal(volumeOwner("local-lvm:base-9000-disk-0/vm-101-disk-0"), 101);
    assert.equal(volumeOwner("local-lvm:vm-100-cloudinit"), 100);
    assert.equal(volumeOwner("local:iso/debian.iso"), undefined);
  });
});

describe("destroyStep with volumes of another guest", () => {
  it("names only the volumes the guest owns and says which it keeps", () => {
    const live = liveVmFromConfig(
      { vmid: 300, node: "pve1", status: "stopped" },
      {
        name: "borrower",
        scsi0: "local-lvm:vm-300-disk-0,size=2G",
        scsi1: "local-lvm:vm-999-disk-3,size=1G",
        ide2: "local-lvm:vm-300-cloudinit,media=cdrom",
        ide0: "local:iso/debian.iso,media=cdrom",
        sata0: "/dev/disk/by-id/ata-SOMEDISK,size=100G",
        unused0: "local-lvm:vm-300-disk-1",
      },
    );
    const step = destroyStep(GUEST_KINDS.qemu.destruction, live);
    assert.deepEqual(step.deletesVolumes, ["local-lvm:vm-300-cloudinit", "local-lvm:vm-300-disk-0", "local-lvm:vm-300-disk-1"]);
    assert.match(step.summary, /; keeps local-lvm:vm-999-disk-3 \(owned by another guest\)$/);
  });
});
