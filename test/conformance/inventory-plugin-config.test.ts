// The proof: one proxmox.yml written for the community plugin (keyed groups by tag
// and by proxmox_ostype, a compose for ansible_host, a groups condition, a filter) and one
// playbook that reads plugin host variables, run first with Debian's community.general 6.6.2
// plugin, then with `pvectl inventory --config <the same file>`, against one simulated
// cluster: the two runs print the same. Also: `pvectl inventory --graph` prints what
// `ansible-inventory --graph` prints for pvectl's inventory.
import assert from "node:assert/strict";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { ansibleEnv, ansibleMissing, REPO_ROOT, run } from "../support/conformance.js";
import { pvectlShellCommand } from "../support/pvectl-command.js";

const missing = ansibleMissing();
let sim: RunningSimulator;
let dir: string;
let config: string;
let script: string;

async function task(client: PveClient, path: string, params: Record<string, string | number> = {}) {
  await client.waitForTask((await client.request("POST", path, params)) as string);
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
  const vm = { memory: 512, ostype: "l26", net0: "virtio,bridge=vmbr0", scsi0: "local-lvm:1" };
  await task(client, "/nodes/pve1/qemu", { ...vm, vmid: 101, name: "web-1", tags: "web;prod", ipconfig0: "ip=10.0.0.11/24,gw=10.0.0.1" });
  await task(client, "/nodes/pve1/qemu/101/status/start");
  await task(client, "/nodes/pve2/qemu", { ...vm, vmid: 102, name: "web-2", tags: "web", ipconfig0: "ip=10.0.0.12/24,gw=10.0.0.1" });
  await task(client, "/nodes/pve2/qemu", { ...vm, vmid: 103, name: "win-1", tags: "prod", ostype: "win11", net0: "e1000,bridge=vmbr1" });
  await task(client, "/nodes/pve2/qemu", { ...vm, vmid: 104, name: "scratch", tags: "tmp" });
  await client.close();

  dir = await mkdtemp(join(tmpdir(), "pvectl-plugin-config-"));
  config = join(dir, "lab.proxmox.yml");
  await writeFile(
    config,
    [
      "plugin: community.general.proxmox",
      `url: ${sim.url}`,
      "user: root@pam",
      `password: "{{ lookup('env', 'LAB_PVE_PASSWORD') }}"`,
      "validate_certs: false",
      "want_facts: true",
      "keyed_groups:",
      "  - key: proxmox_tags_parsed",
      "    prefix: tag",
      "    parent_group: by_tag",
      "  - key: proxmox_ostype",
      "    prefix: os",
      "groups:",
      "  on_vmbr0: proxmox_net0.bridge == 'vmbr0'",
      "compose:",
      "  ansible_host: (proxmox_ipconfig0.ip | default('0.0.0.0/0')) | regex_replace('/.*$', '')",
      "  nic_model: proxmox_net0 | list | first",
      "filters:",
      "  - \"'tmp' not in (proxmox_tags_parsed | default([]))\"",
      "",
    ].join("\n"),
  );
  script = join(dir, "pve.sh");
  await writeFile(script, `#!/bin/sh\ncd '${REPO_ROOT}' && exec ${pvectlShellCommand()} inventory --config '${config}' "$@"\n`);
  await chmod(script, 0o755);
});

after(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function env() {
  return ansibleEnv({
    LAB_PVE_PASSWORD: sim.rootPassword,
    PROXMOX_FINGERPRINT: sim.fingerprint,
    ANSIBLE_INVENTORY_ENABLED: "community.general.proxmox,script",
  });
}

/** The playbook's visible result: one sorted line per host and task, timing and headers dropped. */
function results(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((l) => l.includes('"msg":') || /^ok: \[/.test(l))
    .map((l) => l.trim())
    .sort();
}

test("a playbook written for the community plugin prints the same with pvectl's inventory from the same proxmox.yml", {
  skip: missing,
}, async () => {
  const playbook = join(dir, "play.yml");
  await writeFile(
    playbook,
    [
      "- hosts: all:!proxmox_nodes",
      "  connection: local",
      "  gather_facts: false",
      "  tasks:",
      "    - ansible.builtin.debug:",
      '        msg: "{{ inventory_hostname }} vmid={{ proxmox_vmid }} bridge={{ proxmox_net0.bridge }} host={{ ansible_host }} nic={{ nic_model }}"',
      "- hosts: tag_web:&os_l26",
      "  connection: local",
      "  gather_facts: false",
      "  tasks:",
      "    - ansible.builtin.debug:",
      "        msg: \"web on linux: {{ inventory_hostname }} in {{ group_names | sort | join(',') }}\"",
      "- hosts: on_vmbr0",
      "  connection: local",
      "  gather_facts: false",
      "  tasks:",
      "    - ansible.builtin.debug:",
      '        msg: "vmbr0: {{ inventory_hostname }}"',
      "",
    ].join("\n"),
  );
  const plugin = await run("ansible-playbook", ["-i", config, playbook], env());
  assert.equal(plugin.code, 0, `${plugin.stdout}\n${plugin.stderr}`);
  const pvectl = await run("ansible-playbook", ["-i", script, playbook], env());
  assert.equal(pvectl.code, 0, `${pvectl.stdout}\n${pvectl.stderr}`);
  const theirs = results(plugin.stdout);
  assert.ok(
    theirs.some((l) => l.includes("web-1 vmid=101 bridge=vmbr0 host=10.0.0.11 nic=virtio")),
    theirs.join("\n"),
  );
  assert.ok(!theirs.some((l) => l.includes("scratch")), "the filter keeps scratch out");
  assert.ok(
    theirs.some((l) => l.includes("web on linux: web-1 in by_tag,on_vmbr0,os_l26")),
    "parent_group nests the tag groups",
  );
  assert.deepEqual(results(pvectl.stdout), theirs);
  assert.doesNotMatch(pvectl.stderr, /ERROR/, "pvectl writes nothing Ansible would show as an error");
});

test("pvectl inventory --graph prints what ansible-inventory --graph prints for pvectl's inventory", { skip: missing }, async () => {
  const ansible = await run("ansible-inventory", ["-i", script, "--graph"], env());
  assert.equal(ansible.code, 0, ansible.stderr);
  const ours = await run(script, ["--graph"], env());
  assert.equal(ours.code, 0, ours.stderr);
  assert.equal(ours.stdout.trim(), ansible.stdout.trim());
  assert.match(ours.stdout, /\n {2}\|--@by_tag:\n {2}\| {2}\|--@tag_\w+:/, "the parent group's children are nested");
});

test("TLS verification off as the file asks is not shown by Ansible as an error; it is in _meta.pvectl_warnings", {
  skip: missing,
}, async () => {
  const quiet = { ...env(), PROXMOX_FINGERPRINT: "" };
  const ansible = await run("ansible-inventory", ["-i", script, "--list"], quiet);
  assert.equal(ansible.code, 0, ansible.stderr);
  assert.doesNotMatch(ansible.stderr, /ERROR|TLS/);
  const direct = await run(script, ["--list"], quiet);
  assert.equal(direct.code, 0, direct.stderr);
  assert.equal(direct.stderr, "");
  const meta = (JSON.parse(direct.stdout) as { _meta: { pvectl_warnings?: string[] } })._meta;
  assert.match(meta.pvectl_warnings?.join("\n") ?? "", /TLS certificate verification is OFF/);
  const loud = await run(script, ["--list"], { ...quiet, PVECTL_INVENTORY_WARNINGS: "stderr" });
  assert.match(loud.stderr, /warning: TLS certificate verification is OFF/);
});
