// `backup status` as its docs say: the guests no *enabled* backup job covers (a disabled job
// backs nothing up, though PVE's not-backed-up list counts it), templates left out.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { backupStatus } from "../../src/app/backup-list.js";
import { converge, type Lab, startLab } from "../support/engine-lab.js";

const SPEC = `vms:
  - { vmid: 601, name: web, node: pve1, memory: 256 }
  - { vmid: 602, name: db, node: pve1, memory: 256 }
  - { vmid: 609, name: tpl, node: pve1, memory: 256, template: true }
`;

describe("backup status", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  beforeEach(async () => {
    lab.sim.admin.reset();
    assert.equal((await converge(lab, SPEC)).report.ok, true);
  });
  after(() => lab.close());

  const uncovered = async () => (await backupStatus(lab.client, { all: true })).map((g) => g.vmid);

  it("leaves templates out", async () => {
    assert.deepEqual(await uncovered(), [601, 602]);
  });

  it("does not count a disabled job as coverage; an enabled one covers", async () => {
    await lab.client.request("POST", "/cluster/backup", { id: "off", schedule: "daily", vmid: "601", enabled: 0, storage: "local" });
    assert.deepEqual(await uncovered(), [601, 602], "a disabled job backs nothing up");
    await lab.client.request("POST", "/cluster/backup", { id: "on", schedule: "daily", vmid: "602", storage: "local" });
    assert.deepEqual(await uncovered(), [601]);
    await lab.client.request("PUT", "/cluster/backup/off", { enabled: 1 });
    assert.deepEqual(await uncovered(), []);
  });

  it("an enabled job's pool, or all minus exclude, covers as PVE's job selection does", async () => {
    await lab.client.request("POST", "/cluster/backup", { id: "most", schedule: "daily", all: 1, exclude: "602", storage: "local" });
    await lab.client.request("POST", "/cluster/backup", { id: "idle", schedule: "daily", all: 1, enabled: 0, storage: "local" });
    assert.deepEqual(await uncovered(), [602]);
  });
});
