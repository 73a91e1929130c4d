// GET …/qemu/{vmid}/status/current (qemu-server vmstatus with `full`): blockstat, nics,
// balloon/ballooninfo, memhost and the pressure averages, with figures that add up.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness } from "./guests-harness.js";

type Row = Record<string, unknown>;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const PRESSURES = ["pressurecpufull", "pressurecpusome", "pressureiofull", "pressureiosome", "pressurememoryfull", "pressurememorysome"];

async function runningVm(h: Harness, vmid: number, extra: Record<string, string | number> = {}): Promise<Row> {
  await h.createVm(vmid, {
    scsi0: "local-lvm:4",
    virtio1: "local-lvm:2",
    ide2: "local:iso/debian-13-netinst.iso,media=cdrom",
    net0: "virtio,bridge=vmbr0",
    net1: "e1000,bridge=vmbr1",
    ...extra,
  });
  await h.ok("POST", `/nodes/pve1/qemu/${vmid}/status/start`);
  h.clock += 3600;
  return (await h.call("GET", `/nodes/pve1/qemu/${vmid}/status/current`)) as Row;
}

describe("status/current of a running VM", () => {
  it("reports one blockstat per attached drive, adding up to diskread/diskwrite", async () => {
    const s = await runningVm(new Harness(), 100);
    const stats = s.blockstat as Record<string, Row>;
    assert.deepEqual(Object.keys(stats).sort(), ["ide2", "scsi0", "virtio1"]);
    assert.equal(sum(Object.values(stats).map((d) => d.rd_bytes as number)), s.diskread);
    assert.equal(sum(Object.values(stats).map((d) => d.wr_bytes as number)), s.diskwrite);
    assert.equal(stats.ide2?.wr_bytes, 0, "a CD-ROM is never written");
    assert.ok((s.diskwrite as number) > 0);
    assert.equal(stats.scsi0?.account_invalid, true);
    assert.deepEqual(stats.scsi0?.timed_stats, []);
    assert.equal(stats.scsi0?.failed_rd_operations, 0);
  });

  it("reports one tap per netN, adding up to netin/netout", async () => {
    const s = await runningVm(new Harness(), 100);
    const taps = s.nics as Record<string, Row>;
    assert.deepEqual(Object.keys(taps), ["tap100i0", "tap100i1"]);
    assert.equal(sum(Object.values(taps).map((t) => t.netin as number)), s.netin);
    assert.equal(sum(Object.values(taps).map((t) => t.netout as number)), s.netout);
  });

  it("reports the balloon: actual = maxmem, mem = total_mem - free_mem", async () => {
    const s = await runningVm(new Harness(), 100, { balloon: 1024 });
    const info = s.ballooninfo as Record<string, number> & { total_mem: number; free_mem: number; actual: number };
    assert.equal(s.balloon, 2048 * 1024 ** 2);
    assert.equal(info.actual, s.balloon);
    assert.equal(info.max_mem, s.maxmem);
    assert.equal(info.total_mem - info.free_mem, s.mem);
    assert.equal(s.freemem, info.free_mem);
    assert.ok(info.total_mem < info.actual);
    for (const k of ["mem_swapped_in", "mem_swapped_out", "major_page_faults", "minor_page_faults", "last_update"]) {
      assert.equal(typeof info[k], "number", k);
    }
    assert.equal(s.balloon_min, 1024 * 1024 ** 2);
  });

  it("has no balloon figures when the balloon device is off (balloon: 0)", async () => {
    const s = await runningVm(new Harness(), 100, { balloon: 0 });
    assert.equal(s.balloon, undefined);
    assert.equal(s.ballooninfo, undefined);
    assert.equal(s.freemem, undefined);
  });

  it("reports memhost and the pressure stall averages", async () => {
    const s = await runningVm(new Harness(), 100);
    assert.ok((s.memhost as number) > (s.mem as number), "the host holds what the guest uses, and QEMU");
    assert.ok((s.memhost as number) < (s.maxmem as number) + 256 * 1024 ** 2);
    for (const k of PRESSURES) assert.equal(typeof s[k], "number", k);
    assert.ok((s.pressurecpufull as number) <= (s.pressurecpusome as number));
  });

  it("has no traffic and no nics without a netN, and the list with full=1 carries the same", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4" });
    await h.ok("POST", "/nodes/pve1/qemu/100/status/start");
    h.clock += 60;
    const s = (await h.call("GET", "/nodes/pve1/qemu/100/status/current")) as Row;
    assert.equal(s.nics, undefined);
    assert.equal(s.netin, 0);
    assert.equal(s.netout, 0);
    const [listed] = (await h.call("GET", "/nodes/pve1/qemu", { full: 1 })) as Row[];
    assert.deepEqual(listed?.blockstat, s.blockstat);
    assert.deepEqual(listed?.ballooninfo, s.ballooninfo);
    const [plain] = (await h.call("GET", "/nodes/pve1/qemu")) as Row[];
    assert.equal(plain?.blockstat, undefined, "only vmstatus full asks QEMU");
    assert.equal(typeof plain?.memhost, "number");
    assert.equal(typeof plain?.pressureiosome, "number");
  });
});

describe("status/current of a stopped VM", () => {
  it("carries memhost 0 and none of what a running QEMU reports", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", net0: "virtio,bridge=vmbr0", balloon: 512 });
    const s = (await h.call("GET", "/nodes/pve1/qemu/100/status/current")) as Row;
    assert.equal(s.status, "stopped");
    assert.equal(s.memhost, 0);
    for (const k of ["blockstat", "nics", "balloon", "ballooninfo", "freemem", ...PRESSURES]) assert.equal(s[k], undefined, k);
  });
});
