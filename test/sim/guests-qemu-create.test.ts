import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

describe("QEMU create", () => {
  it("allocates vm-<vmid>-disk-N volumes, generates BC:24:11 MACs and the auto fields", async () => {
    const h = new Harness();
    await h.createVm(100, {
      scsi0: "local-lvm:32,iothread=1",
      scsi1: "local-lvm:8",
      ide2: "local:iso/debian-13-netinst.iso,media=cdrom",
      net0: "virtio,bridge=vmbr0,firewall=1",
      scsihw: "virtio-scsi-single",
      ostype: "l26",
    });
    const cfg = await h.config(100);
    assert.equal(cfg.scsi0, "local-lvm:vm-100-disk-0,iothread=1,size=32G");
    assert.equal(cfg.scsi1, "local-lvm:vm-100-disk-1,size=8G");
    assert.equal(cfg.ide2, "local:iso/debian-13-netinst.iso,media=cdrom");
    assert.match(String(cfg.net0), /^virtio=BC:24:11:[0-9A-F]{2}:[0-9A-F]{2}:[0-9A-F]{2},bridge=vmbr0,firewall=1$/);
    assert.equal(cfg.boot, "order=scsi0;ide2;net0");
    assert.match(String(cfg.smbios1), /^uuid=[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(String(cfg.vmgenid), /^[0-9a-f]{8}-/);
    assert.match(String(cfg.meta), /^creation-qemu=[\d.]+,ctime=\d+$/);
    assert.equal(cfg.memory, "2048");
    assert.equal(cfg.cores, 2);
    assert.equal(cfg.name, "vm100");
    assert.match(String(cfg.digest), /^[0-9a-f]{40}$/);
    assert.equal(cfg.lock, undefined);
    const content = (await h.call("GET", "/nodes/pve1/storage/local-lvm/content")) as Array<Record<string, unknown>>;
    assert.deepEqual(
      content.map((c) => [c.volid, c.size, c.vmid, c.format]),
      [
        ["local-lvm:vm-100-disk-0", 32 * 1024 ** 3, 100, "raw"],
        ["local-lvm:vm-100-disk-1", 8 * 1024 ** 3, 100, "raw"],
      ],
    );
  });

  it("uses raw files under <vmid>/ on the shared (file-based) storage (storage_default_format: the plugin default)", async () => {
    const h = new Harness();
    await h.createVm(101, { virtio0: "shared:4" });
    assert.equal((await h.config(101)).virtio0, "shared:101/vm-101-disk-0.raw,size=4G");
  });

  it("allocates in qemu-server's drive order: ide, scsi, virtio, sata, then efidisk0 and tpmstate0", async () => {
    const h = new Harness();
    await h.createVm(100, {
      bios: "ovmf",
      tpmstate0: "local-lvm:1,version=v2.0",
      efidisk0: "local-lvm:1,efitype=4m",
      sata1: "local-lvm:1",
      sata0: "local-lvm:1",
      virtio0: "local-lvm:1",
      scsi10: "local-lvm:1",
      scsi2: "local-lvm:1",
      ide0: "local-lvm:1",
    });
    const cfg = await h.config(100);
    const disk = (key: string) => /vm-100-disk-(\d+)/.exec(String(cfg[key]))?.[1];
    assert.deepEqual(["ide0", "scsi2", "scsi10", "virtio0", "sata0", "sata1", "efidisk0", "tpmstate0"].map(disk), [
      "0",
      "1",
      "2",
      "3",
      "4",
      "5",
      "6",
      "7",
    ]);
  });

  it("drops format= from the drive once the volume exists, the volume name carrying it (create_disks)", async () => {
    const h = new Harness();
    await h.createVm(101, {
      scsi0: "local-lvm:1,format=raw",
      scsi1: "shared:1,format=qcow2",
      scsi2: "shared:1,format=raw,cache=none",
      tpmstate0: "shared:1,version=v2.0",
      ide2: "shared:cloudinit,format=raw",
    });
    const cfg = await h.config(101);
    // numbers are per storage (find_free_diskname looks at one storage)
    assert.equal(cfg.scsi0, "local-lvm:vm-101-disk-0,size=1G");
    assert.equal(cfg.scsi1, "shared:101/vm-101-disk-0.qcow2,size=1G");
    assert.equal(cfg.scsi2, "shared:101/vm-101-disk-1.raw,cache=none,size=1G");
    // swtpm takes raw volumes only, whatever the storage's default
    assert.equal(cfg.tpmstate0, "shared:101/vm-101-disk-2.raw,size=4M,version=v2.0");
    assert.equal(cfg.ide2, "shared:101/vm-101-cloudinit.raw,media=cdrom");
  });

  it("prints drives without a volume in PVE's order too", async () => {
    const h = new Harness();
    await h.createVm(102, { ide2: "media=cdrom,file=none", ide0: "file=cdrom,media=cdrom" });
    const cfg = await h.config(102);
    assert.equal(cfg.ide2, "none,media=cdrom");
    assert.equal(cfg.ide0, "cdrom,media=cdrom");
  });

  it("holds `lock: create` while the qmcreate task runs", async () => {
    const h = new Harness({ deferTasks: true });
    const upid = await h.call("POST", "/nodes/pve1/qemu", { vmid: 100, scsi0: "local-lvm:4" });
    assert.match(String(upid), /^UPID:pve1:.*:qmcreate:100:root@pam:$/);
    const during = await h.config(100);
    assert.equal(during.lock, "create");
    assert.equal(during.scsi0, undefined);
    const status = (await h.call("GET", "/nodes/pve1/qemu/100/status/current")) as Record<string, unknown>;
    assert.equal(status.lock, "create");
    await h.runTasks();
    const after = await h.config(100);
    assert.equal(after.lock, undefined);
    assert.equal(after.scsi0, "local-lvm:vm-100-disk-0,size=4G");
  });

  it("a create task failed from outside (injected fault, stopped task) leaves no guest behind", async () => {
    const h = new Harness();
    h.injectedFailures.set("qmcreate", "out of space");
    const upid = await h.call("POST", "/nodes/pve1/qemu", { vmid: 100, scsi0: "local-lvm:4" });
    assert.equal(h.task(upid).exitstatus, "out of space");
    assert.equal(h.model.guest(100), undefined);
    assert.deepEqual(
      h.model.state.volumes.filter((v) => v.vmid === 100),
      [],
    );
    await h.createVm(100);
    h.injectedFailures.set("qmsnapshot", "interrupted");
    await h.call("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "snap1" });
    assert.equal((await h.config(100)).lock, undefined, "the snapshot lock is released");
  });

  it("refuses a vmid already used anywhere in the cluster", async () => {
    const h = new Harness();
    await h.createVm(100, {}, "pve2");
    await rejects(h.call("POST", "/nodes/pve1/qemu", { vmid: 100 }), 500, "unable to create VM 100 - VM 100 already exists on node 'pve2'");
  });

  it("keeps a given MAC (uppercased) and refuses images on a storage without `images`", async () => {
    const h = new Harness();
    await h.createVm(100, { net0: "e1000=aa:bb:cc:dd:ee:01,bridge=vmbr1,tag=20" });
    assert.equal((await h.config(100)).net0, "e1000=AA:BB:CC:DD:EE:01,bridge=vmbr1,tag=20");
    await rejects(h.call("POST", "/nodes/pve1/qemu", { vmid: 101, scsi0: "local:4" }), 400, "Parameter verification failed.", {
      storage: "storage 'local' does not support vm images",
    });
    await rejects(h.config(101), 500, "Configuration file 'nodes/pve1/qemu-server/101.conf' does not exist");
  });

  it("starts the VM with start=1 and adds it to the pool", async () => {
    const h = new Harness();
    await h.call("POST", "/pools", { poolid: "web" });
    await h.createVm(100, { start: 1, pool: "web" });
    const status = (await h.call("GET", "/nodes/pve1/qemu/100/status/current")) as Record<string, unknown>;
    assert.equal(status.status, "running");
    const res = (await h.call("GET", "/cluster/resources", { type: "vm" })) as Array<Record<string, unknown>>;
    assert.equal(res[0]?.pool, "web");
  });

  it("rejects an unknown pool before creating anything", async () => {
    const h = new Harness();
    await rejects(h.call("POST", "/nodes/pve1/qemu", { vmid: 100, pool: "nope" }), 500, "pool 'nope' does not exist");
    assert.equal(h.model.guest(100), undefined);
  });

  it("checks each option's privilege like qemu-server (the schema only asks for any VM.Config.*)", async () => {
    const h = new Harness();
    h.userid = "ops@pve";
    await h.createVm(100, { scsi0: "local-lvm:4", net0: "virtio,bridge=vmbr0" });
    h.denied.add("/vms/100 VM.Config.Memory");
    await rejects(
      h.call("PUT", "/nodes/pve1/qemu/100/config", { memory: 4096 }),
      403,
      "Permission check failed (/vms/100, VM.Config.Memory)",
    );
    assert.equal(await h.call("PUT", "/nodes/pve1/qemu/100/config", { cores: 4 }), null);
    h.denied.add("/storage/local-lvm Datastore.AllocateSpace");
    await rejects(
      h.call("PUT", "/nodes/pve1/qemu/100/config", { scsi1: "local-lvm:2" }),
      403,
      "Permission check failed (/storage/local-lvm, Datastore.AllocateSpace)",
    );
    await rejects(h.call("PUT", "/nodes/pve1/qemu/100/config", { args: "-no-reboot" }), 500, "only root can set 'args' config");
    await rejects(
      h.call("PUT", "/nodes/pve1/qemu/100/config", { delete: "memory" }),
      403,
      "Permission check failed (/vms/100, VM.Config.Memory)",
    );
  });

  it("needs VM.Allocate on /vms/<vmid>", async () => {
    const h = new Harness();
    h.denied.add("/vms/100 VM.Allocate");
    await rejects(h.call("POST", "/nodes/pve1/qemu", { vmid: 100 }), 403, "Permission check failed (/vms/100, VM.Allocate)");
  });
});
