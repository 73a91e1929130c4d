// The ansible.cfg pvectl ships (examples/ansible/) as Debian's ansible-playbook reads it: against
// an unreachable cluster or an empty inventory the play fails (exit non-zero) instead of "no hosts matched" and exit 0,
// which is what Ansible does with its default settings (shown too, so the setting is what matters);
// against a cluster it runs over the guests.
import assert from "node:assert/strict";
import { chmod, cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { REPO_ROOT, ansibleEnv, ansibleMissing, run } from "../support/conformance.js";
import { pvectlShellCommand } from "../support/pvectl-command.js";

const missing = ansibleMissing();
let dir: string;
let sim: RunningSimulator;

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

before(async () => {
  if (missing) return;
  dir = await mkdtemp(join(tmpdir(), "pvectl-ansible-cfg-"));
  await cp(join(REPO_ROOT, "examples", "ansible"), dir, { recursive: true });
  // `pvectl` on PATH, as `npm i -g` puts it there, running this checkout.
  await writeFile(join(dir, "pvectl"), `#!/bin/sh\ncd '${REPO_ROOT}' && exec ${pvectlShellCommand()} "$@"\n`);
  await chmod(join(dir, "pvectl"), 0o755);
  sim = await startSimulator({ port: 0, nodes: 1 });
  const client = new PveClient({
    host: "127.0.0.1",
    port: sim.port,
    user: "root@pam",
    password: sim.rootPassword,
    fingerprint: sim.fingerprint,
  });
  await client.waitForTask((await client.request("POST", "/nodes/pve1/qemu", { vmid: 101, name: "web-1", memory: 512 })) as string);
  // A login without any permission: PVE shows it no guest, so the inventory is empty.
  await client.request("POST", "/access/users", { userid: "nobody@pve", password: "nobody-pass" });
  await client.close();
});
after(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const playbook = (cfg: string, cluster: NodeJS.ProcessEnv) =>
  run(
    "ansible-playbook",
    ["site.yml"],
    { ...ansibleEnv(cluster), PATH: `${dir}:${process.env.PATH}`, ANSIBLE_CONFIG: join(dir, cfg) },
    dir,
  );

/** The shipped ansible.cfg fails the play; the same file without `unparsed_is_failed` "succeeds" against no hosts. */
async function failsOnlyWithTheSetting(cluster: NodeJS.ProcessEnv): Promise<void> {
  const shipped = await playbook("ansible.cfg", cluster);
  assert.notEqual(shipped.code, 0, shipped.stdout + shipped.stderr);
  assert.match(shipped.stdout + shipped.stderr, /inventory/i);
  const defaults = (await readFile(join(dir, "ansible.cfg"), "utf8")).replace(/^unparsed_is_failed.*$/m, "");
  await writeFile(join(dir, "defaults.cfg"), defaults);
  const lenient = await playbook("defaults.cfg", cluster);
  assert.equal(lenient.code, 0, "what the setting prevents: Ansible's default reports success against nothing");
  assert.match(lenient.stdout + lenient.stderr, /no hosts matched|provided hosts list is empty/i);
}

test("with the shipped ansible.cfg, an unreachable cluster fails the play; with Ansible's defaults it passes as empty", {
  skip: missing,
}, async () => {
  await failsOnlyWithTheSetting({
    PROXMOX_HOST: "127.0.0.1",
    PROXMOX_PORT: String(await closedPort()),
    PROXMOX_USER: "root@pam",
    PROXMOX_PASSWORD: "x",
  });
});

test("with the shipped ansible.cfg, an empty inventory (a login that sees no guest) fails the play; with Ansible's defaults it passes as empty", {
  skip: missing,
}, async () => {
  await failsOnlyWithTheSetting({
    PROXMOX_HOST: "127.0.0.1",
    PROXMOX_PORT: String(sim.port),
    PROXMOX_USER: "nobody@pve",
    PROXMOX_PASSWORD: "nobody-pass",
    PROXMOX_FINGERPRINT: sim.fingerprint,
  });
});

test("with the shipped ansible.cfg and a reachable cluster, the play runs over the guests", { skip: missing }, async () => {
  const result = await playbook("ansible.cfg", {
    PROXMOX_HOST: "127.0.0.1",
    PROXMOX_PORT: String(sim.port),
    PROXMOX_USER: "root@pam",
    PROXMOX_PASSWORD: sim.rootPassword,
    PROXMOX_FINGERPRINT: sim.fingerprint,
  });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /web-1/);
});
