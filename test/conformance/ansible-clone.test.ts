// Clones across clients nobody here wrote: community.general 6.6.2's `proxmox_kvm` clones a
// template against the simulator, `pvectl import` writes the result and its plan is only the
// adoption (and empty after); a VM pvectl cloned from the same template is read by
// python3-proxmoxer with the spec's name, settings and a fresh MAC.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { parse } from "yaml";
import { PveClient } from "../../src/api/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv } from "../support/cli.js";
import { REPO_ROOT, ansibleEnv, ansibleMissing, run } from "../support/conformance.js";
import { runProxmoxerScript } from "./proxmoxer.js";

const missing = ansibleMissing();
let sim: RunningSimulator;
let dir: string;

before(async () => {
  if (missing) return;
  sim = await startSimulator({ port: 0, nodes: 2 });
  dir = await mkdtemp(join(tmpdir(), "pvectl-clone-ansible-"));
  const client = new PveClient({
    host: "127.0.0.1",
    port: sim.port,
    user: "root@pam",
    password: sim.rootPassword,
    fingerprint: sim.fingerprint,
  });
  try {
    await client.request("POST", "/nodes/pve1/qemu", {
      vmid: 9000,
      name: "tpl",
      memory: 1024,
      scsi0: "local-lvm:4",
      ide2: "local-lvm:cloudinit",
      net0: "virtio,bridge=vmbr0",
    });
    await client.request("POST", "/nodes/pve1/qemu/9000/template", {});
  } finally {
    await client.close();
  }
});
after(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("proxmox_kvm's clone: pvectl imports it and plans only its adoption", { skip: missing }, async () => {
  const vars = JSON.stringify({ api_host: `127.0.0.1:${sim.port}`, api_password: sim.rootPassword });
  const result = await run(
    "ansible-playbook",
    [join(REPO_ROOT, "test/conformance/playbooks/qemu-clone.yml"), "-e", vars],
    ansibleEnv({}),
    REPO_ROOT,
    300_000,
  );
  assert.equal(result.code, 0, `playbook failed:\n${result.stdout.slice(-6000)}\n${result.stderr.slice(-2000)}`);

  const env = simEnv(sim);
  const imported = await pvectl(["import", "--vmid", "301"], env);
  assert.equal(imported.code, 0, imported.stderr);
  const doc = parse(imported.stdout) as { vms: Array<Record<string, unknown>> };
  assert.equal(doc.vms[0]!.clone, undefined, "the link to the template is not recoverable from PVE: no clone:");
  assert.equal(doc.vms[0]!.adopt, true);
  const spec = join(dir, "imported.yaml");
  await writeFile(spec, imported.stdout);
  const first = await pvectl(["plan", spec, "--json"], env);
  const steps = (JSON.parse(first.stdout) as { guests: Array<{ steps: Array<{ action: string }> }> }).guests.flatMap((g) =>
    g.steps.map((s) => s.action),
  );
  assert.deepEqual(steps, ["adopt"], first.stdout);
  assert.equal((await pvectl(["apply", spec, "--yes"], env)).code, 0);
  const empty = await pvectl(["plan", spec, "--detailed-exitcode"], env);
  assert.equal(empty.code, 0, `a rerun plan is empty:\n${empty.stdout}${empty.stderr}`);
});

test("python3-proxmoxer reads a VM pvectl cloned", { skip: missing }, async () => {
  const env = simEnv(sim);
  const spec = join(dir, "cloned.yaml");
  await writeFile(
    spec,
    "vms:\n  - vmid: 302\n    name: made-by-pvectl\n    node: pve1\n    cores: 4\n    tags: [app]\n    clone: { from: 9000 }\n",
  );
  const applied = await pvectl(["apply", spec, "--yes"], env);
  assert.equal(applied.code, 0, `${applied.stdout}${applied.stderr}`);
  const read = (await runProxmoxerScript(
    sim,
    `import json, sys
from proxmoxer import ProxmoxAPI
host, port, ca, password = sys.argv[1:5]
api = ProxmoxAPI(host, port=int(port), user="root@pam", password=password, verify_ssl=ca)
print(json.dumps({"clone": api.nodes("pve1").qemu(302).config.get(), "template": api.nodes("pve1").qemu(9000).config.get()}))
`,
  )) as { clone: Record<string, string | number>; template: Record<string, string | number> };
  assert.equal(read.clone.name, "made-by-pvectl");
  assert.equal(Number(read.clone.cores), 4);
  assert.equal(read.clone.tags, "app;pvectl;pvectl-node.pve1");
  assert.match(String(read.clone.scsi0), /^local-lvm:base-9000-disk-0\/vm-302-disk-0/);
  assert.notEqual(String(read.clone.net0).split(",")[0], String(read.template.net0).split(",")[0], "a fresh MAC");
});
