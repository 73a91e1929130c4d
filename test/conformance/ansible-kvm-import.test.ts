// A VM made by community.general 6.6.2's proxmox_kvm, with property strings in its own key
// order (ipconfig0 `ip=...,gw=...`, an agent and a NIC written out of PVE's order): `pvectl
// import` writes it, and the plan of that spec only adopts it. Property strings are compared
// parsed, so an order that differs is not a change.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv } from "../support/cli.js";
import { REPO_ROOT, ansibleEnv, ansibleMissing, run } from "../support/conformance.js";

const missing = ansibleMissing();
let sim: RunningSimulator;
let dir: string;

before(async () => {
  if (missing) return;
  sim = await startSimulator({ port: 0, nodes: 1 });
  dir = await mkdtemp(join(tmpdir(), "pvectl-kvm-import-"));
});
after(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("a VM proxmox_kvm made imports into a spec whose plan only adopts it", { skip: missing }, async () => {
  const vars = JSON.stringify({ api_host: `127.0.0.1:${sim.port}`, api_password: sim.rootPassword });
  const made = await run(
    "ansible-playbook",
    [join(REPO_ROOT, "test/conformance/playbooks/kvm-then-import.yml"), "-e", vars],
    ansibleEnv({}),
    REPO_ROOT,
    300_000,
  );
  assert.equal(made.code, 0, `playbook failed:\n${made.stdout.slice(-6000)}\n${made.stderr.slice(-2000)}`);
  const env = simEnv(sim);
  const imported = await pvectl(["import", "--vmid", "310"], env);
  assert.equal(imported.code, 0, imported.stderr);
  const spec = join(dir, "imported.yaml");
  await writeFile(spec, imported.stdout);
  const planned = await pvectl(["plan", spec, "--json"], env);
  const steps = (JSON.parse(planned.stdout) as { guests: Array<{ steps: Array<{ action: string }> }> }).guests.flatMap((g) =>
    g.steps.map((s) => s.action),
  );
  assert.deepEqual(steps, ["adopt"], `${imported.stdout}\n${planned.stdout}`);
});
