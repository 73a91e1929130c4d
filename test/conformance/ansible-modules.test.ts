// Debian's ansible (community.general 6.6.2 proxmox modules, through proxmoxer) drives the
// simulator over HTTPS exactly as it would drive a PVE 9 cluster; each playbook asserts the
// answers a real cluster gives. A failed assertion names the task in the playbook output.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { REPO_ROOT, ansibleEnv, ansibleMissing, run } from "../support/conformance.js";

const missing = ansibleMissing();
let sim: RunningSimulator;

before(async () => {
  if (!missing) sim = await startSimulator({ port: 0, nodes: 2 });
});
after(async () => {
  await sim?.close();
});

async function playbook(name: string): Promise<void> {
  const file = join(REPO_ROOT, "test/conformance/playbooks", name);
  const vars = JSON.stringify({ api_host: `127.0.0.1:${sim.port}`, api_password: sim.rootPassword });
  const result = await run("ansible-playbook", [file, "-e", vars], ansibleEnv({}), REPO_ROOT, 300_000);
  assert.equal(result.code, 0, `${name} failed:\n${result.stdout.slice(-6000)}\n${result.stderr.slice(-2000)}`);
}

test("proxmox_kvm, proxmox_nic, proxmox_disk, proxmox_snap, tasks and storage info: a VM's life", { skip: missing }, async () => {
  await playbook("qemu-lifecycle.yml");
});

test("proxmox (LXC): create from a template, start, stop, remove", { skip: missing }, async () => {
  await playbook("lxc-lifecycle.yml");
});
