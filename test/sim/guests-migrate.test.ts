import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

describe("migration", () => {
  it("moves a stopped VM and its local disks to the target node", async () => {
    const h = new Harness({ deferTasks: true });
    await h.call("POST", "/nodes/pve1/qemu", { vmid: 100, scsi0: "local-lvm:4", scsi1: "shared:1" });
    await h.runTasks();
    const upid = await h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2" });
    assert.match(String(upid), /^UPID:pve1:.*:qmigrate:100:/);
    assert.equal((await h.config(100)).lock, "migrate");
    await h.runTasks();
    assert.equal(h.task(upid).exitstatus, "OK");
    assert.equal((await h.config(100, "pve2")).lock, undefined);
    const on2 = (await h.call("GET", "/nodes/pve2/storage/local-lvm/content")) as Array<Record<string, unknown>>;
    assert.deepEqual(on2.map((c) => c.volid), ["local-lvm:vm-100-disk-0"]);
    const res = (await h.call("GET", "/cluster/resources", { type: "vm" })) as Array<Record<string, unknown>>;
    assert.equal(res[0]?.node, "pve2");
  });

  it("refuses what PVE refuses", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", start: 1 });
    await rejects(h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve1" }), 400, "Parameter verification failed.", {
      target: "target is local node.",
    });
    await rejects(h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2" }), 500, "can't migrate running VM without --online");
    await rejects(
      h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2", online: 1 }),
      500,
      "can't live migrate attached local disks without with-local-disks option",
    );
    await h.ok("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2", online: 1, "with-local-disks": 1 });
    const status = (await h.call("GET", "/nodes/pve2/qemu/100/status/current")) as Record<string, unknown>;
    assert.equal(status.status, "running");
    await h.createVm(101, { ide2: "local:iso/debian-13-netinst.iso,media=cdrom" });
    await rejects(
      h.call("POST", "/nodes/pve1/qemu/101/migrate", { target: "pve3" }),
      500,
      "can't migrate local cdrom drive (referenced in 'ide2')",
    );
  });

  it("restart-migrates a running container", async () => {
    const h = new Harness();
    await h.ok("POST", "/nodes/pve1/lxc", {
      vmid: 200,
      ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
      rootfs: "shared:2",
      start: 1,
    });
    await rejects(
      h.call("POST", "/nodes/pve1/lxc/200/migrate", { target: "pve3" }),
      500,
      "can't migrate running container without --online or --restart",
    );
    assert.match(await h.ok("POST", "/nodes/pve1/lxc/200/migrate", { target: "pve3", restart: 1 }), /:vzmigrate:200:/);
    const status = (await h.call("GET", "/nodes/pve3/lxc/200/status/current")) as Record<string, unknown>;
    assert.equal(status.status, "running");
  });
});
