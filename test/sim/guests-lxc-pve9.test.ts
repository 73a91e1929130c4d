// Containers as pve-container (PVE 9) handles them: volume names per storage type, move_volume,
// resize, hotplug and pending, power and create errors, status fields, destroy.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";
const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f ops@example";

/** One node with every kind of container storage. */
function harness(deferTasks = false): Harness {
  return new Harness({
    deferTasks,
    config: {
      nodes: ["pve1"],
      bridges: ["vmbr0"],
      storages: [
        { id: "local", type: "dir", content: "iso,vztmpl,backup,rootdir,images" },
        { id: "local-lvm", type: "lvmthin", content: "images,rootdir" },
        { id: "tank", type: "zfspool", content: "images,rootdir" },
        { id: "ceph", type: "rbd", content: "images,rootdir" },
        { id: "isos", type: "dir", content: "iso,vztmpl" },
        { id: "fast", type: "btrfs", content: "images,rootdir" },
      ],
      content: [TEMPLATE, "local:iso/debian-13-netinst.iso"],
    },
  });
}

async function create(h: Harness, vmid: number, extra: Record<string, string | number> = {}): Promise<void> {
  await h.ok("POST", "/nodes/pve1/lxc", { vmid, ostemplate: TEMPLATE, rootfs: "local-lvm:4", ...extra });
}

const cfg = (h: Harness, vmid: number) => h.config(vmid, "pve1", "lxc");

describe("LXC volumes are named as pve-container's alloc_disk names them", () => {
  it("raw images on dir (size > 0) and block storages, subvols on ZFS and for size 0", async () => {
    const h = harness();
    await create(h, 200, { rootfs: "local:8", mp0: "tank:2,mp=/a", mp1: "local:0,mp=/b", mp2: "ceph:1,mp=/c", mp3: "local-lvm:1,mp=/d" });
    const c = await cfg(h, 200);
    assert.equal(c.rootfs, "local:200/vm-200-disk-0.raw,size=8G");
    assert.equal(c.mp0, "tank:subvol-200-disk-0,mp=/a,size=2G");
    assert.equal(c.mp1, "local:200/subvol-200-disk-1.subvol,mp=/b,size=0T");
    assert.equal(c.mp2, "ceph:vm-200-disk-0,mp=/c,size=1G");
    assert.equal(c.mp3, "local-lvm:vm-200-disk-0,mp=/d,size=1G");
    const formats = h.model.state.volumes.filter((v) => v.vmid === 200).map((v) => `${v.volid} ${v.format}`);
    assert.ok(formats.includes("tank:subvol-200-disk-0 subvol"));
    assert.ok(formats.includes("local:200/subvol-200-disk-1.subvol subvol"));
  });

  it("btrfs keeps the directory plugin's names, raw for VMs too, and names a linked clone without its base", async () => {
    const h = harness();
    await create(h, 200, { rootfs: "fast:4", mp0: "fast:0,mp=/a" });
    const c = await cfg(h, 200);
    assert.equal(c.rootfs, "fast:200/vm-200-disk-0.raw,size=4G");
    assert.equal(c.mp0, "fast:200/subvol-200-disk-1.subvol,mp=/a,size=0T");
    await h.createVm(100, { scsi0: "fast:2" });
    assert.equal((await h.config(100)).scsi0, "fast:100/vm-100-disk-0.raw,size=2G");
    await h.call("PUT", "/nodes/pve1/lxc/200/config", { delete: "mp0" });
    await h.call("POST", "/nodes/pve1/lxc/200/template");
    assert.equal((await cfg(h, 200)).rootfs, "fast:200/base-200-disk-0.raw,size=4G");
    await h.ok("POST", "/nodes/pve1/lxc/200/clone", { newid: 201 });
    assert.equal((await cfg(h, 201)).rootfs, "fast:201/vm-201-disk-0.raw,size=4G");
  });

  it("a ZFS template has basevol volumes and its linked clone a subvol on top", async () => {
    const h = harness();
    await create(h, 200, { rootfs: "tank:4" });
    assert.equal(await h.call("POST", "/nodes/pve1/lxc/200/template"), null);
    assert.match(h.lastTask().upid, /:vztemplate:200:/);
    assert.equal((await cfg(h, 200)).rootfs, "tank:basevol-200-disk-0,size=4G");
    await h.ok("POST", "/nodes/pve1/lxc/200/clone", { newid: 201 });
    assert.equal((await cfg(h, 201)).rootfs, "tank:basevol-200-disk-0/subvol-201-disk-0,size=4G");
    await h.ok("POST", "/nodes/pve1/lxc/200/clone", { newid: 202, full: 1, storage: "local-lvm" });
    assert.equal((await cfg(h, 202)).rootfs, "local-lvm:vm-202-disk-0,size=4G");
  });

  it("a subvol on a directory storage keeps its name as a template and cannot be linked-cloned", async () => {
    const h = harness();
    await create(h, 200, { rootfs: "local:0" });
    await h.call("POST", "/nodes/pve1/lxc/200/template");
    assert.equal((await cfg(h, 200)).rootfs, "local:200/subvol-200-disk-0.subvol,size=0T");
    // vmstatus: a rootfs without a size counts as 4 GiB
    const status = (await h.call("GET", "/nodes/pve1/lxc/200/status/current")) as Record<string, unknown>;
    assert.equal(status.maxdisk, 4 * 1024 ** 3);
    await rejects(
      h.call("POST", "/nodes/pve1/lxc/200/clone", { newid: 201 }),
      500,
      "Linked clone feature for 'local:200/subvol-200-disk-0.subvol' is not available",
    );
    assert.equal((await cfg(h, 200)).lock, undefined);
  });
});

