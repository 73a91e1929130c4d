import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

describe("LXC containers", () => {
  it("creates from a template in storage content with PVE's defaults", async () => {
    const h = new Harness();
    const upid = await h.ok("POST", "/nodes/pve1/lxc", {
      vmid: 200,
      ostemplate: TEMPLATE,
      hostname: "ct1",
      rootfs: "local-lvm:8",
      mp0: "local-lvm:2,mp=/data,backup=1",
      net0: "name=eth0,bridge=vmbr0,ip=dhcp",
      password: "secret12",
    });
    assert.match(upid, /:vzcreate:200:/);
    const cfg = await h.config(200, "pve1", "lxc");
    assert.equal(cfg.rootfs, "local-lvm:vm-200-disk-0,size=8G");
    assert.equal(cfg.mp0, "local-lvm:vm-200-disk-1,mp=/data,backup=1,size=2G");
    assert.match(String(cfg.net0), /^name=eth0,bridge=vmbr0,hwaddr=BC:24:11:[0-9A-F:]{8},ip=dhcp,type=veth$/);
    assert.equal(cfg.hostname, "ct1");
    assert.equal(cfg.arch, "amd64");
    assert.equal(cfg.ostype, "debian");
    assert.equal(cfg.memory, 512);
    assert.equal(cfg.swap, 512);
    assert.equal(cfg.unprivileged, 1);
    assert.equal(cfg.password, undefined);
    const list = (await h.call("GET", "/nodes/pve1/lxc")) as Array<Record<string, unknown>>;
    assert.equal(list[0]?.type, "lxc");
    assert.equal(list[0]?.maxdisk, 8 * 1024 ** 3);
  });

  it("fails on a missing template, refuses a storage without rootdir and a vmid collision", async () => {
    const h = new Harness();
    // PVE 9 looks for the file only in the task (abs_filesystem_path)
    const upid = await h.call("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate: "local:vztmpl/nope.tar.zst", rootfs: "local-lvm:4" });
    assert.equal(h.task(upid).exitstatus, "unable to create CT 200 - can't find file 'local:vztmpl/nope.tar.zst'");
    await rejects(h.call("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate: TEMPLATE }), 400, "Parameter verification failed.", {
      storage: "storage 'local' does not support container directories",
    });
    await h.ok("POST", "/nodes/pve1/lxc", { vmid: 201, ostemplate: TEMPLATE, storage: "local-lvm", rootfs: "6" });
    assert.equal((await h.config(201, "pve1", "lxc")).rootfs, "local-lvm:vm-201-disk-0,size=6G");
    await h.createVm(100);
    await rejects(
      h.call("POST", "/nodes/pve2/lxc", { vmid: 100, ostemplate: TEMPLATE, rootfs: "local-lvm:4" }),
      500,
      "VM 100 already exists on node 'pve1'",
    );
  });

  it("start/stop/shutdown with LXC's synchronous errors", async () => {
    const h = new Harness();
    await h.ok("POST", "/nodes/pve1/lxc", {
      vmid: 200,
      ostemplate: TEMPLATE,
      rootfs: "local-lvm:4",
      net0: "name=eth0,bridge=vmbr0,ip=10.1.2.3/24",
    });
    await rejects(h.call("POST", "/nodes/pve1/lxc/200/status/stop"), 500, "CT 200 not running");
    await rejects(h.call("POST", "/nodes/pve1/lxc/200/status/shutdown"), 500, "CT 200 not running");
    assert.match(await h.ok("POST", "/nodes/pve1/lxc/200/status/start"), /:vzstart:200:/);
    await rejects(h.call("POST", "/nodes/pve1/lxc/200/status/start"), 500, "CT 200 already running");
    const ifaces = (await h.call("GET", "/nodes/pve1/lxc/200/interfaces")) as Array<Record<string, string>>;
    assert.deepEqual(
      ifaces.map((i) => [i.name, i.inet]),
      [
        ["lo", "127.0.0.1/8"],
        ["eth0", "10.1.2.3/24"],
      ],
    );
    await rejects(h.call("DELETE", "/nodes/pve1/lxc/200"), 500, "unable to destroy CT 200 - container is running");
    assert.match(await h.ok("POST", "/nodes/pve1/lxc/200/status/shutdown"), /:vzshutdown:200:/);
    const status = (await h.call("GET", "/nodes/pve1/lxc/200/status/current")) as Record<string, unknown>;
    assert.equal(status.status, "stopped");
    await h.ok("DELETE", "/nodes/pve1/lxc/200");
    assert.deepEqual(
      h.model.state.volumes.filter((v) => v.vmid === 200),
      [],
    );
  });

  it("config update uses LXC's digest message; snapshots work like QEMU's", async () => {
    const h = new Harness();
    await h.ok("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate: TEMPLATE, rootfs: "local-lvm:4" });
    await rejects(
      h.call("PUT", "/nodes/pve1/lxc/200/config", { memory: 1024, digest: "1".repeat(40) }),
      500,
      "detected modified configuration - file changed by other user? Try again.",
    );
    await h.call("PUT", "/nodes/pve1/lxc/200/config", { memory: 1024, tags: "db" });
    assert.equal((await h.config(200, "pve1", "lxc")).memory, 1024);
    await h.ok("POST", "/nodes/pve1/lxc/200/snapshot", { snapname: "before" });
    await h.call("PUT", "/nodes/pve1/lxc/200/config", { memory: 2048 });
    assert.match(await h.ok("POST", "/nodes/pve1/lxc/200/snapshot/before/rollback"), /:vzrollback:200:/);
    assert.equal((await h.config(200, "pve1", "lxc")).memory, 1024);
    const snaps = (await h.call("GET", "/nodes/pve1/lxc/200/snapshot")) as Array<Record<string, unknown>>;
    assert.deepEqual(
      snaps.map((s) => s.name),
      ["before", "current"],
    );
  });

  it("a running container hot-plugs what pve-container hot-plugs and keeps the rest pending", async () => {
    const h = new Harness();
    await h.ok("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate: TEMPLATE, rootfs: "local-lvm:4", start: 1 });
    await h.call("PUT", "/nodes/pve1/lxc/200/config", { memory: 2048, hostname: "renamed", mp0: "local-lvm:1,mp=/data", ostype: "alpine" });
    const current = (await h.call("GET", "/nodes/pve1/lxc/200/config", { current: 1 })) as Record<string, unknown>;
    assert.equal(current.memory, 2048);
    assert.equal(current.hostname, "renamed");
    assert.equal(current.mp0, "local-lvm:vm-200-disk-1,mp=/data,size=1G");
    assert.equal(current.ostype, "debian");
    const pending = (await h.call("GET", "/nodes/pve1/lxc/200/pending")) as Array<Record<string, unknown>>;
    assert.deepEqual(
      pending.find((p) => p.key === "ostype"),
      { key: "ostype", value: "debian", pending: "alpine" },
    );
    await h.ok("POST", "/nodes/pve1/lxc/200/status/reboot");
    assert.equal((await h.config(200, "pve1", "lxc")).ostype, "alpine");
    await h.ok("POST", "/nodes/pve1/lxc/200/status/stop");
    await h.call("PUT", "/nodes/pve1/lxc/200/config", { delete: "mp0" });
    assert.equal((await h.config(200, "pve1", "lxc")).unused0, "local-lvm:vm-200-disk-1");
  });

  it("template and linked clone of a container", async () => {
    const h = new Harness();
    await h.ok("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate: TEMPLATE, rootfs: "local-lvm:4", net0: "name=eth0,bridge=vmbr0" });
    assert.equal(await h.call("POST", "/nodes/pve1/lxc/200/template"), null);
    assert.equal((await h.config(200, "pve1", "lxc")).rootfs, "local-lvm:base-200-disk-0,size=4G");
    await h.ok("POST", "/nodes/pve1/lxc/200/clone", { newid: 201, hostname: "clone1" });
    const cfg = await h.config(201, "pve1", "lxc");
    assert.equal(cfg.rootfs, "local-lvm:base-200-disk-0/vm-201-disk-0,size=4G");
    assert.equal(cfg.hostname, "clone1");
    assert.notEqual(cfg.net0, (await h.config(200, "pve1", "lxc")).net0);
  });
});
