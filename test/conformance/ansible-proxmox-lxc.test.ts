// Debian's ansible with community.general 6.6.2's `proxmox` module creates, re-runs, starts and
// stops a container in the in-process simulator and lists the tasks with `proxmox_tasks_info`
// (test/conformance/playbooks/lxc-proxmox-module.yml); python3-proxmoxer then reads back what
// the module made. Both are clients nobody here wrote.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { REPO_ROOT, ansibleEnv, ansibleMissing, run } from "../support/conformance.js";
import { proxmoxerSkip, runProxmoxerScript } from "./proxmoxer.js";

const missing = ansibleMissing() ?? proxmoxerSkip;
let sim: RunningSimulator;

before(async () => {
  if (!missing) sim = await startSimulator({ port: 0, nodes: 2 });
});
after(async () => {
  await sim?.close();
});

const READ_BACK = `
import json, sys
from proxmoxer import ProxmoxAPI
host, port, ca, password = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
p = ProxmoxAPI(host, port=port, user="root@pam", password=password, verify_ssl=ca)
ct = p.nodes("pve1").lxc(410)
res = [r for r in p.cluster.resources.get(type="vm") if r["vmid"] == 410]
print(json.dumps({"config": ct.config.get(), "status": ct.status.current.get(), "resource": res[0]}))
`;

test("proxmox (LXC) module: create with NIC and mount point, rerun unchanged, start, stop, tasks listed", { skip: missing }, async () => {
  const file = join(REPO_ROOT, "test/conformance/playbooks/lxc-proxmox-module.yml");
  const vars = JSON.stringify({ api_host: `127.0.0.1:${sim.port}`, api_password: sim.rootPassword });
  const result = await run("ansible-playbook", [file, "-e", vars], ansibleEnv({}), REPO_ROOT, 300_000);
  assert.equal(result.code, 0, `playbook failed:\n${result.stdout.slice(-6000)}\n${result.stderr.slice(-2000)}`);

  const { config, status, resource } = await runProxmoxerScript(sim, READ_BACK);
  // what the module's parameters became (it sends rootfs=<disk>, netif/mounts keys as given)
  assert.equal(config.rootfs, "local-lvm:vm-410-disk-0,size=8G");
  assert.equal(config.mp0, "local-lvm:vm-410-disk-1,mp=/srv/data,backup=1,size=4G");
  assert.match(config.net0, /^name=eth0,bridge=vmbr0,gw=10\.20\.0\.1,hwaddr=BC:24:11:[0-9A-F:]{8},ip=10\.20\.0\.10\/24,tag=20,type=veth$/);
  assert.equal(config.hostname, "web-1");
  assert.equal(config.cores, 2);
  assert.equal(config.memory, 1024);
  assert.equal(config.swap, 256);
  assert.equal(config.unprivileged, 1);
  assert.equal(config.features, "nesting=1");
  assert.equal(config.tags, "prod;web");
  assert.equal(config.onboot, 1);
  assert.equal(config.ostype, "debian");
  assert.equal(config.password, undefined);
  assert.equal(config["ssh-public-keys"], undefined);
  assert.equal(status.status, "stopped");
  assert.equal(status.name, "web-1");
  assert.equal(status.maxswap, 256 * 1024 ** 2);
  assert.deepEqual(status.ha, { managed: 0 });
  assert.equal(resource.id, "lxc/410");
  assert.equal(resource.type, "lxc");
  assert.equal(resource.maxdisk, 8 * 1024 ** 3);
  assert.equal(resource.template, 0);
});