describe("POST /nodes/{node}/lxc/{vmid}/move_volume", () => {
  it("copies a stopped CT's volume to another storage, keeps the source as unusedN, holds lock: disk meanwhile", async () => {
    const h = harness(true);
    await h.call("POST", "/nodes/pve1/lxc", {
      vmid: 200,
      ostemplate: TEMPLATE,
      rootfs: "local-lvm:4",
      mp0: "local-lvm:2,mp=/data,backup=1",
    });
    await h.runTasks();
    const upid = await h.call("POST", "/nodes/pve1/lxc/200/move_volume", { volume: "mp0", storage: "tank" });
    assert.match(String(upid), /:move_volume:200:/);
    assert.equal((await cfg(h, 200)).lock, "disk");
    await rejects(h.call("PUT", "/nodes/pve1/lxc/200/config", { memory: 1024 }), 500, "CT is locked (disk)");
    await h.runTasks();
    assert.equal(h.task(upid).exitstatus, "OK");
    const c = await cfg(h, 200);
    assert.equal(c.lock, undefined);
    assert.equal(c.mp0, "tank:subvol-200-disk-0,mp=/data,backup=1,size=2G");
    assert.equal(c.unused0, "local-lvm:vm-200-disk-1");
    await h.call("POST", "/nodes/pve1/lxc/200/move_volume", { volume: "rootfs", storage: "local", delete: 1 });
    await h.runTasks();
    assert.equal((await cfg(h, 200)).rootfs, "local:200/vm-200-disk-0.raw,size=4G");
    assert.equal(
      h.model.state.volumes.some((v) => v.volid === "local-lvm:vm-200-disk-0"),
      false,
    );
  });

  it("refuses what pve-container refuses", async () => {
    const h = harness();
    await create(h, 200, { mp0: "local-lvm:1,mp=/data" });
    await h.call("PUT", "/nodes/pve1/lxc/200/config", { delete: "mp0" });
    await rejects(
      h.call("POST", "/nodes/pve1/lxc/200/move_volume", { volume: "unused0", storage: "tank" }),
      500,
      "cannot move volume 'unused0', only configured volumes can be moved to another storage",
    );
    await rejects(h.call("POST", "/nodes/pve1/lxc/200/move_volume", { volume: "mp0", storage: "tank" }), 500, "format error", {
      volume: "property is missing and it is not optional",
    });
    await rejects(
      h.call("POST", "/nodes/pve1/lxc/200/move_volume", { volume: "rootfs", storage: "tank", "target-vmid": 201 }),
      500,
      "either set storage or target-vmid, but not both",
    );
    const both = "both 'storage' and 'target-vmid' missing, either needs to be set";
    await rejects(h.call("POST", "/nodes/pve1/lxc/200/move_volume", { volume: "rootfs" }), 400, "Parameter verification failed.", {
      storage: both,
      "target-vmid": both,
    });
    await h.ok("POST", "/nodes/pve1/lxc/200/status/start");
    await rejects(
      h.call("POST", "/nodes/pve1/lxc/200/move_volume", { volume: "rootfs", storage: "tank" }),
      500,
      "cannot move volumes of a running container",
    );
  });

  it("keeps a template's base volume that linked clones use, even with delete=1 (a warning)", async () => {
    const h = harness();
    await create(h, 200);
    await h.call("POST", "/nodes/pve1/lxc/200/template");
    await h.ok("POST", "/nodes/pve1/lxc/200/clone", { newid: 201 });
    const upid = await h.call("POST", "/nodes/pve1/lxc/200/move_volume", { volume: "rootfs", storage: "ceph", delete: 1 });
    assert.equal(h.task(upid).exitstatus, "WARNINGS: 1");
    const c = await cfg(h, 200);
    assert.equal(c.rootfs, "ceph:base-200-disk-0,size=4G");
    assert.equal(c.unused0, "local-lvm:base-200-disk-0");
    assert.ok(h.model.state.volumes.some((v) => v.volid === "local-lvm:base-200-disk-0"));
  });

  it("moves a volume to another container under the target's name", async () => {
    const h = harness();
    await create(h, 200, { mp0: "local-lvm:2,mp=/data" });
    await create(h, 300);
    const upid = await h.ok("POST", "/nodes/pve1/lxc/200/move_volume", { volume: "mp0", "target-vmid": 300, "target-volume": "mp1" });
    assert.match(upid, /:move_volume:200-mp0>300-mp1:/);
    assert.equal((await cfg(h, 200)).mp0, undefined);
    assert.equal((await cfg(h, 300)).mp1, "local-lvm:vm-300-disk-1,mp=/data,size=2G");
    await rejects(
      h.call("POST", "/nodes/pve1/lxc/300/move_volume", { volume: "rootfs", "target-vmid": 200 }),
      500,
      "Cannot move to/from 'rootfs'",
    );
  });
});

