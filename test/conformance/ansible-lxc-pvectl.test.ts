// A container made by community.general 6.6.2's `proxmox` module, then taken over by pvectl:
// `pvectl import` writes it, the plan of that spec only adopts it (and is empty after), pvectl
// changes it (memory, a new mount point, the NIC's VLAN, a bigger rootfs, a nameserver that
// waits for a restart), and the module still reports it unchanged while `proxmox_tasks_info`
// lists pvectl's tasks with their status. Both clients nobody here wrote, one simulator.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { parse, stringify } from "yaml";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv } from "../support/cli.js";
import { REPO_ROOT, ansibleEnv, ansibleMissing, run } from "../support/conformance.js";

const missing = ansibleMissing();
let sim: RunningSimulator;
let dir: string;

before(async () => {
  if (missing) return;
  sim = await startSimulator({ port: 0, nodes: 2 });
  dir = await mkdtemp(join(tmpdir(), "pvectl-lxc-ansible-"));
});
after(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function playbook(phase: "create" | "check"): Promise<void> {
  const vars = JSON.stringify({ api_host: `127.0.0.1:${sim.port}`, api_password: sim.rootPassword, phase });
  const result = await run(
    "ansible-playbook",
    [join(REPO_ROOT, "test/conformance/playbooks/lxc-module-then-pvectl.yml"), "-e", vars],
    ansibleEnv({}),
    REPO_ROOT,
    300_000,
  );
  assert.equal(result.code, 0, `playbook (${phase}) failed:\n${result.stdout.slice(-6000)}\n${result.stderr.slice(-2000)}`);
}

type Entry = Record<string, unknown> & {
  mounts?: Record<string, Record<string, unknown>>;
  nics: Record<string, Record<string, unknown>>;
  rootfs: Record<string, unknown>;
};

test("a container the proxmox module made: pvectl imports, adopts and changes it; the module sees it unchanged", {
  skip: missing,
}, async () => {
  await playbook("create");
  const env = simEnv(sim);
  const spec = join(dir, "imported.yaml");

  const imported = await pvectl(["import", "--vmid", "420"], env);
  assert.equal(imported.code, 0, imported.stderr);
  await writeFile(spec, imported.stdout);
  const doc = parse(imported.stdout) as { containers: Entry[] };
  assert.equal(doc.containers.length, 1);
  const entry = doc.containers[0]!;
  assert.equal(entry.adopt, true, "a container pvectl did not create is written with adopt: true");

  // The imported spec plans the adoption (the ownership tag) and nothing else.
  const first = await pvectl(["plan", spec, "--json"], env);
  const steps = (JSON.parse(first.stdout) as { guests: Array<{ steps: Array<{ action: string }> }> }).guests.flatMap((g) =>
    g.steps.map((s) => s.action),
  );
  assert.deepEqual(steps, ["adopt"], first.stdout);
  assert.equal((await pvectl(["apply", spec, "--yes"], env)).code, 0);
  const empty = await pvectl(["plan", spec, "--detailed-exitcode"], env);
  assert.equal(empty.code, 0, `a rerun plan is empty:\n${empty.stdout}${empty.stderr}`);

  // pvectl changes it: memory (live), a new mount point (hot-plugged), the NIC's VLAN, a bigger
  // rootfs (a resize task) and a nameserver (pending until the restart pvectl is allowed to do).
  entry.memory = 1024;
  entry.mounts = { ...entry.mounts, mp1: { storage: "local-lvm", size: "1G", mountpoint: "/srv/logs" } };
  entry.nics.net0!.tag = 30;
  entry.rootfs.size = "6G";
  entry.nameserver = ["10.0.0.53"];
  await writeFile(spec, stringify(doc));
  const applied = await pvectl(["apply", spec, "--yes", "--allow-restart"], env);
  assert.equal(applied.code, 0, `${applied.stdout}${applied.stderr}`);
  assert.equal((await pvectl(["plan", spec, "--detailed-exitcode"], env)).code, 0, "converged");

  await playbook("check");
});
