// rrddata of nodes and guests (pve-manager API2/Nodes.pm, qemu-server API2/Qemu.pm, pve-container
// API2/LXC.pm `rrddata`): 70 points per timeframe, aligned to the step, figures consistent with
// status/current, AVERAGE below MAX, deterministic from the seed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness } from "./guests-harness.js";

// biome-ignore lint/suspicious/noExplicitAny: points are inspected field by field
type Point = any;

describe("rrddata", () => {
  it("a running VM's last hour point matches status/current; earlier points of a stopped span are zero", async () => {
    const h = new Harness();
    // A NIC: PVE counts a guest's traffic on its tap devices, so a guest without one has none.
    await h.createVm(100, { memory: 2048, cores: 2, net0: "virtio,bridge=vmbr0" });
    h.clock += 3600;
    await h.ok("POST", "/nodes/pve1/qemu/100/status/start");
    h.clock += 1800;
    const points = (await h.call("GET", "/nodes/pve1/qemu/100/rrddata", { timeframe: "hour", cf: "AVERAGE" })) as Point[];
    assert.equal(points.length, 70);
    for (let i = 1; i < points.length; i++) assert.equal((points[i]?.time ?? 0) - (points[i - 1]?.time ?? 0), 60);
    const last = points.at(-1) as Point;
    assert.equal(last.time % 60, 0);
    assert.equal(last.maxmem, 2048 * 1024 ** 2);
    assert.equal(last.maxcpu, 2);
    assert.ok(last.cpu > 0 && last.cpu < 1);
    assert.ok(last.mem > 0 && last.mem < last.maxmem);
    assert.ok(last.netin > 0 && last.netout > 0 && last.diskwrite === 8192);
    const status = (await h.call("GET", "/nodes/pve1/qemu/100/status/current")) as Point;
    assert.equal(last.mem, status.mem, "memory share is steady, so the last point equals now");
    const first = points[0] as Point;
    assert.equal(first.cpu, 0);
    assert.equal(first.mem, 0);
    assert.equal(first.maxmem, 2048 * 1024 ** 2);
  });

  it("timeframes change the step; MAX never lies below AVERAGE; same seed, same figures", async () => {
    const make = async () => {
      const h = new Harness();
      await h.createVm(100);
      await h.ok("POST", "/nodes/pve1/qemu/100/status/start");
      h.clock += 7 * 86400;
      return h;
    };
    const h = await make();
    for (const [timeframe, step] of [
      ["day", 1800],
      ["week", 10800],
      ["month", 43200],
      ["year", 604800],
    ] as const) {
      const pts = (await h.call("GET", "/nodes/pve1/qemu/100/rrddata", { timeframe, cf: "AVERAGE" })) as Point[];
      assert.equal(pts.length, 70);
      assert.equal((pts[1]?.time ?? 0) - (pts[0]?.time ?? 0), step, timeframe);
    }
    const avg = (await h.call("GET", "/nodes/pve1/qemu/100/rrddata", { timeframe: "day", cf: "AVERAGE" })) as Point[];
    const max = (await h.call("GET", "/nodes/pve1/qemu/100/rrddata", { timeframe: "day", cf: "MAX" })) as Point[];
    avg.forEach((p, i) => {
      if (p.cpu !== undefined) assert.ok((max[i]?.cpu ?? 0) >= p.cpu);
    });
    const again = (await (await make()).call("GET", "/nodes/pve1/qemu/100/rrddata", { timeframe: "day", cf: "AVERAGE" })) as Point[];
    assert.deepEqual(again, avg);
  });

  it("node rrddata carries the node's fields; a container's too", async () => {
    const h = new Harness();
    await h.createVm(100);
    await h.ok("POST", "/nodes/pve1/qemu/100/status/start");
    h.clock += 600;
    const node = (await h.call("GET", "/nodes/pve1/rrddata", { timeframe: "hour", cf: "AVERAGE" })) as Point[];
    const last = node.at(-1) as Point;
    for (const key of [
      "time",
      "cpu",
      "maxcpu",
      "iowait",
      "loadavg",
      "memtotal",
      "memused",
      "swaptotal",
      "swapused",
      "roottotal",
      "rootused",
      "netin",
      "netout",
    ]) {
      assert.equal(typeof last[key], "number", key);
    }
    assert.ok(last.memused < last.memtotal);
    await h.call("POST", "/nodes/pve1/lxc", {
      vmid: 200,
      ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
      rootfs: "local-lvm:8",
    });
    await h.runTasks();
    const ct = (await h.call("GET", "/nodes/pve1/lxc/200/rrddata", { timeframe: "hour", cf: "AVERAGE" })) as Point[];
    assert.equal(ct.length, 70);
    assert.equal(ct.at(-1)?.maxdisk, 8 * 1024 ** 3);
  });
});