describe("PUT /nodes/{node}/lxc/{vmid}/resize", () => {
  it("grows in a `resize` task and refuses a shrink or the same size at once", async () => {
    const h = harness();
    await create(h, 200, { mp0: "tank:2,mp=/data" });
    assert.match(await h.ok("PUT", "/nodes/pve1/lxc/200/resize", { disk: "rootfs", size: "+1G" }), /:resize:200:/);
    assert.equal((await cfg(h, 200)).rootfs, "local-lvm:vm-200-disk-0,size=5G");
    await h.ok("PUT", "/nodes/pve1/lxc/200/resize", { disk: "mp0", size: "3G" });
    assert.equal((await cfg(h, 200)).mp0, "tank:subvol-200-disk-0,mp=/data,size=3G");
    const tasks = h.tasks.length;
    await rejects(h.call("PUT", "/nodes/pve1/lxc/200/resize", { disk: "rootfs", size: "2G" }), 500, "unable to shrink disk size");
    await rejects(h.call("PUT", "/nodes/pve1/lxc/200/resize", { disk: "rootfs", size: "5G" }), 500, "disk is already at specified size");
    assert.equal(h.tasks.length, tasks);
  });
});

describe("config updates: hotplug and pending as update_pct_config", () => {
  it("a running CT drops swap and unusedN at once, keeps net10's removal pending", async () => {
    const h = harness();
    await create(h, 200, { mp0: "local-lvm:1,mp=/data", net0: "name=eth0,bridge=vmbr0", net10: "name=eth10,bridge=vmbr0" });
    await h.call("PUT", "/nodes/pve1/lxc/200/config", { delete: "mp0" });
    await h.ok("POST", "/nodes/pve1/lxc/200/status/start");
    await h.call("PUT", "/nodes/pve1/lxc/200/config", { delete: "swap,unused0,net0,net10,nameserver" });
    const current = (await h.call("GET", "/nodes/pve1/lxc/200/config", { current: 1 })) as Record<string, unknown>;
    assert.equal(current.swap, undefined);
    assert.equal(current.unused0, undefined);
    assert.equal(current.net0, undefined);
    assert.notEqual(current.net10, undefined);
    assert.equal(
      h.model.state.volumes.some((v) => v.volid === "local-lvm:vm-200-disk-1"),
      false,
    );
    const pending = (await h.call("GET", "/nodes/pve1/lxc/200/pending")) as Array<Record<string, unknown>>;
    assert.equal(pending.find((p) => p.key === "net10")?.delete, 1);
  });

  it("a running CT's changed mount point waits as asked and gets its volume at the next start", async () => {
    const h = harness();
    await create(h, 200, { mp0: "local-lvm:1,mp=/data" });
    await h.ok("POST", "/nodes/pve1/lxc/200/status/start");
    await h.call("PUT", "/nodes/pve1/lxc/200/config", { mp0: "tank:3,mp=/data", mp1: "tank:1,mp=/new" });
    const pending = (await h.call("GET", "/nodes/pve1/lxc/200/pending")) as Array<Record<string, unknown>>;
    assert.deepEqual(
      pending.find((p) => p.key === "mp0"),
      { key: "mp0", value: "local-lvm:vm-200-disk-1,mp=/data,size=1G", pending: "tank:3,mp=/data" },
    );
    // a new mount point is hot-plugged (and allocated) at once
    assert.equal(pending.find((p) => p.key === "mp1")?.value, "tank:subvol-200-disk-0,mp=/new,size=1G");
    assert.equal(h.model.state.volumes.filter((v) => v.storage === "tank").length, 1);
    await h.ok("POST", "/nodes/pve1/lxc/200/status/reboot");
    const c = await cfg(h, 200);
    assert.equal(c.mp0, "tank:subvol-200-disk-1,mp=/data,size=3G");
    assert.equal(c.unused0, "local-lvm:vm-200-disk-1");
  });

  it("refuses to delete required options and to touch unprivileged", async () => {
    const h = harness();
    await create(h, 200);
    await rejects(h.call("PUT", "/nodes/pve1/lxc/200/config", { delete: "memory" }), 500, "unable to delete required option 'memory'");
    await rejects(
      h.call("PUT", "/nodes/pve1/lxc/200/config", { unprivileged: 0 }),
      500,
      "unable to modify read-only option: 'unprivileged'",
    );
    await rejects(
      h.call("PUT", "/nodes/pve1/lxc/200/config", { mp0: "isos:1,mp=/x" }),
      500,
      "storage 'isos' does not allow content type 'rootdir' (Container)",
    );
    await h.call("PUT", "/nodes/pve1/lxc/200/config", { protection: 1 });
    await rejects(h.call("PUT", "/nodes/pve1/lxc/200/config", { mp0: "tank:1,mp=/x" }), 500, "can't update CT 200 drive 'mp0'");
  });
});

