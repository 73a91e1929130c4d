// A storage the user/token cannot see is not reported as missing: /cluster/resources lists a
// storage only with Datastore.Audit (or Datastore.AllocateSpace) on it, so the preflight says
// it is not visible and names the privilege and path. A storage that really is absent still
// says "does not exist".
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { buildPlan } from "../../src/engine/plan.js";
import { clientAs, desired, type Lab, startLab } from "../support/engine-lab.js";

const ON = (storage: string) => `vms:
  - vmid: 340
    name: hidden
    node: pve1
    disks:
      scsi0: { storage: ${storage}, size: 2G }
`;

describe("storages the user cannot see", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({
      config: {
        access: {
          users: [{ userid: "vmonly@pve", password: "vmonly123" }],
          acl: [
            { path: "/vms", roles: ["PVEVMAdmin"], users: ["vmonly@pve"] },
            { path: "/storage/local", roles: ["PVEDatastoreUser"], users: ["vmonly@pve"] },
          ],
        },
      },
    });
  });
  after(async () => lab.close());

  it("says `not visible` with Datastore.Audit and /storage/<id>, not `does not exist`", async () => {
    const vmonly = clientAs(lab, "vmonly@pve", "vmonly123");
    try {
      const { plan } = await buildPlan(vmonly, desired(ON("local-lvm")));
      const storage = plan.preflightErrors.filter((p) => p.kind === "storage");
      assert.deepEqual(
        storage.map((p) => [p.path, p.privilege]),
        [["/storage/local-lvm", "Datastore.Audit"]],
      );
      assert.match(
        storage[0]!.message,
        /^storage local-lvm is not visible to vmonly@pve: it lacks Datastore.Audit on \/storage\/local-lvm/,
      );
      assert.doesNotMatch(storage[0]!.message, /does not exist/);
    } finally {
      await vmonly.close();
    }
  });

  it("a storage that is absent for a user who may audit storages still does not exist", async () => {
    const { plan: root } = await buildPlan(lab.client, desired(ON("fast")));
    assert.deepEqual(
      root.preflightErrors.map((p) => p.message),
      ["storage fast does not exist on node pve1 (storages there: local, local-lvm, shared)"],
    );
  });
});
