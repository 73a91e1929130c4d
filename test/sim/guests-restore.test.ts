import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

type Row = Record<string, unknown>;

const macOf = (nic: unknown) => /(?:=|hwaddr=)([0-9A-F]{2}(?::[0-9A-F]{2}){5})/i.exec(String(nic))?.[1];

async function backupOf(h: Harness, vmid: number, storage = "shared"): Promise<string> {
  await h.ok("POST", "/nodes/pve1/vzdump", { vmid: String(vmid), storage, compress: "zstd" });
  const list = (await h.call("GET", `/nodes/pve1/storage/${storage}/content`, { content: "backup", vmid })) as Row[];
  return String(list.at(-1)?.volid);
}

describe("restore from vzdump archives", () => {
  it("qmrestore recreates a VM with new volumes; unique=1 gives new MACs", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", scsi1: "shared:2", net0: "virtio,bridge=vmbr0", tags: "web" });
    const original = await h.config(100);
    const archive = await backupOf(h, 100);
    const upid = await h.ok("POST", "/nodes/pve1/qemu", { vmid: 300, archive, unique: 1, name: "restored" });
    assert.match(upid, /:qmrestore:300:/);
    const cfg = await h.config(300);
    assert.equal(cfg.scsi0, "local-lvm:vm-300-disk-0,size=4G");
    assert.equal(cfg.scsi1, "shared:300/vm-300-disk-0.raw,size=2G");
    assert.equal(cfg.name, "restored");
    assert.equal(cfg.tags, "web");
    // qemu-server's restore with unique: a new MAC on every NIC and a new SMBIOS uuid.
    assert.notEqual(macOf(cfg.net0), macOf(original.net0));
    assert.equal(String(cfg.net0).replace(/=[0-9A-F:]{17}/, ""), String(original.net0).replace(/=[0-9A-F:]{17}/, ""));
    assert.notEqual(cfg.smbios1, original.smbios1);
    assert.match(String(cfg.smbios1), /^uuid=[0-9a-f-]{36}$/);
  });

  it("qmrestore without unique keeps every MAC and the SMBIOS uuid; vmgenid is always new", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", net0: "virtio,bridge=vmbr0", net1: "e1000,bridge=vmbr0,tag=20" });
    const original = await h.config(100);
    const archive = await backupOf(h, 100);
    await h.ok("POST", "/nodes/pve1/qemu", { vmid: 301, archive });
    const kept = await h.config(301);
    assert.equal(kept.net0, original.net0);
    assert.equal(kept.net1, original.net1);
    assert.equal(kept.smbios1, original.smbios1);
    assert.notEqual(kept.vmgenid, original.vmgenid);
    // A NIC the request names is taken as given, unique or not (the request's options come last).
    await h.ok("POST", "/nodes/pve1/qemu", { vmid: 302, archive, unique: 1, net1: "e1000=02:00:00:00:00:01,bridge=vmbr1" });
    const given = await h.config(302);
    assert.equal(given.net1, "e1000=02:00:00:00:00:01,bridge=vmbr1");
    assert.notEqual(macOf(given.net0), macOf(original.net0));
  });

  it("storage= moves every disk; force overwrites an existing stopped VM", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4" });
    const archive = await backupOf(h, 100);
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { cores: 8, scsi1: "local-lvm:1" });
    await rejects(
      h.call("POST", "/nodes/pve1/qemu", { vmid: 100, archive }),
      500,
      "unable to restore VM 100 - VM 100 already exists on node 'pve1'",
    );
    await h.ok("POST", "/nodes/pve1/qemu", { vmid: 100, archive, force: 1, storage: "shared" });
    const cfg = await h.config(100);
    assert.equal(cfg.cores, 2);
    assert.equal(cfg.scsi0, "shared:100/vm-100-disk-0.raw,size=4G");
    assert.equal(cfg.scsi1, undefined);
    assert.deepEqual(
      h.model.state.volumes.filter((v) => v.volid.startsWith("local-lvm:vm-100")),
      [],
      "old volumes are gone",
    );
    await rejects(h.call("POST", "/nodes/pve1/qemu", { vmid: 101, archive, scsi0: "local-lvm:1" }), 400, "Parameter verification failed.", {
      scsi0: "option conflicts with option 'archive'",
    });
  });

  it("vzrestore recreates a container", async () => {
    const h = new Harness();
    await h.ok("POST", "/nodes/pve1/lxc", {
      vmid: 200,
      ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
      rootfs: "local-lvm:4",
      hostname: "ct1",
      net0: "name=eth0,bridge=vmbr0,ip=dhcp",
    });
    const archive = await backupOf(h, 200, "local");
    assert.match(archive, /^local:backup\/vzdump-lxc-200-.*\.tar\.zst$/);
    const upid = await h.ok("POST", "/nodes/pve1/lxc", { vmid: 201, ostemplate: archive, restore: 1, storage: "local-lvm" });
    assert.match(upid, /:vzrestore:201:/);
    assert.equal(h.task(upid).log[0], `extracting archive '/var/lib/vz/dump/${archive.slice("local:backup/".length)}'`);
    const cfg = await h.config(201, "pve1", "lxc");
    assert.equal(cfg.rootfs, "local-lvm:vm-201-disk-0,size=4G");
    assert.equal(cfg.hostname, "ct1");
    const original = await h.config(200, "pve1", "lxc");
    assert.equal(cfg.net0, original.net0, "without unique the archive's hwaddr is kept");
    // pve-container: with unique each archived NIC gets a new hwaddr, and replaces the request's NIC of that key.
    await h.ok("POST", "/nodes/pve1/lxc", {
      vmid: 202,
      ostemplate: archive,
      restore: 1,
      storage: "local-lvm",
      unique: 1,
      net0: "name=eth9,bridge=vmbr1",
    });
    const unique = await h.config(202, "pve1", "lxc");
    assert.notEqual(macOf(unique.net0), macOf(original.net0));
    assert.match(String(unique.net0), /name=eth0,bridge=vmbr0/);
  });
});
