import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

describe("QEMU config", () => {
  it("PUT applies at once on a stopped VM and changes the digest", async () => {
    const h = new Harness();
    await h.createVm(100);
    const before = await h.config(100);
    assert.equal(
      await h.call("PUT", "/nodes/pve1/qemu/100/config", { memory: 4096, tags: "web;prod,web", digest: before.digest as string }),
      null,
    );
    const after = await h.config(100);
    assert.equal(after.memory, "4096");
    assert.equal(after.tags, "prod;web");
    assert.notEqual(after.digest, before.digest);
  });

  it("stores a description as PVE reads it back: trailing whitespace gone on VMs, one newline per line on containers", async () => {
    const h = new Harness();
    await h.createVm(100, { description: "managed by ansible\n" });
    assert.equal((await h.config(100)).description, "managed by ansible");
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { description: "  two\n\nlines \n\n" });
    assert.equal((await h.config(100)).description, "  two\n\nlines");
    await h.ok("POST", "/nodes/pve1/lxc", {
      vmid: 200,
      ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
      rootfs: "local-lvm:4",
      description: "notes",
    });
    assert.equal((await h.config(200, "pve1", "lxc")).description, "notes\n");
    await h.call("PUT", "/nodes/pve1/lxc/200/config", { description: "a\n\nb\n\n" });
    assert.equal((await h.config(200, "pve1", "lxc")).description, "a\n\nb\n");
  });

  it("refuses a stale digest with PVE's message", async () => {
    const h = new Harness();
    await h.createVm(100);
    const { digest } = await h.config(100);
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { cores: 4 });
    await rejects(
      h.call("PUT", "/nodes/pve1/qemu/100/config", { cores: 8, digest: String(digest) }),
      500,
      "checksum mismatch (file change by other user?)",
    );
    assert.equal((await h.config(100)).cores, 4);
  });

  it("keeps non-hotpluggable changes pending on a running VM and applies them at the next start", async () => {
    const h = new Harness();
    await h.createVm(100, { start: 1, net0: "virtio,bridge=vmbr0" });
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { cores: 4, name: "renamed", net1: "virtio,bridge=vmbr1" });
    const current = (await h.call("GET", "/nodes/pve1/qemu/100/config", { current: 1 })) as Record<string, unknown>;
    assert.equal(current.cores, 2, "cores is not hot-pluggable");
    assert.equal(current.name, "renamed", "name is always applied");
    assert.match(String(current.net1), /^virtio=BC:24:11:/, "network is hot-plugged by default");
    const withPending = await h.config(100);
    assert.equal(withPending.cores, 4);
    const pending = (await h.call("GET", "/nodes/pve1/qemu/100/pending")) as Array<Record<string, unknown>>;
    assert.deepEqual(
      pending.find((p) => p.key === "cores"),
      { key: "cores", value: 2, pending: 4 },
    );
    assert.equal(pending.at(-1)?.key, "digest");
    await h.ok("POST", "/nodes/pve1/qemu/100/status/stop");
    assert.equal(((await h.call("GET", "/nodes/pve1/qemu/100/config", { current: 1 })) as Record<string, unknown>).cores, 2);
    await h.ok("POST", "/nodes/pve1/qemu/100/status/start");
    assert.equal(((await h.call("GET", "/nodes/pve1/qemu/100/config", { current: 1 })) as Record<string, unknown>).cores, 4);
  });

  it("revert drops a pending change; delete of a pending-only deletion shows delete:1", async () => {
    const h = new Harness();
    await h.createVm(100, { start: 1, ostype: "l26" });
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { sockets: 2, delete: "ostype" });
    let pending = (await h.call("GET", "/nodes/pve1/qemu/100/pending")) as Array<Record<string, unknown>>;
    assert.deepEqual(
      pending.find((p) => p.key === "ostype"),
      { key: "ostype", value: "l26", delete: 1 },
    );
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { revert: "sockets,ostype" });
    pending = (await h.call("GET", "/nodes/pve1/qemu/100/pending")) as Array<Record<string, unknown>>;
    assert.ok(pending.every((p) => p.pending === undefined && p.delete === undefined));
  });

  it("validates delete lists and empty updates like PVE", async () => {
    const h = new Harness();
    await h.createVm(100);
    await rejects(h.call("PUT", "/nodes/pve1/qemu/100/config", { delete: "bogus" }), 400, "Parameter verification failed.", {
      delete: "unknown option 'bogus'",
    });
    await rejects(h.call("PUT", "/nodes/pve1/qemu/100/config", { cores: 2, delete: "cores" }), 400, "Parameter verification failed.", {
      delete: "you can't use '-cores' and -delete cores' at the same time",
    });
    await rejects(h.call("PUT", "/nodes/pve1/qemu/100/config", {}), 500, "no options specified");
  });

  it("a locked VM refuses config changes", async () => {
    const h = new Harness();
    await h.createVm(100);
    h.model.setGuestLock(100, "backup");
    await rejects(h.call("PUT", "/nodes/pve1/qemu/100/config", { cores: 4 }), 500, "VM is locked (backup)");
    assert.equal(await h.call("PUT", "/nodes/pve1/qemu/100/config", { cores: 4, skiplock: 1 }), null);
  });

  it("skiplock is for root@pam only", async () => {
    const h = new Harness();
    await h.createVm(100);
    h.userid = "ops@pve";
    await rejects(h.call("PUT", "/nodes/pve1/qemu/100/config", { cores: 4, skiplock: 1 }), 400, "Parameter verification failed.", {
      skiplock: "Only root may use this option.",
    });
  });

  it("deleting a disk detaches it to unusedN; force or deleting unusedN frees the volume", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", scsi1: "local-lvm:2", scsi2: "local-lvm:1" });
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { delete: "scsi1" });
    let cfg = await h.config(100);
    assert.equal(cfg.scsi1, undefined);
    assert.equal(cfg.unused0, "local-lvm:vm-100-disk-1");
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { delete: "scsi2", force: 1 });
    cfg = await h.config(100);
    assert.equal(cfg.unused1, undefined);
    const vols = () =>
      h.model.state.volumes
        .filter((v) => v.vmid === 100)
        .map((v) => v.volid)
        .sort();
    assert.deepEqual(vols(), ["local-lvm:vm-100-disk-0", "local-lvm:vm-100-disk-1"]);
    // re-attach the detached volume: unused0 disappears
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { scsi5: "local-lvm:vm-100-disk-1" });
    cfg = await h.config(100);
    assert.equal(cfg.scsi5, "local-lvm:vm-100-disk-1,size=2G");
    assert.equal(cfg.unused0, undefined);
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { delete: "scsi5" });
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { delete: "unused0" });
    assert.deepEqual(vols(), ["local-lvm:vm-100-disk-0"]);
  });

  it("POST config runs as a qmconfig task and adds a disk", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4" });
    const upid = await h.ok("POST", "/nodes/pve1/qemu/100/config", { scsi1: "local-lvm:10,ssd=1" });
    assert.match(upid, /:qmconfig:100:/);
    assert.equal((await h.config(100)).scsi1, "local-lvm:vm-100-disk-1,size=10G,ssd=1");
  });

  it("keeps the MAC when a NIC is updated without one only if given; a new NIC string gets a new MAC", async () => {
    const h = new Harness();
    await h.createVm(100, { net0: "virtio=BC:24:11:00:00:01,bridge=vmbr0" });
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { net0: "virtio=BC:24:11:00:00:01,bridge=vmbr1,tag=5" });
    assert.equal((await h.config(100)).net0, "virtio=BC:24:11:00:00:01,bridge=vmbr1,tag=5");
  });

  it("masks cipassword and returns snapshot configs on request", async () => {
    const h = new Harness();
    await h.createVm(100, { cipassword: "secret", ciuser: "ops" });
    const cfg = await h.config(100);
    assert.equal(cfg.cipassword, "**********");
    await rejects(h.call("GET", "/nodes/pve1/qemu/100/config", { snapshot: "nope" }), 500, "snapshot 'nope' does not exist");
  });

  it("a VM on another node is not found through this node", async () => {
    const h = new Harness();
    await h.createVm(100, {}, "pve2");
    await rejects(h.config(100, "pve1"), 500, "Configuration file 'nodes/pve1/qemu-server/100.conf' does not exist");
  });
});

describe("QEMU config: pending disks", () => {
  it("a disk added to a running VM with hotplug=0 waits; reverting it keeps the volume as unusedN", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", hotplug: "0", start: 1 });
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { scsi1: "local-lvm:2" });
    const pending = (await h.call("GET", "/nodes/pve1/qemu/100/pending")) as Array<Record<string, unknown>>;
    assert.deepEqual(
      pending.find((p) => p.key === "scsi1"),
      { key: "scsi1", pending: "local-lvm:vm-100-disk-1,size=2G" },
    );
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { revert: "scsi1" });
    const cfg = (await h.call("GET", "/nodes/pve1/qemu/100/config", { current: 1 })) as Record<string, unknown>;
    assert.equal(cfg.scsi1, undefined);
    assert.equal(cfg.unused0, "local-lvm:vm-100-disk-1");
  });
});
