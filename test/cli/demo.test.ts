import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pvectl } from "../support/cli.js";

const demo = (args: string[]) => pvectl(["demo", ...args]);

describe("pvectl demo", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "pvectl-demo-"));
    writeFileSync(
      join(dir, "small.yaml"),
      `version: 1
vms:
  - vmid: 101
    name: demo1
    node: pve1
    power: running
    memory: 1G
    disks:
      scsi0: { storage: local-lvm, size: 4G }
    nics:
      net0: { bridge: vmbr0 }
  - name: demo2
    node: pve2
    memory: 512
    cdroms:
      ide2: { iso: "local:iso/debian-13-netinst.iso" }
    nics:
      net0: { bridge: vmbr1, tag: 10 }
`,
    );
    writeFileSync(
      join(dir, "elsewhere.yaml"),
      "version: 1\nconnections:\n  lab: { host: pve.example.com, tokenSecretEnv: X, user: a@pve, tokenId: pvectl }\nvms:\n  - { name: far, node: pve1, connection: lab }\n",
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("plans, applies and re-plans the examples against its own simulator (HTTPS, pinned), exit 0", async () => {
    const result = await demo(["--examples", dir]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^\(skipping .*elsewhere\.yaml: it targets a named connection\)\n/);
    assert.match(result.stdout, /pvectl demo: simulator at https:\/\/127\.0\.0\.1:\d+ \(3 nodes, certificate pinned [0-9A-F:]{23}\.\.\.\)/);
    assert.match(result.stdout, /1\. pvectl plan\nTarget: https:\/\/127\.0\.0\.1:\d+\n\+ demo1 \(vmid 101\) on pve1\n/);
    assert.match(result.stdout, /^ok demo1: create \(vmid 101\)$/m);
    assert.match(result.stdout, /Apply finished in [\d.]+s: 2 created\./);
    assert.match(
      result.stdout,
      /3\. pvectl plan \(again\)\nTarget: https:\/\/127\.0\.0\.1:\d+\n= demo1 \(vmid 101\) on pve1: no changes\n= demo2 \(vmid \d+\) on pve2: no changes\n/,
    );
    assert.match(result.stdout, /4\. someone edits demo1 by hand .*\nTarget: https:\/\/127\.0\.0\.1:\d+\n~ demo1 \(vmid 101\) on pve1\n/);
    assert.match(
      result.stdout,
      /~ change net0 \(MAC BC:24:11(:[0-9A-F]{2}){3} kept\) {2}\[configuration\]\n {8}net0\.bridge: vmbr1 -> vmbr0\n/,
    );
    assert.match(result.stdout, /6\. pvectl plan\nTarget: https:\/\/127\.0\.0\.1:\d+\n= demo1 \(vmid 101\) on pve1: no changes\n/);
  });

  it("runs the package's own examples and the NetBox loop to the inventory (the README's main job)", async () => {
    const result = await demo(["--timing", "instant"]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.doesNotMatch(result.stdout, /templates first/, "the template and its clone are made in one run");
    assert.match(
      result.stdout,
      /^\+ debian-13-tpl \(vmid 9000\) on pve1\n(?: {4}.*\n)*\+ app1 \(vmid 210\) on pve1\n {4}\+ linked clone of debian-13-tpl \(vmid 9000\) as app1 on pve1/m,
    );
    assert.match(result.stdout, /^created +debian-13-tpl +vmid 9000 +node pve1$/m);
    assert.match(result.stdout, /^ {4}~ grow scsi0 from 4 GiB to 16 GiB/m, "the clone is converged in the same plan");
    assert.match(result.stdout, /Apply finished in [\d.]+s: 6 created\./);
    assert.match(
      result.stdout,
      /^created +app1 +vmid 210 +node pve1\n.*\n +volumes: ide2=local-lvm:vm-210-cloudinit scsi0=local-lvm:base-9000-disk-0\/vm-210-disk-0$/m,
    );
    assert.match(result.stdout, /^= app1 \(vmid 210\) on pve1: no changes$/m);
    assert.match(result.stdout, /^ok cache1: create \(vmid 250\)$/m, "the example container");
    assert.match(
      result.stdout,
      /^created +cache1 +vmid 250 +node pve3\n +macs: net0=BC:24:11(:[0-9A-F]{2}){3}\n +volumes: mp0=local-lvm:vm-250-disk-1 rootfs=local-lvm:vm-250-disk-0$/m,
    );
    assert.match(result.stdout, /= cache1 \(vmid 250\) on pve3: no changes/);
    assert.match(result.stdout, /^7\. pvectl snapshot create before-upgrade --tag web$/m);
    assert.match(result.stdout, /^ {4}\+ take snapshot 'before-upgrade' of web1 {2}\[configuration\]$/m);
    assert.match(result.stdout, /^ {4}\+ take snapshot 'before-upgrade' of web2 {2}\[configuration\]$/m);
    assert.match(result.stdout, /Apply finished in [\d.]+s: 2 changed\./);
    assert.match(result.stdout, /8\. NetBox at http:\/\/127\.0\.0\.1:\d+ holds 3 VM records in status planned: db-01, web-01, web-02\n/);
    for (const name of ["db-01", "web-01", "web-02"]) {
      assert.match(
        result.stdout,
        new RegExp(`^staged +${name} \\(NetBox id \\d+\\): vm \\d+ on pve2 \\(created\\); wrote proxmox_vmid=\\d+, eth0 MAC BC:24:11`, "m"),
      );
    }
    assert.match(result.stdout, /9\. pvectl netbox sync \(again\): 0 record\(s\) selected, nothing to do/);
    assert.match(result.stdout, /^ {2}@netbox_staged: db-01, web-01, web-02$/m);
    assert.match(result.stdout, /^ {2}@proxmox_all_qemu: app1, db-01, db1, web-01, web-02, web1, web2$/m);
    assert.match(result.stdout, /^ {2}app1: ansible_host=10\.0\.10\.31$/m, "the clone's cloud-init address");
    assert.match(result.stdout, /^ {2}web-01: ansible_host=10\.20\.0\.\d+$/m, "ansible_host from NetBox's primary IP");
    assert.match(result.stdout, /^ {2}web1: ansible_host=10\.0\.10\.11$/m, "ansible_host from the cloud-init ipconfig");
    assert.match(result.stdout, /^ {2}@proxmox_all_lxc: cache1$/m);
    assert.match(result.stdout, /^ {2}cache1: ansible_host=10\.0\.10\.21$/m, "ansible_host from the container's net0");
  });

  it("--json prints one document with the plan, the report and an empty second plan", async () => {
    const result = await demo(["--examples", dir, "--timing", "instant", "--json"]);
    assert.equal(result.code, 0, result.stderr);
    const doc = JSON.parse(result.stdout) as {
      report: { ok: boolean; guests: Array<{ result: string; macs: Record<string, string> }> };
      secondPlan: { guests: Array<{ steps: unknown[] }> };
      netbox: Array<{ result: string }>;
      inventory: { _meta: { hostvars: Record<string, unknown> } };
    };
    assert.equal(doc.report.ok, true);
    assert.deepEqual(
      doc.report.guests.map((g) => g.result),
      ["created", "created"],
    );
    assert.ok(doc.report.guests.every((g) => /^BC:24:11/.test(g.macs.net0 ?? "")));
    assert.ok(doc.secondPlan.guests.every((g) => g.steps.length === 0));
    assert.deepEqual(
      doc.netbox.map((r) => r.result),
      ["staged", "staged", "staged"],
    );
    assert.deepEqual(Object.keys(doc.inventory._meta.hostvars).sort(), ["db-01", "demo1", "demo2", "web-01", "web-02"]);
  });
});