describe("power operations answer as API2/LXC/Status.pm", () => {
  it("reboot of a stopped CT says VM; template and lock errors end the task", async () => {
    const h = harness();
    await create(h, 200);
    await rejects(h.call("POST", "/nodes/pve1/lxc/200/status/reboot"), 500, "VM 200 not running");
    h.model.guest(200)!.config.lock = "backup";
    const upid = await h.call("POST", "/nodes/pve1/lxc/200/status/start");
    assert.equal(h.task(upid).exitstatus, "CT is locked (backup)");
    delete h.model.guest(200)!.config.lock;
    await h.call("POST", "/nodes/pve1/lxc/200/template");
    const again = await h.call("POST", "/nodes/pve1/lxc/200/status/start");
    assert.equal(h.task(again).exitstatus, "you can't start a CT if it's a template");
  });
});

describe("migrate as pve-container", () => {
  it("a running CT with online=1 passes the API and fails in the vzmigrate task", async () => {
    const h = new Harness({ nodes: 2 });
    await h.ok("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate: TEMPLATE, rootfs: "shared:4", start: 1 });
    const upid = await h.call("POST", "/nodes/pve1/lxc/200/migrate", { target: "pve2", online: 1 });
    // AbstractMigrate wraps prepare's error: the task ends "migration aborted" and logs why
    assert.equal(h.task(upid).exitstatus, "migration aborted");
    assert.ok(h.task(upid).log.includes("ERROR: migration aborted (duration 00:00:00): lxc live migration is currently not implemented"));
    assert.equal(h.model.guest(200)?.node, "pve1");
    assert.equal((await cfg(h, 200)).lock, undefined);
  });
});

describe("create as create_vm in PVE 9", () => {
  it("a template that is not there fails the task and leaves no volume; a wrong content type is refused at once", async () => {
    const h = harness();
    const upid = await h.call("POST", "/nodes/pve1/lxc", { vmid: 402, ostemplate: "local:vztmpl/nope.tar.zst", rootfs: "local-lvm:4" });
    assert.equal(h.task(upid).exitstatus, "unable to create CT 402 - can't find file 'local:vztmpl/nope.tar.zst'");
    assert.equal(h.model.guest(402), undefined);
    assert.deepEqual(
      h.model.state.volumes.filter((v) => v.vmid === 402),
      [],
    );
    await rejects(
      h.call("POST", "/nodes/pve1/lxc", { vmid: 402, ostemplate: "local:iso/debian-13-netinst.iso", rootfs: "local-lvm:4" }),
      500,
      "unable to use volume local:iso/debian-13-netinst.iso - content type needs to be 'vztmpl'",
    );
    await rejects(
      h.call("POST", "/nodes/pve1/lxc", { vmid: 402, ostemplate: "local-lvm:vztmpl/x.tar.zst", rootfs: "local-lvm:4" }),
      500,
      "unable to parse lvm volume name 'vztmpl/x.tar.zst'",
    );
    await rejects(
      h.call("POST", "/nodes/pve1/lxc", { vmid: 402, ostemplate: TEMPLATE, mp0: "local-lvm:1,mp=/x" }),
      500,
      "mount points configured, but 'rootfs' not set - aborting",
    );
    h.model.state.storages.find((s) => s.id === "tank")!.nodes = ["pve9"];
    await rejects(
      h.call("POST", "/nodes/pve1/lxc", { vmid: 402, ostemplate: TEMPLATE, rootfs: "tank:1" }),
      500,
      "storage 'tank' is not available on node 'pve1'",
    );
    assert.equal(h.model.guest(402), undefined);
  });

  it("start=1 starts the new CT in a vzstart task of its own", async () => {
    const h = harness(true);
    const upid = await h.call("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate: TEMPLATE, rootfs: "local-lvm:4", start: 1 });
    await h.runTasks();
    assert.equal(h.task(upid).exitstatus, "OK");
    assert.deepEqual(
      h.tasks.map((t) => `${t.options.type}:${t.exitstatus}`),
      ["vzcreate:OK", "vzstart:OK"],
    );
    assert.equal(h.model.guest(200)?.status, "running");
  });

  it("privileged when asked (no unprivileged key), secrets never in the config, hostname CT<vmid>", async () => {
    const h = harness();
    await rejects(
      create(h, 200, { "ssh-public-keys": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBx root@x" }),
      500,
      "SSH public key validation error",
    );
    await create(h, 200, { unprivileged: 0, password: "secret12", cpuunits: 50_000, "ssh-public-keys": `\n${KEY}\n` });
    const c = await cfg(h, 200);
    assert.equal(c.unprivileged, undefined);
    assert.equal(c.hostname, "CT200");
    assert.equal(c.password, undefined);
    assert.equal(c["ssh-public-keys"], undefined);
    assert.equal(c.cpuunits, 10_000);
    await create(h, 201);
    assert.equal((await cfg(h, 201)).unprivileged, 1);
  });
});

describe("status and destroy", () => {
  it("status/current of a running CT carries PVE 9's pressure figures and its cpus", async () => {
    const h = harness();
    await create(h, 200, { cpulimit: 2, swap: 0 });
    const stopped = (await h.call("GET", "/nodes/pve1/lxc/200/status/current")) as Record<string, unknown>;
    assert.equal(stopped.pressurecpusome, undefined);
    assert.equal(stopped.cpus, 2);
    assert.equal(stopped.maxswap, 0);
    await h.ok("POST", "/nodes/pve1/lxc/200/status/start");
    const running = (await h.call("GET", "/nodes/pve1/lxc/200/status/current")) as Record<string, unknown>;
    for (const key of ["pressurecpusome", "pressureiosome", "pressureiofull", "pressurememorysome", "pressurememoryfull"]) {
      assert.equal(typeof running[key], "number", key);
    }
    assert.equal(running.pressurecpufull, undefined);
  });

  it("interfaces carry PVE 9's hardware-address and ip-addresses beside the old keys", async () => {
    const h = harness();
    await create(h, 200, { net0: "name=eth0,bridge=vmbr0,ip=10.1.2.3/24", start: 1 });
    const ifaces = (await h.call("GET", "/nodes/pve1/lxc/200/interfaces")) as Array<Record<string, unknown>>;
    const eth0 = ifaces.find((i) => i.name === "eth0") as Record<string, unknown>;
    assert.equal(eth0["hardware-address"], eth0.hwaddr);
    assert.equal(eth0.inet, "10.1.2.3/24");
    assert.deepEqual((eth0["ip-addresses"] as unknown[])[0], { "ip-address": "10.1.2.3", "ip-address-type": "inet", prefix: 24 });
  });

  it("force destroys a running CT with rootfs, every mount point and unused volume", async () => {
    const h = harness();
    await create(h, 200, { mp0: "tank:1,mp=/a", mp1: "local:1,mp=/b" });
    await h.call("PUT", "/nodes/pve1/lxc/200/config", { delete: "mp1" });
    await h.ok("POST", "/nodes/pve1/lxc/200/status/start");
    await rejects(h.call("DELETE", "/nodes/pve1/lxc/200"), 500, "unable to destroy CT 200 - container is running");
    const upid = await h.call("DELETE", "/nodes/pve1/lxc/200", { force: 1 });
    assert.match(h.task(upid).exitstatus ?? "", /^WARNINGS/);
    assert.equal(h.model.guest(200), undefined);
    assert.deepEqual(
      h.model.state.volumes.filter((v) => v.vmid === 200),
      [],
    );
  });

  it("destroy-unreferenced-disks also frees the vmid's volumes no config names; purge drops it from backup jobs", async () => {
    const h = harness();
    await create(h, 200);
    await create(h, 201);
    await h.call("POST", "/nodes/pve1/storage/local-lvm/content", { vmid: 200, filename: "vm-200-disk-7", size: "1G" });
    await h.call("POST", "/nodes/pve1/storage/local-lvm/content", { vmid: 201, filename: "vm-201-disk-7", size: "1G" });
    await h.call("POST", "/cluster/backup", { vmid: "200,201", schedule: "daily", storage: "local" });
    await h.ok("DELETE", "/nodes/pve1/lxc/200", { "destroy-unreferenced-disks": 1, purge: 1 });
    await h.ok("DELETE", "/nodes/pve1/lxc/201");
    assert.deepEqual(
      h.model.state.volumes.filter((v) => v.vmid === 200).map((v) => v.volid),
      [],
    );
    assert.deepEqual(
      h.model.state.volumes.filter((v) => v.vmid === 201).map((v) => v.volid),
      ["local-lvm:vm-201-disk-7"],
    );
    assert.equal(h.model.state.backupJobs[0]?.vmid, "201");
  });
});
