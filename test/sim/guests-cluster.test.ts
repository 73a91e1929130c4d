import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ClusterConfigError, createClusterModel, loadClusterModel } from "../../src/sim/cluster/index.js";
import { Harness, rejects } from "./guests-harness.js";

type Row = Record<string, unknown>;

describe("default cluster, nodes and storage", () => {
  it("has pve1..pveN online with bridges vmbr0/vmbr1", async () => {
    const h = new Harness({ nodes: 4 });
    const nodes = (await h.call("GET", "/nodes")) as Row[];
    assert.deepEqual(
      nodes.map((n) => n.node),
      ["pve1", "pve2", "pve3", "pve4"],
    );
    for (const n of nodes) {
      assert.equal(n.status, "online");
      assert.equal(n.type, "node");
      assert.equal(n.id, `node/${n.node}`);
      assert.equal(typeof n.maxcpu, "number");
      assert.equal(typeof n.maxmem, "number");
      assert.match(String(n.ssl_fingerprint), /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    }
    const bridges = (await h.call("GET", "/nodes/pve3/network", { type: "bridge" })) as Row[];
    assert.deepEqual(
      bridges.map((b) => b.iface),
      ["vmbr0", "vmbr1"],
    );
    assert.ok(bridges[0]?.address, "vmbr0 has the node's address (inventory ansible_host)");
    const status = (await h.call("GET", "/nodes/pve2/status")) as Row;
    assert.equal(typeof status.uptime, "number");
    assert.equal((status.memory as Row).total, nodes[1]?.maxmem);
  });

  it("hides node statistics without Sys.Audit, shows an offline node as offline", async () => {
    const h = new Harness();
    h.denied.add("/nodes/pve2 Sys.Audit");
    h.model.setNodeOnline("pve3", false);
    const nodes = (await h.call("GET", "/nodes")) as Row[];
    assert.equal(nodes[1]?.maxmem, undefined);
    assert.equal(nodes[2]?.status, "offline");
    assert.equal(nodes[2]?.uptime, undefined);
  });

  it("lists the storages with content types and the preloaded ISO and template", async () => {
    const h = new Harness();
    const storages = (await h.call("GET", "/storage")) as Row[];
    assert.deepEqual(
      storages.map((s) => [s.storage, s.type, s.content, s.shared ?? 0]),
      [
        ["local", "dir", "backup,import,iso,snippets,vztmpl", 0],
        ["local-lvm", "lvmthin", "images,rootdir", 0],
        ["shared", "nfs", "backup,images,iso,rootdir", 1],
      ],
    );
    const onNode = (await h.call("GET", "/nodes/pve2/storage", { content: "images" })) as Row[];
    assert.deepEqual(
      onNode.map((s) => s.storage),
      ["local-lvm", "shared"],
    );
    assert.equal(onNode[0]?.active, 1);
    const content = (await h.call("GET", "/nodes/pve2/storage/local/content")) as Row[];
    assert.deepEqual(
      content.map((c) => [c.volid, c.content, c.format]),
      [
        ["local:iso/debian-13-netinst.iso", "iso", "iso"],
        ["local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst", "vztmpl", "tzst"],
      ],
    );
    const iso = (await h.call("GET", "/nodes/pve1/storage/local/content", { content: "iso" })) as Row[];
    assert.equal(iso.length, 1);
    await rejects(h.call("GET", "/nodes/pve1/storage/nope/content"), 500, "storage 'nope' does not exist");
  });

  it("node-local storage keeps volumes per node; shared storage is seen from every node", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:1", scsi1: "shared:1" });
    const on2 = (await h.call("GET", "/nodes/pve2/storage/local-lvm/content")) as Row[];
    assert.equal(on2.length, 0);
    const shared2 = (await h.call("GET", "/nodes/pve2/storage/shared/content")) as Row[];
    assert.deepEqual(
      shared2.map((c) => c.volid),
      ["shared:100/vm-100-disk-0.raw"],
    );
    const st = (await h.call("GET", "/nodes/pve1/storage/local-lvm/status")) as Row;
    assert.equal(st.used, 1024 ** 3);
  });

  it("allocates and deletes volumes through storage content", async () => {
    const h = new Harness();
    const volid = await h.call("POST", "/nodes/pve1/storage/local-lvm/content", { vmid: 120, filename: "vm-120-disk-0", size: "2G" });
    assert.equal(volid, "local-lvm:vm-120-disk-0");
    await rejects(
      h.call("POST", "/nodes/pve1/storage/local-lvm/content", { vmid: 120, filename: "disk-x", size: "2G" }),
      500,
      "illegal name 'disk-x' - should be 'vm-120-*'",
    );
    const upid = await h.ok("DELETE", "/nodes/pve1/storage/local-lvm/content/vm-120-disk-0");
    assert.match(upid, /:imgdel:120@local-lvm:/);
    assert.equal(
      h.model.state.volumes.some((v) => v.volid === volid),
      false,
    );
  });

  it("reads a --config cluster and refuses a bad one with a clear message", () => {
    const random = { next: () => 0.5, hex: (n: number) => "ab".repeat(n) };
    const model = createClusterModel({
      nodes: 5,
      config: {
        nodes: ["alpha", "beta"],
        bridges: ["vmbr0"],
        storages: [{ id: "ceph", type: "rbd", content: "images,rootdir" }],
        content: [],
      },
      random,
      now: () => 1000,
    });
    assert.deepEqual(model.nodeNames(), ["alpha", "beta"]);
    assert.equal(model.state.storages[0]?.shared, true);
    assert.throws(
      () => createClusterModel({ config: { content: ["nowhere:iso/x.iso"] }, random, now: () => 1 }),
      (e: unknown) => e instanceof ClusterConfigError && /storage of 'nowhere:iso\/x.iso' is not defined/.test(e.userMessage()),
    );
  });

  it("round-trips through toJSON/loadClusterModel", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:1" });
    const copy = loadClusterModel(JSON.parse(JSON.stringify(h.model.toJSON())), { random: h.model.deps.random, now: () => h.clock });
    assert.equal(copy.guest(100)?.config.scsi0, "local-lvm:vm-100-disk-0,size=1G");
    assert.equal(copy.digest(copy.guest(100)!), h.model.digest(h.model.guest(100)!));
  });
});

