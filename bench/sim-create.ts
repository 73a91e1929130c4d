// Guest creation at scale, in-process (the real handlers through the test harness: schema
// validation and tasks, no HTTP): creates N guests with two disks each, in blocks, and reports
//  - linearity: time per create of the last block over the first (1.0 = linear; the per-volume
//    walk this replaced made it grow with the guest count),
//  - before/after in the same run: the allocator's old lookup (a pass over every volume per
//    allocation, copied below as the reference) against the per-storage index, on the same state,
//  - the process's RSS after the listings a client makes (/cluster/resources, storage content).
//
//   npx tsx bench/sim-create.ts [--guests 20000] [--block 2000]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { ClusterState } from "../src/sim/cluster/types.js";
import { findStorage, findVolume } from "../src/sim/cluster/volumes.js";
import { Harness } from "../test/sim/guests-harness.js";

const { values } = parseArgs({ options: { guests: { type: "string", default: "20000" }, block: { type: "string", default: "2000" } } });
const guestCount = Number(values.guests);
const block = Number(values.block);

function rssMiB(): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024;
}

/** The lookup every allocation made before the index: a pass over all volumes (reference only). */
function scanLookup(state: ClusterState, storage: string, node: string, vmid: number): number {
  const marker = `-${vmid}-disk-`;
  let found = 0;
  for (const v of state.volumes) if (v.volid.includes(marker) && v.storage === storage && v.node === node) found++;
  return found;
}

const h = new Harness({ nodes: 3 });
const perBlock: number[] = [];
let t0 = process.hrtime.bigint();
for (let i = 0; i < guestCount; i++) {
  const vmid = 100 + i;
  await h.createVm(vmid, { scsi0: "local-lvm:1", scsi1: "local-lvm:1", net0: "virtio,bridge=vmbr0" }, `pve${(i % 3) + 1}`);
  if ((i + 1) % block === 0) {
    const t1 = process.hrtime.bigint();
    perBlock.push(Number(t1 - t0) / 1e6 / block);
    t0 = t1;
  }
}
const first = perBlock[0] ?? 0;
const last = perBlock.at(-1) ?? 0;
console.log(`created ${guestCount} guests (${h.model.state.volumes.length} volumes)`);
console.log(`  ms per create by block of ${block}: ${perBlock.map((m) => m.toFixed(2)).join(" ")}`);
console.log(`  linearity (last block / first block): ${(last / first).toFixed(2)}`);

// before/after on the same final state: 2,000 allocation lookups each way
const state = h.model.state;
const storage = findStorage(state, "local-lvm");
if (!storage) throw new Error("no local-lvm");
const lookups = 2000;
let s = process.hrtime.bigint();
for (let i = 0; i < lookups; i++) scanLookup(state, "local-lvm", `pve${(i % 3) + 1}`, 100 + i);
const before = Number(process.hrtime.bigint() - s) / 1e6;
s = process.hrtime.bigint();
for (let i = 0; i < lookups; i++) findVolume(state, `local-lvm:vm-${100 + i}-disk-0`, `pve${(i % 3) + 1}`);
const after = Number(process.hrtime.bigint() - s) / 1e6;
console.log(
  `${lookups} allocation lookups at ${guestCount} guests: before (scan) ${before.toFixed(1)} ms, after (index) ${after.toFixed(1)} ms, ratio ${(before / Math.max(after, 0.001)).toFixed(0)}x`,
);

await h.call("GET", "/cluster/resources");
for (const node of ["pve1", "pve2", "pve3"]) await h.call("GET", `/nodes/${node}/storage/local-lvm/content`);
await h.call("GET", "/cluster/resources");
globalThis.gc?.();
const rss = rssMiB();
console.log(`RSS after listings: ${rss.toFixed(0)} MiB (budget 300 MiB: ${rss < 300 ? "within" : "OVER"})`);
