// netbox sync --lock-wait: a record whose guest is locked by a backup converges once the
// backup ends, within the wait, and the wait is shown through the apply events.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { obj } from "../support/netbox-http.js";
import { FAST_APPLY, type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";

describe("pvectl netbox sync with a held lock", () => {
  let lab: NetboxLab;
  before(async () => {
    lab = await startNetboxLab();
  });
  after(() => lab.close());

  test("waits on the backup's lock (shown) and stages the record once it is released", async () => {
    assert.equal((await lab.sync()).ok, true);
    const [web1] = lab.nb.admin.list(VMS, { name: "web-01" });
    const vmid = Number(obj(web1!.custom_fields).proxmox_vmid);
    // More memory is planned for web-01 while a backup of it runs for longer than the retries last.
    lab.nb.admin.update(VMS, Number(web1!.id), { status: "planned", memory: Number(web1!.memory) * 2 });
    lab.sim.admin.holdLock(vmid, "backup");
    setTimeout(() => lab.sim.admin.releaseLock(vmid), 1500);
    const waits: string[] = [];
    const report = await lab.sync({
      apply: { ...FAST_APPLY, lockWaitMs: 20_000 },
      onEvent: (e) => {
        if (e.type === "lock-wait") waits.push(`${e.guest.key}:${e.lock}`);
      },
    });
    assert.equal(report.ok, true, JSON.stringify(report.records));
    assert.deepEqual(waits.slice(0, 1), ["web-01:backup"]);
    const config = (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as { memory: string };
    assert.equal(Number(config.memory), Number(web1!.memory) * 2);
  });
});
