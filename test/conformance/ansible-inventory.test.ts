// Debian's ansible-inventory and ansible-playbook use `pvectl inventory` as an executable
// inventory against the simulator, over HTTPS with the certificate pinned.
import assert from "node:assert/strict";
import { chmod, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { REPO_ROOT, ansibleEnv, ansibleMissing, run } from "../support/conformance.js";
import { pvectlShellCommand } from "../support/pvectl-command.js";

const missing = ansibleMissing();
let sim: RunningSimulator;
let dir: string;
let env: NodeJS.ProcessEnv;

async function createVm(client: PveClient, node: string, vmid: number, name: string, tags: string, start: boolean) {
  const upid = (await client.request("POST", `/nodes/${node}/qemu`, {
    vmid,
    name,
    tags,
    memory: 1024,
    net0: "virtio,bridge=vmbr0",
    scsi0: "local-lvm:4",
    ipconfig0: `ip=10.10.0.${vmid - 100}/24,gw=10.10.0.1`,
  })) as string;
  await client.waitForTask(upid);
  if (start) await client.waitForTask((await client.request("POST", `/nodes/${node}/qemu/${vmid}/status/start`)) as string);
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
  await createVm(client, "pve1", 101, "web-1", "web;prod", true);
  await createVm(client, "pve2", 102, "web-2", "web", false);
  await createVm(client, "pve2", 103, "db-1", "db;prod", true);
  await createVm(client, "pve1", 104, "db-1", "db", false); // a second guest named db-1
  await client.close();

  dir = await mkdtemp(join(tmpdir(), "pvectl-inv-"));
  const script = join(dir, "pve.sh");
  await writeFile(script, `#!/bin/sh\ncd '${REPO_ROOT}' && exec ${pvectlShellCommand()} inventory "$@"\n`);
  await chmod(script, 0o755);
  env = ansibleEnv({
    PROXMOX_HOST: "127.0.0.1",
    PROXMOX_PORT: String(sim.port),
    PROXMOX_USER: "root@pam",
    PROXMOX_PASSWORD: sim.rootPassword,
    PROXMOX_FINGERPRINT: sim.fingerprint,
  });
});

after(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("ansible-inventory --graph shows the expected groups and hosts", { skip: missing }, async () => {
  const result = await run("ansible-inventory", ["-i", join(dir, "pve.sh"), "--graph"], env);
  assert.equal(result.code, 0, result.stderr);
  const graph = result.stdout;
  for (const line of ["@proxmox_all_qemu:", "@proxmox_all_running:", "@tag_web:", "@tag_prod:", "@proxmox_pve2_qemu:"]) {
    assert.ok(graph.includes(line), `missing ${line} in\n${graph}`);
  }
  for (const host of ["web-1", "web-2", "db-1-103", "db-1-104"]) assert.ok(graph.includes(`|--${host}`), `missing host ${host}`);
});

test("ansible-inventory --list carries each host's variables", { skip: missing }, async () => {
  const result = await run("ansible-inventory", ["-i", join(dir, "pve.sh"), "--list"], env);
  assert.equal(result.code, 0, result.stderr);
  const inventory = JSON.parse(result.stdout) as { _meta: { hostvars: Record<string, Record<string, unknown>> }; [k: string]: unknown };
  const web1 = inventory._meta.hostvars["web-1"];
  assert.equal(web1?.proxmox_vmid, 101);
  assert.equal(web1?.proxmox_node, "pve1");
  assert.equal(web1?.proxmox_status, "running");
  assert.deepEqual(web1?.proxmox_tags_parsed, ["prod", "web"]);
  assert.deepEqual((inventory.tag_prod as { hosts: string[] }).hosts.sort(), ["db-1-103", "web-1"]);
});

test("a playbook on a tag group runs on exactly that group's hosts", { skip: missing }, async () => {
  const out = join(dir, "ran");
  const playbook = join(dir, "play.yml");
  await writeFile(
    playbook,
    [
      "- hosts: tag_web",
      "  connection: local",
      "  gather_facts: false",
      "  tasks:",
      "    - ansible.builtin.file:",
      `        path: "${out}/{{ inventory_hostname }}-{{ proxmox_vmid }}"`,
      "        state: touch",
      "",
    ].join("\n"),
  );
  await run("mkdir", ["-p", out], env);
  const result = await run("ansible-playbook", ["-i", join(dir, "pve.sh"), playbook], env);
  assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
  assert.deepEqual((await readdir(out)).sort(), ["web-1-101", "web-2-102"]);
});

test("an unreachable API fails the inventory instead of returning nothing", { skip: missing }, async () => {
  const result = await run("ansible-inventory", ["-i", join(dir, "pve.sh"), "--list"], { ...env, PROXMOX_PORT: "1" });
  // ansible-inventory itself only warns when a source fails; the script must exit non-zero with a clear reason.
  assert.match(result.stderr, /connection refused/);
  const direct = await run(join(dir, "pve.sh"), ["--list"], { ...env, PROXMOX_PORT: "1" });
  assert.equal(direct.code, 1);
  assert.match(direct.stderr, /cannot connect to https:\/\/127\.0\.0\.1:1: connection refused/);
});
