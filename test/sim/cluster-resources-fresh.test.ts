// /cluster/resources keeps each guest's entry between calls (see handlers/guest-resource.ts).
// Whatever changes a guest, through which path, the next listing must show it: these tests list
// once (so every entry is kept), change the guest, and list again.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness } from "./guests-harness.js";

type Row = Record<string, unknown>;

async function entry(h: Harness, vmid: number): Promise<Row> {
  const rows = (await h.call("GET", "/cluster/resources", { type: "vm" })) as Row[];
  const row = rows.find((r) => r.vmid === vmid);
  assert.ok(row, `vmid ${vmid} is listed`);
  return row;
}

async function listedTwice(h: Harness, vmid: number, change: () => Promise<unknown> | unknown): Promise<[Row, Row]> {
  const before = await entry(h, vmid);
  await change();
  return [before, await entry(h, vmid)];
}

describe("/cluster/resources after changes", () => {
  it("shows a rename, a memory and CPU change and new tags made through the API", async () => {
    const h = new Harness();
    await h.createVm(100, { name: "old", memory: 1024, cores: 1, tags: "a" });
    const [before, after] = await listedTwice(h, 100, () =>
      h.call("PUT", "/nodes/pve1/qemu/100/config", { name: "new", memory: 4096, cores: 4, tags: "b;c" }),
    );
    assert.deepEqual([before.name, before.maxmem, before.maxcpu, before.tags], ["old", 1024 * 1024 ** 2, 1, "a"]);
    assert.deepEqual([after.name, after.maxmem, after.maxcpu, after.tags], ["new", 4096 * 1024 ** 2, 4, "b;c"]);
  });

  it("shows a config changed in place, the way handlers change it, without any request", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:8" });
    const [before, after] = await listedTwice(h, 100, () => {
      const guest = h.model.guest(100);
      assert.ok(guest);
      guest.config.scsi0 = String(guest.config.scsi0).replace("size=8G", "size=20G");
      guest.config.lock = "backup";
    });
    assert.equal(before.maxdisk, 8 * 1024 ** 3);
    assert.equal(before.lock, undefined);
    assert.equal(after.maxdisk, 20 * 1024 ** 3);
    assert.equal(after.lock, "backup");
  });

  it("follows the boot order when a disk is added ahead of the old boot disk", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:8", boot: "order=scsi0" });
    const [, after] = await listedTwice(h, 100, () =>
      h.call("PUT", "/nodes/pve1/qemu/100/config", { scsi1: "local-lvm:16", boot: "order=scsi1;scsi0" }),
    );
    assert.equal(after.maxdisk, 16 * 1024 ** 3);
  });

  it("shows start and stop, with usage figures only while running", async () => {
    const h = new Harness();
    await h.createVm(100);
    const [stopped, running] = await listedTwice(h, 100, () => h.call("POST", "/nodes/pve1/qemu/100/status/start"));
    assert.equal(stopped.status, "stopped");
    assert.equal(stopped.mem, 0);
    assert.equal(running.status, "running");
    assert.ok((running.mem as number) > 0);
    h.clock += 30;
    const later = await entry(h, 100);
    assert.equal(later.uptime, (running.uptime as number) + 30, "usage moves with time between listings");
    await h.call("POST", "/nodes/pve1/qemu/100/status/stop");
    const after = await entry(h, 100);
    assert.deepEqual([after.status, after.mem, after.uptime], ["stopped", 0, 0]);
  });

  it("shows pool membership, node loss and a pending rename", async () => {
    const h = new Harness();
    await h.createVm(100, {}, "pve2");
    await h.call("POST", "/pools", { poolid: "web" });
    const [, pooled] = await listedTwice(h, 100, () => h.call("PUT", "/pools", { poolid: "web", vms: "100" }));
    assert.equal(pooled.pool, "web");
    const [, offline] = await listedTwice(h, 100, () => h.model.setNodeOnline("pve2", false));
    assert.equal(offline.status, "unknown");
    h.model.setNodeOnline("pve2", true);
    const guest = h.model.guest(100);
    assert.ok(guest);
    const [, renamed] = await listedTwice(h, 100, () => {
      guest.pending.name = "pending-name";
    });
    assert.equal(renamed.name, "pending-name");
  });

  it("agrees with each guest's status/current after a mixed series of changes", async () => {
    const h = new Harness({ nodes: 2 });
    for (const vmid of [100, 101, 102]) await h.createVm(vmid, { scsi0: "local-lvm:4", memory: 512 });
    await entry(h, 100);
    await h.call("PUT", "/nodes/pve1/qemu/100/resize", { disk: "scsi0", size: "+4G" });
    await h.call("PUT", "/nodes/pve1/qemu/101/config", { memory: 2048, name: "renamed" });
    await h.call("POST", "/nodes/pve1/qemu/102/status/start");
    const rows = (await h.call("GET", "/cluster/resources", { type: "vm" })) as Row[];
    for (const row of rows) {
      const current = (await h.call("GET", `/nodes/pve1/qemu/${row.vmid}/status/current`)) as Row;
      assert.deepEqual(
        [row.name, row.status, row.maxmem, row.maxdisk, row.maxcpu],
        [current.name, current.status, current.maxmem, current.maxdisk, current.cpus],
        `vmid ${row.vmid}`,
      );
    }
  });

  it("moves a running guest's usage with the clock, and restarts its uptime after a stop and start in the same second", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", net0: "virtio,bridge=vmbr0", start: 1 });
    h.clock += 100;
    const first = await entry(h, 100);
    assert.deepEqual(await entry(h, 100), first, "the same second lists the same figures");
    h.clock += 30;
    const later = await entry(h, 100);
    assert.equal(later.uptime, (first.uptime as number) + 30);
    assert.ok((later.netin as number) > (first.netin as number));
    await h.call("POST", "/nodes/pve1/qemu/100/status/stop");
    await h.call("POST", "/nodes/pve1/qemu/100/status/start");
    const restarted = await entry(h, 100);
    assert.equal(restarted.status, "running");
    assert.equal(restarted.uptime, 0);
  });
});
