// The guest model against clients nobody here wrote: python3-proxmoxer and Debian's ansible
// (community.general proxmox modules and inventory plugin), over HTTPS to a real simulator.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";

const run = promisify(execFile);
const PYTHON = "/usr/bin/python3";
const hasProxmoxer = existsSync("/usr/lib/python3/dist-packages/proxmoxer");
const hasAnsible =
  existsSync("/usr/bin/ansible-playbook") && existsSync("/usr/lib/python3/dist-packages/ansible_collections/community/general");

/** requests prefers REQUESTS_CA_BUNDLE over verify=False; drop it so validate_certs: false works. */
function clientEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ANSIBLE_NOCOLOR: "1", ANSIBLE_STDOUT_CALLBACK: "json", ANSIBLE_LOCALHOST_WARNING: "0" };
  delete env.REQUESTS_CA_BUNDLE;
  delete env.CURL_CA_BUNDLE;
  return env;
}

const PROXMOXER_SCRIPT = `
import json, sys, time
from proxmoxer import ProxmoxAPI
port = int(sys.argv[1])
p = ProxmoxAPI("127.0.0.1", port=port, user="root@pam", password="proxmox", verify_ssl=False)
out = {}
def wait(node, upid):
    for _ in range(100):
        st = p.nodes(node).tasks(upid).status.get()
        if st["status"] == "stopped":
            return st["exitstatus"]
        time.sleep(0.05)
    return "timeout"
vmid = int(p.cluster.nextid.get())
out["nextid"] = vmid
out["create"] = wait("pve1", p.nodes("pve1").qemu.post(vmid=vmid, name="px1", memory=1024, scsi0="local-lvm:8", net0="virtio,bridge=vmbr0", agent=1))
out["config"] = p.nodes("pve1").qemu(vmid).config.get()
try:
    p.nodes("pve1").qemu.post(vmid=vmid)
except Exception as e:
    out["collision"] = str(e)
out["start"] = wait("pve1", p.nodes("pve1").qemu(vmid).status.start.post())
out["again"] = wait("pve1", p.nodes("pve1").qemu(vmid).status.start.post())
out["snapshot"] = wait("pve1", p.nodes("pve1").qemu(vmid).snapshot.post(snapname="before"))
out["snapshots"] = [s["name"] for s in p.nodes("pve1").qemu(vmid).snapshot.get()]
p.nodes("pve1").qemu(vmid).config.put(memory=2048)
out["pending"] = [x for x in p.nodes("pve1").qemu(vmid).pending.get() if x["key"] == "memory"]
try:
    p.nodes("pve1").qemu(vmid).config.put(cores=4, digest="0" * 40)
except Exception as e:
    out["digest"] = str(e)
out["resources"] = p.cluster.resources.get(type="vm")
try:
    p.nodes("pve1").qemu(vmid).delete()
except Exception as e:
    out["destroy_running"] = str(e)
out["stop"] = wait("pve1", p.nodes("pve1").qemu(vmid).status.stop.post())
out["destroy"] = wait("pve1", p.nodes("pve1").qemu(vmid).delete())
out["content"] = p.nodes("pve1").storage("local-lvm").content.get()
print(json.dumps(out))
`;

