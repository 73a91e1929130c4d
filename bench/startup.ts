// Benchmark: pvectl's start-up as a user meets it, whole processes of the compiled CLI
// (`node bin/pvectl.js ...`): `--version`, `--help`, `validate` of a 3-VM spec and of a
// 3,000-VM spec (written to a temporary directory). Each is run several times; the median wall
// time and CPU seconds (user + system, from /usr/bin/time) are printed, next to the same for a
// bare `node -e 0`, the floor no Node program starts under on this machine.
//
//   npm run build && npx tsx bench/startup.ts [--runs 7] [--vms 3000] [--dist DIR]
// --dist runs another build's bin/pvectl.js (e.g. a worktree of an older commit) for before/after.

import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../test/support/conformance.js";
import { articleVmYaml } from "./provision-spec.js";
import { timed } from "./whole-process.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "7" },
    vms: { type: "string", default: "3000" },
    dist: { type: "string", default: REPO_ROOT },
  },
});
const runs = Number(values.runs);
const bin = join(values.dist, "bin/pvectl.js");
if (!existsSync(join(values.dist, "dist/cli/main.js")))
  throw new Error(`run \`npm run build\` in ${values.dist} first: the benchmark runs the compiled CLI`);

const vmYaml = (i: number): string => articleVmYaml(`vm-${String(i + 1).padStart(4, "0")}`, 1000 + i, `pve${(i % 3) + 1}`);
const spec = (n: number) => `version: 1\nvms:${Array.from({ length: n }, (_, i) => vmYaml(i)).join("")}\n`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

async function measure(label: string, command: string, args: string[]): Promise<void> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const run = await timed(command, args, { PATH: process.env.PATH, HOME: process.env.HOME });
    if (run.code !== 0) throw new Error(`${label} failed (${run.code}):\n${run.output.slice(-2000)}`);
    wall.push(run.seconds);
    cpu.push(run.cpuSeconds);
  }
  const fmt = (n: number) => n.toFixed(3);
  console.log(
    `${label.padEnd(36)} median ${fmt(median(wall))} s wall, ${fmt(median(cpu))} CPU s (min ${fmt(Math.min(...wall))}, max ${fmt(Math.max(...wall))}; ${runs} runs)`,
  );
}

const dir = await mkdtemp(join(tmpdir(), "pvectl-bench-startup-"));
try {
  await writeFile(join(dir, "small.yaml"), spec(3));
  await writeFile(join(dir, "large.yaml"), spec(Number(values.vms)));
  console.log(`pvectl at ${bin}`);
  await measure("node -e 0 (the floor)", process.execPath, ["-e", "0"]);
  await measure("pvectl --version", process.execPath, [bin, "--version"]);
  await measure("pvectl --help", process.execPath, [bin, "--help"]);
  await measure("pvectl validate (3 VMs)", process.execPath, [bin, "validate", join(dir, "small.yaml")]);
  await measure(`pvectl validate (${values.vms} VMs)`, process.execPath, [bin, "validate", join(dir, "large.yaml")]);
  console.log("targets: --version and --help < 0.25 s; validate of 3,000 VMs < 1 s");
} finally {
  await rm(dir, { recursive: true, force: true });
}