describe("/cluster/nextid and /cluster/resources", () => {
  it("nextid returns the first free id as a string, and refuses a used one", async () => {
    const h = new Harness();
    assert.equal(await h.call("GET", "/cluster/nextid"), "100");
    await h.createVm(100);
    await h.createVm(101, {}, "pve2");
    assert.equal(await h.call("GET", "/cluster/nextid"), "102");
    assert.equal(await h.call("GET", "/cluster/nextid", { vmid: 150 }), "150");
    await rejects(h.call("GET", "/cluster/nextid", { vmid: 101 }), 400, "Parameter verification failed.", {
      vmid: "VM 101 already exists",
    });
  });

  it("lists guests, nodes, storages, pools and sdn with PVE's fields", async () => {
    const h = new Harness({ nodes: 2 });
    await h.call("POST", "/pools", { poolid: "web" });
    await h.createVm(100, { scsi0: "local-lvm:32", tags: "a;b", pool: "web", start: 1 });
    const all = (await h.call("GET", "/cluster/resources")) as Row[];
    const vm = all.find((r) => r.id === "qemu/100") as Row;
    assert.deepEqual(Object.keys(vm).sort(), [
      "cpu",
      "disk",
      "diskread",
      "diskwrite",
      "id",
      "maxcpu",
      "maxdisk",
      "maxmem",
      "mem",
      "name",
      "netin",
      "netout",
      "node",
      "pool",
      "status",
      "tags",
      "template",
      "type",
      "uptime",
      "vmid",
    ]);
    assert.equal(vm.template, 0);
    assert.equal(vm.maxdisk, 32 * 1024 ** 3);
    assert.deepEqual(
      all.filter((r) => r.type === "node").map((r) => r.id),
      ["node/pve1", "node/pve2"],
    );
    assert.equal(all.filter((r) => r.type === "storage").length, 6);
    assert.ok(all.some((r) => r.type === "pool" && r.id === "/pool/web" && r.pool === "web"));
    assert.ok(all.some((r) => r.type === "sdn" && r.sdn === "localnetwork"));
    const vms = (await h.call("GET", "/cluster/resources", { type: "vm" })) as Row[];
    assert.deepEqual(
      vms.map((r) => r.id),
      ["qemu/100"],
    );
  });

  it("shows only guests the caller may audit", async () => {
    const h = new Harness();
    await h.createVm(100);
    await h.createVm(101);
    h.denied.add("/vms/100 VM.Audit");
    const vms = (await h.call("GET", "/cluster/resources", { type: "vm" })) as Row[];
    assert.deepEqual(
      vms.map((r) => r.vmid),
      [101],
    );
  });

  it("guests on an offline node have status unknown", async () => {
    const h = new Harness();
    await h.createVm(100, { start: 1 }, "pve2");
    h.model.setNodeOnline("pve2", false);
    const vms = (await h.call("GET", "/cluster/resources", { type: "vm" })) as Row[];
    assert.equal(vms[0]?.status, "unknown");
  });

  it("cluster/status lists the cluster and its nodes", async () => {
    const h = new Harness({ nodes: 3 });
    const st = (await h.call("GET", "/cluster/status")) as Row[];
    assert.equal(st[0]?.type, "cluster");
    assert.equal(st[0]?.quorate, 1);
    assert.deepEqual(
      st.slice(1).map((n) => [n.name, n.online, typeof n.ip]),
      [
        ["pve1", 1, "string"],
        ["pve2", 1, "string"],
        ["pve3", 1, "string"],
      ],
    );
  });
});

