// Volumes a restore creates besides the archive's disks. qemu-server (parse_backup_hints,
// restore_allocate_devices): a cloud-init drive gets the restored VM's own vm-<vmid>-cloudinit.
// pve-container (recover_config, create_disks): every volume mount point of the archived config
// is allocated anew, so one left out of the backup (backup=0) comes back empty, options kept.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ClusterConfig } from "../../src/sim/cluster/index.js";
import { Harness, rejects } from "./guests-harness.js";

type Row = Record<string, unknown>;
const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

async function backupOf(h: Harness, vmid: number): Promise<string> {
  await h.ok("POST", "/nodes/pve1/vzdump", { vmid: String(vmid), storage: "shared", compress: "zstd" });
  const list = (await h.call("GET", "/nodes/pve1/storage/shared/content", { content: "backup", vmid })) as Row[];
  return String(list.at(-1)?.volid);
}

const volids = (h: Harness, vmid: number) =>
  h.model.state.volumes
    .filter((v) => v.vmid === vmid && v.content !== "backup")
    .map((v) => v.volid)
    .sort();

describe("qmrestore and the cloud-init drive", () => {
  it("gives the restored VM its own cloud-init volume, on the archived storage or on `storage`", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", ide2: "local-lvm:cloudinit", ciuser: "ops" });
    const archive = await backupOf(h, 100);
    const upid = await h.ok("POST", "/nodes/pve1/qemu", { vmid: 300, archive });
    assert.equal((await h.config(300)).ide2, "local-lvm:vm-300-cloudinit,media=cdrom");
    assert.ok(h.task(upid).log.includes("new volume ID is 'local-lvm:vm-300-cloudinit'"));
    assert.deepEqual(volids(h, 300), ["local-lvm:vm-300-cloudinit", "local-lvm:vm-300-disk-0"]);
    // the source VM keeps its own; destroying the restored VM leaves it alone
    assert.equal((await h.config(100)).ide2, "local-lvm:vm-100-cloudinit,media=cdrom");
    await h.ok("DELETE", "/nodes/pve1/qemu/300");
    assert.deepEqual(volids(h, 100), ["local-lvm:vm-100-cloudinit", "local-lvm:vm-100-disk-0"]);

    await h.ok("POST", "/nodes/pve1/qemu", { vmid: 301, archive, storage: "shared" });
    assert.equal((await h.config(301)).ide2, "shared:301/vm-301-cloudinit.raw,media=cdrom");
  });
});

describe("vzrestore and mount points left out of the backup", () => {
  it("recreates a backup=0 volume mount point empty, at its size, with its options", async () => {
    const h = new Harness();
    await h.ok("POST", "/nodes/pve1/lxc", {
      vmid: 200,
      ostemplate: TEMPLATE,
      rootfs: "local-lvm:2",
      mp0: "local-lvm:3,mp=/scratch,backup=0",
      mp1: "local-lvm:1,mp=/data",
    });
    const archive = await backupOf(h, 200);
    await h.ok("POST", "/nodes/pve1/lxc", { vmid: 210, ostemplate: archive, restore: 1, storage: "local-lvm" });
    const cfg = await h.config(210, "pve1", "lxc");
    assert.match(String(cfg.mp0), /^local-lvm:vm-210-disk-\d,mp=\/scratch,backup=0,size=3G$/);
    assert.match(String(cfg.mp1), /^local-lvm:vm-210-disk-\d,mp=\/data,size=1G$/);
    assert.equal(volids(h, 210).length, 3);
    assert.notEqual(String(cfg.mp0).split(",")[0], String(cfg.mp1).split(",")[0]);
  });
});

describe("vzrestore without `storage`", () => {
  const withRootdirOnLocal: ClusterConfig = {
    nodes: 1,
    storages: [
      { id: "local", type: "dir", content: ["iso", "vztmpl", "backup", "rootdir"], path: "/var/lib/vz" },
      { id: "local-lvm", type: "lvmthin", content: ["images", "rootdir"] },
      { id: "shared", type: "nfs", content: ["images", "rootdir", "backup"], shared: true },
    ],
  };

  it("puts every volume mount point on `local`, as pve-container's create_vm defaults `storage`", async () => {
    const h = new Harness({ config: withRootdirOnLocal });
    await h.ok("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate: TEMPLATE, rootfs: "local-lvm:2", mp0: "shared:1,mp=/data" });
    const archive = await backupOf(h, 200);
    await h.ok("POST", "/nodes/pve1/lxc", { vmid: 210, ostemplate: archive, restore: 1 });
    const cfg = await h.config(210, "pve1", "lxc");
    assert.match(String(cfg.rootfs), /^local:210\/vm-210-disk-\d\.raw,size=2G$/);
    assert.match(String(cfg.mp0), /^local:210\/vm-210-disk-\d\.raw,mp=\/data,size=1G$/);
  });

  it("answers at once when `local` holds no container directories or the caller may not allocate on it", async () => {
    const h = new Harness();
    await h.ok("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate: TEMPLATE, rootfs: "local-lvm:2" });
    const archive = await backupOf(h, 200);
    const tasks = h.tasks.length;
    await rejects(
      h.call("POST", "/nodes/pve1/lxc", { vmid: 210, ostemplate: archive, restore: 1 }),
      400,
      "Parameter verification failed.",
      {
        storage: "storage 'local' does not support container directories",
      },
    );
    h.denied.add("/storage/local-lvm Datastore.AllocateSpace");
    await rejects(
      h.call("POST", "/nodes/pve1/lxc", { vmid: 210, ostemplate: archive, restore: 1, storage: "local-lvm" }),
      403,
      "Permission check failed (/storage/local-lvm, Datastore.AllocateSpace)",
    );
    assert.equal(h.tasks.length, tasks, "no task started");
    assert.equal(h.model.guest(210), undefined);
  });
});
