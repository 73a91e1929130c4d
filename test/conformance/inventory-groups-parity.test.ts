// The community plugin and `pvectl inventory` put the same guests in the same built-in groups
// (all_qemu, all_lxc, all_running, all_stopped, <node>_qemu, <node>_lxc, pool_<pool>; a
// template in neither), containers included: Debian's community.general 6.6.2 inventory plugin and
// pvectl read one simulated cluster and their group memberships are compared.
import assert from "node:assert/strict";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { REPO_ROOT, ansibleEnv, ansibleMissing, run } from "../support/conformance.js";
import { pvectlShellCommand } from "../support/pvectl-command.js";

const missing = ansibleMissing();
const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";
let sim: RunningSimulator;
let dir: string;

type Inventory = Record<string, { hosts?: string[]; children?: string[] }>;

async function task(client: PveClient, method: "POST" | "PUT", path: string, params: Record<string, string | number> = {}) {
  await client.waitForTask((await client.request(method, path, params)) as string);
}

before(async () => {
  if (missing) return;
  sim = await startSimulator({ port: 0, nodes: 2 });
  const client = new PveClient({
    host: "127.0.0.1",
    port: sim.port,
    user: "root@pam",
    password: sim.rootPassword,
    fingerprint: sim.fingerprint,
  });
  await client.request("POST", "/pools", { poolid: "team-a" });
  await task(client, "POST", "/nodes/pve1/qemu", { vmid: 101, name: "vm-a", memory: 512, scsi0: "local-lvm:1", pool: "team-a" });
  await task(client, "POST", "/nodes/pve1/qemu/101/status/start");
  await task(client, "POST", "/nodes/pve2/qemu", { vmid: 102, name: "vm-b", memory: 512 });
  await task(client, "POST", "/nodes/pve2/qemu", { vmid: 103, name: "tpl", memory: 512 });
  await task(client, "POST", "/nodes/pve2/qemu/103/template");
  await task(client, "POST", "/nodes/pve1/lxc", {
    vmid: 201,
    hostname: "ct-a",
    ostemplate: TEMPLATE,
    rootfs: "local-lvm:1",
    pool: "team-a",
  });
  await task(client, "POST", "/nodes/pve1/lxc/201/status/start");
  await task(client, "POST", "/nodes/pve2/lxc", { vmid: 202, hostname: "ct-b", ostemplate: TEMPLATE, rootfs: "local-lvm:1" });
  await client.close();
  dir = await mkdtemp(join(tmpdir(), "pvectl-groups-"));
});

after(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Group name -> sorted hosts, for the groups whose names start with `proxmox_`. */
function builtInGroups(inventory: Inventory): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, group] of Object.entries(inventory)) {
    if (name.startsWith("proxmox_") && group.hosts?.length) out[name] = [...group.hosts].sort();
  }
  return out;
}

test("pvectl's built-in groups hold the same hosts as the community plugin's, containers included", { skip: missing }, async () => {
  const config = join(dir, "sim.proxmox.yml");
  await writeFile(
    config,
    `plugin: community.general.proxmox\nurl: ${sim.url}\nuser: root@pam\npassword: ${sim.rootPassword}\nvalidate_certs: false\nwant_facts: false\n`,
  );
  const env = ansibleEnv({ ANSIBLE_INVENTORY_ENABLED: "community.general.proxmox" });
  const plugin = await run("ansible-inventory", ["-i", config, "--list"], env);
  assert.equal(plugin.code, 0, plugin.stderr);

  const script = join(dir, "pve.sh");
  await writeFile(script, `#!/bin/sh\ncd '${REPO_ROOT}' && exec ${pvectlShellCommand()} inventory "$@"\n`);
  await chmod(script, 0o755);
  const pvectl = await run(
    "ansible-inventory",
    ["-i", script, "--list"],
    ansibleEnv({
      PROXMOX_HOST: "127.0.0.1",
      PROXMOX_PORT: String(sim.port),
      PROXMOX_USER: "root@pam",
      PROXMOX_PASSWORD: sim.rootPassword,
      PROXMOX_FINGERPRINT: sim.fingerprint,
    }),
  );
  assert.equal(pvectl.code, 0, pvectl.stderr);

  const theirs = builtInGroups(JSON.parse(plugin.stdout) as Inventory);
  const ours = builtInGroups(JSON.parse(pvectl.stdout) as Inventory);
  // The plugin also lists the hypervisors as hosts of `proxmox_nodes` (pvectl: the inventory issue).
  delete theirs.proxmox_nodes;
  assert.deepEqual(ours, theirs);
  // The groups the containers issue names, so that a mismatch in both tools cannot pass unseen.
  assert.deepEqual(ours.proxmox_all_lxc, ["ct-a", "ct-b"]);
  assert.deepEqual(ours.proxmox_pve1_lxc, ["ct-a"]);
  assert.deepEqual(ours.proxmox_pve2_lxc, ["ct-b"]);
  assert.deepEqual(ours.proxmox_pool_team_a, ["ct-a", "vm-a"]);
  assert.deepEqual(ours.proxmox_all_running, ["ct-a", "vm-a"]);
});