describe("real clients against the simulator", { skip: !hasProxmoxer && "python3-proxmoxer is not installed" }, () => {
  let sim: RunningSimulator;
  let dir: string;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 11, nodes: 3 });
    dir = mkdtempSync(join(tmpdir(), "pvectl-guests-"));
  });
  after(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("proxmoxer: create, collision, start, snapshot, pending, digest, destroy", async () => {
    const script = join(dir, "px.py");
    writeFileSync(script, PROXMOXER_SCRIPT);
    const { stdout } = await run(PYTHON, [script, String(sim.port)], { env: clientEnv(), timeout: 60_000 });
    const out = JSON.parse(stdout) as Record<string, unknown>;
    assert.equal(out.nextid, 100);
    assert.equal(out.create, "OK");
    const config = out.config as Record<string, unknown>;
    assert.equal(config.scsi0, "local-lvm:vm-100-disk-0,size=8G");
    assert.match(String(config.net0), /^virtio=BC:24:11:[0-9A-F:]{8},bridge=vmbr0$/);
    assert.match(String(out.collision), /500 .*unable to create VM 100 - VM 100 already exists on node 'pve1'/);
    assert.equal(out.start, "OK");
    assert.equal(out.again, "VM 100 already running");
    assert.equal(out.snapshot, "OK");
    assert.deepEqual(out.snapshots, ["before", "current"]);
    assert.deepEqual(out.pending, [{ key: "memory", value: "1024", pending: "2048" }]);
    assert.match(String(out.digest), /checksum mismatch \(file change by other user\?\)/);
    assert.equal((out.resources as Array<Record<string, unknown>>)[0]?.status, "running");
    assert.match(String(out.destroy_running), /VM 100 is running - destroy failed/);
    assert.equal(out.stop, "OK");
    assert.equal(out.destroy, "OK");
    assert.deepEqual(out.content, []);
  });

  it("ansible: proxmox_kvm create and start, then the inventory plugin", { skip: !hasAnsible && "ansible is not installed" }, async () => {
    writeFileSync(
      join(dir, "play.yml"),
      `- hosts: localhost
  gather_facts: false
  vars:
    api: &api
      api_host: 127.0.0.1:${sim.port}
      api_user: root@pam
      api_password: proxmox
      validate_certs: false
  tasks:
    - community.general.proxmox_kvm:
        <<: *api
        node: pve2
        name: ans1
        memory: 1024
        scsi: { scsi0: "local-lvm:4", scsi1: "shared:2" }
        net: { net0: "virtio,bridge=vmbr0" }
        agent: true
        timeout: 20
      register: created
    - community.general.proxmox_kvm:
        <<: *api
        vmid: "{{ created.vmid }}"
        state: started
`,
    );
    const playbook = await run("/usr/bin/ansible-playbook", [join(dir, "play.yml")], {
      env: clientEnv(),
      cwd: dir,
      timeout: 120_000,
    }).catch((err: { stdout?: string }) => {
      throw new Error(`ansible-playbook failed: ${(err.stdout ?? "").slice(-3000)} ${String(err).slice(0, 2000)}`);
    });
    const result = JSON.parse(playbook.stdout) as { stats: Record<string, { failures: number; changed: number }> };
    assert.equal(result.stats.localhost?.failures, 0);
    assert.equal(result.stats.localhost?.changed, 2);

    writeFileSync(
      join(dir, "sim.proxmox.yml"),
      `plugin: community.general.proxmox\nurl: ${sim.url}\nuser: root@pam\npassword: proxmox\nvalidate_certs: false\nwant_facts: true\nwant_proxmox_nodes_ansible_host: true\n`,
    );
    const inv = await run("/usr/bin/ansible-inventory", ["-i", join(dir, "sim.proxmox.yml"), "--list"], {
      env: { ...clientEnv(), ANSIBLE_INVENTORY_ENABLED: "community.general.proxmox" },
      cwd: dir,
      timeout: 60_000,
    });
    const inventory = JSON.parse(inv.stdout) as { _meta: { hostvars: Record<string, Record<string, unknown>> } } & Record<
      string,
      { hosts?: string[] }
    >;
    const host = inventory._meta.hostvars.ans1 as Record<string, unknown>;
    assert.equal(host.proxmox_node, "pve2");
    assert.equal(host.proxmox_status, "running");
    const vmid = host.proxmox_vmid as number;
    assert.deepEqual(host.proxmox_scsi1, { disk_image: `shared:${vmid}/vm-${vmid}-disk-0.raw`, size: "2G" });
    assert.deepEqual(host.proxmox_snapshots, []);
    assert.deepEqual(inventory.proxmox_pve2_qemu?.hosts, ["ans1"]);
    assert.match(String(inventory._meta.hostvars.pve1?.ansible_host), /^\d+\.\d+\.\d+\.\d+$/);
  });
});