describe("directory indexes", () => {
  it("answers the intermediate paths clients walk", async () => {
    const h = new Harness();
    await h.createVm(100);
    const vm = (await h.call("GET", "/nodes/pve1/qemu/100")) as Array<{ subdir: string }>;
    assert.ok(vm.some((e) => e.subdir === "config") && vm.some((e) => e.subdir === "status"));
    const status = (await h.call("GET", "/nodes/pve1/qemu/100/status")) as Array<{ subdir: string }>;
    assert.ok(status.some((e) => e.subdir === "current"));
    const storage = (await h.call("GET", "/nodes/pve1/storage/local")) as Array<{ subdir: string }>;
    assert.ok(storage.some((e) => e.subdir === "content"));
    await rejects(h.call("GET", "/nodes/pve1/qemu/101"), 500, "Configuration file 'nodes/pve1/qemu-server/101.conf' does not exist");
  });
});

describe("download-url", () => {
  it("adds the file to the storage content in a download task", async () => {
    const h = new Harness();
    const upid = await h.ok("POST", "/nodes/pve1/storage/local/download-url", {
      url: "https://example.org/alpine.iso",
      content: "iso",
      filename: "alpine.iso",
    });
    assert.match(upid, /:download:alpine\.iso:/);
    const iso = (await h.call("GET", "/nodes/pve1/storage/local/content", { content: "iso" })) as Row[];
    assert.deepEqual(
      iso.map((c) => c.volid),
      ["local:iso/alpine.iso", "local:iso/debian-13-netinst.iso"],
    );
    await rejects(
      h.call("POST", "/nodes/pve1/storage/local/download-url", {
        url: "https://example.org/a.iso",
        content: "iso",
        filename: "alpine.iso",
      }),
      500,
      "refusing to override existing file 'alpine.iso'",
    );
    await rejects(
      h.call("POST", "/nodes/pve1/storage/local-lvm/download-url", { url: "https://example.org/a.iso", content: "iso", filename: "a.iso" }),
      500,
      "storage 'local-lvm' is not configured for content-type 'iso'",
    );
  });
});
