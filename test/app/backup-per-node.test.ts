// The per-node limit of `backup run`: with --per-node 1 (the default) the simulator's task
// list shows no two vzdump tasks of one node running at the same time, however many guests
// the node has; with a higher limit they do overlap (so the check can see an overlap).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planBackupRun } from "../../src/app/backup-plan.js";
import { converge, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const guests = [301, 302, 303, 304, 305, 306].map(
  (vmid, i) =>
    `  - { vmid: ${vmid}, name: g${vmid}, node: pve${(i % 2) + 1}, memory: 256, disks: { scsi0: { storage: local-lvm, size: 1G } } }`,
);
const SPEC = `vms:\n${guests.join("\n")}\n`;

interface Task {
  upid: string;
  type: string;
  starttime: number;
  endtime?: number;
}

/** The most vzdump tasks of one node whose [start, end) overlap, per node. */
async function peakPerNode(lab: Lab): Promise<Record<string, number>> {
  const peaks: Record<string, number> = {};
  for (const node of ["pve1", "pve2"]) {
    const tasks = ((await lab.client.request("GET", `/nodes/${node}/tasks`, { typefilter: "vzdump", limit: 1000 })) as Task[]).filter(
      (t) => t.type === "vzdump",
    );
    assert.ok(
      tasks.every((t) => t.endtime !== undefined),
      "every backup task has ended",
    );
    let peak = 0;
    for (const t of tasks) peak = Math.max(peak, tasks.filter((o) => o.starttime <= t.starttime && t.starttime < o.endtime!).length);
    peaks[node] = peak;
  }
  return peaks;
}

describe("backup run per-node limit", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
    const { report } = await converge(lab, SPEC);
    assert.equal(report.ok, true);
    // Backups take about a second and a half each from here on (creates above were instant).
    lab.sim.admin.setTiming({ profile: "realistic", timeScale: 0.1, durations: { backup: 15 } });
  });
  after(() => lab.close());

  for (const [perNode, expected] of [
    [1, 1],
    [3, 3],
  ] as const) {
    it(`runs at most ${perNode} vzdump task(s) per node at once with --per-node ${perNode}`, async () => {
      const planned = await planBackupRun(lab.client, { all: true }, { storage: "local", mode: "snapshot", compress: "zstd" });
      const report = await applyPlan(lab.client, planned, { ...fastApply, perNodeConcurrency: perNode });
      assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
      const peaks = await peakPerNode(lab);
      for (const node of ["pve1", "pve2"]) {
        if (perNode === 1) assert.equal(peaks[node], 1, `${node}: vzdump tasks overlapped`);
        else assert.equal(peaks[node], expected, `${node}: the limit of ${perNode} is reached (the check sees overlaps)`);
      }
    });
  }
});
