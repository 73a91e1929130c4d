import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/engine/apply.js";
import { PreflightFailedError } from "../../src/engine/errors.js";
import { buildPlan } from "../../src/engine/plan.js";
import { clientAs, desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const ONE = (over: Partial<Record<string, string>> = {}) => `
vms:
  - vmid: 210
    name: pre1
    node: ${over.node ?? "pve1"}
    power: running
    memory: 512
    disks:
      scsi0: { storage: ${over.storage ?? "local-lvm"}, size: 2G }
    cdroms:
      ide2: { iso: "${over.iso ?? "local:iso/debian-13-netinst.iso"}" }
    nics:
      net0: { bridge: ${over.bridge ?? "vmbr0"} }
`;

describe("preflight", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({
      config: {
        content: ["local:iso/debian-13-netinst.iso", "local:import/noble.qcow2"],
        access: {
          users: [{ userid: "deploy@pve", password: "deploy123" }],
          acl: [{ path: "/vms", roles: ["PVEVMUser"], users: ["deploy@pve"] }],
        },
      },
    });
  });
  after(async () => lab.close());

  it("finds nothing wrong with a spec that matches the cluster", async () => {
    const { plan } = await buildPlan(lab.client, desired(ONE()));
    assert.deepEqual(plan.preflightErrors, []);
  });

  it("reports a missing storage, bridge and ISO together, and apply refuses to start", async () => {
    const { plan } = await buildPlan(lab.client, desired(ONE({ storage: "fast", bridge: "vmbr9", iso: "local:iso/nope.iso" })));
    assert.deepEqual(
      plan.preflightErrors.map((p) => [p.kind, p.message]),
      [
        ["storage", "storage fast does not exist on node pve1 (storages there: local, local-lvm, shared)"],
        ["bridge", "bridge vmbr9 does not exist on node pve1 (bridges there: vmbr0, vmbr1)"],
        ["iso", "ISO local:iso/nope.iso is not in storage local on node pve1; upload it or fix the path"],
      ],
    );
    await assert.rejects(applyPlan(lab.client, plan, fastApply), PreflightFailedError);
    const guests = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as unknown[];
    assert.equal(guests.length, 0, "nothing was created");
  });

  it("reports a storage without the content type and an offline node", async () => {
    const { plan: wrongContent } = await buildPlan(lab.client, desired(ONE({ storage: "local" })));
    assert.deepEqual(
      wrongContent.preflightErrors.map((p) => p.message),
      ["storage local on node pve1 does not hold content type images (it holds: backup, import, iso, snippets, vztmpl)"],
    );
    lab.sim.admin.setNodeOnline("pve2", false);
    try {
      const { plan: offline } = await buildPlan(lab.client, desired(ONE({ node: "pve2" })));
      assert.deepEqual(
        offline.preflightErrors.map((p) => p.message),
        ["node pve2 is offline; nothing can change on it until it is back"],
      );
    } finally {
      lab.sim.admin.setNodeOnline("pve2", true);
    }
  });

  it("checks the image a disk is imported from, on the right storage and content type", async () => {
    const imported = (from: string) => `
vms:
  - vmid: 211
    name: pre2
    node: pve1
    disks:
      scsi0: { storage: local-lvm, importFrom: "${from}" }
`;
    assert.deepEqual((await buildPlan(lab.client, desired(imported("local:import/noble.qcow2")))).plan.preflightErrors, []);
    const { plan: missing } = await buildPlan(lab.client, desired(imported("local:import/nope.qcow2")));
    assert.deepEqual(
      missing.preflightErrors.map((p) => [p.kind, p.guest, p.message]),
      [["image", "pre2", "image local:import/nope.qcow2 is not in storage local on node pve1; upload it or fix the path"]],
    );
    const { plan: wrongStorage } = await buildPlan(lab.client, desired(imported("local-lvm:import/noble.qcow2")));
    assert.deepEqual(
      wrongStorage.preflightErrors.map((p) => p.message),
      ["storage local-lvm on node pve1 does not hold content type import (it holds: images, rootdir)"],
    );
  });

  it("lists every privilege the user lacks (path, privilege) before anything changes", async () => {
    const deploy = clientAs(lab, "deploy@pve", "deploy123");
    try {
      const { plan } = await buildPlan(deploy, desired(ONE()));
      const missing = plan.preflightErrors.filter((p) => p.kind === "permission").map((p) => `${p.path} ${p.privilege}`);
      assert.deepEqual(missing.sort(), [
        "/sdn/zones/localnetwork/vmbr0 SDN.Use",
        // the ISO is read from its storage (PVE's check_volume_access)
        "/storage/local Datastore.AllocateSpace or Datastore.Audit",
        "/storage/local-lvm Datastore.AllocateSpace",
        // its disk and CD-ROM need no VM.Config.* on create (qemu-server's create_vm checks none)
        "/vms/210 VM.Allocate",
        "/vms/210 VM.Config.Memory",
        "/vms/210 VM.Config.Network",
        "/vms/210 VM.Config.Options",
      ]);
      assert.match(
        plan.preflightErrors.find((p) => p.privilege === "VM.Allocate")!.message,
        /^deploy@pve lacks VM.Allocate on \/vms\/210 \(needed by step pre1\/1-create\)$/,
      );
    } finally {
      await deploy.close();
    }
  });
});
