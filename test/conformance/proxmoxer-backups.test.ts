// Backups pvectl made, as a client nobody here wrote sees them: Debian's python3-proxmoxer
// lists the archives through PVE's content API (volume id, guest, notes, protected flag) as
// pvectl reported them, restores one; and pvectl lists an archive proxmoxer made.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { listBackups } from "../../src/app/backup-list.js";
import { planBackupRun } from "../../src/app/backup-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { PROXMOXER_PREAMBLE, proxmoxerSkip as skip, runProxmoxerScript } from "./proxmoxer.js";

const CT_TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

const SPEC = `
vms:
  - { vmid: 8001, name: web, node: pve1, memory: 512, disks: { scsi0: { storage: local-lvm, size: 1G } } }
  - { vmid: 8002, name: golden, node: pve1, template: true, memory: 512, disks: { scsi0: { storage: local-lvm, size: 1G } } }
containers:
  - { vmid: 8003, hostname: cache, node: pve1, ostemplate: ${CT_TEMPLATE}, rootfs: { storage: local-lvm, size: 1G } }
`;

const SCRIPT = `
${PROXMOXER_PREAMBLE}out = {}
content = node.storage("local").content.get(content="backup")
out["archives"] = sorted([c["volid"], c["vmid"], c.get("notes"), bool(c.get("protected")), c["format"]] for c in content)
web = [c["volid"] for c in content if c["vmid"] == 8001][0]
out["restore"] = wait(node.qemu.post(vmid=8011, archive=web))
out["restored_name"] = node.qemu(8011).config.get().get("name")
out["extracted"] = node.vzdump.extractconfig.get(volume=web)
out["own_backup"] = wait(node.vzdump.post(vmid=8003, storage="local", compress="lzo"))
print(json.dumps(out))
`;

describe("backups pvectl made, listed and restored by python3-proxmoxer", { skip }, () => {
  let sim: RunningSimulator;
  let client: PveClient;
  let reported: Map<number, string>;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 3, config: { content: [CT_TEMPLATE] } });
    client = new PveClient({
      host: "127.0.0.1",
      port: sim.port,
      user: "root@pam",
      password: sim.rootPassword,
      fingerprint: sim.fingerprint as string,
    });
    const fast = { taskPoll: { minIntervalMs: 5, maxIntervalMs: 20 } };
    assert.equal((await applyPlan(client, await planSpec(client, parseSpec(SPEC, "backups.yaml")), fast)).ok, true);
    const planned = await planBackupRun(
      client,
      { vmids: [8001, 8002, 8003] },
      { storage: "local", mode: "snapshot", compress: "zstd", notesTemplate: "{{guestname}} by pvectl", protected: true },
    );
    const report = await applyPlan(client, planned, fast);
    assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
    reported = new Map(report.guests.map((g) => [g.vmid!, g.steps[0]!.result!.replace(/^archive /, "")]));
  });
  after(async () => {
    await client?.close();
    await sim?.close();
  });

  it("lists each archive as pvectl reported it (a template's too), with its notes and protection, and restores one", async () => {
    const out = await runProxmoxerScript(sim, SCRIPT, 120_000);
    const pvectls = (out.archives as Array<[string, number, string, boolean, string]>).filter(([volid]) =>
      [...reported.values()].includes(volid),
    );
    assert.deepEqual(
      pvectls
        .map(([volid, vmid, notes, isProtected]) => [vmid, volid === reported.get(vmid), notes, isProtected])
        .sort((a, b) => Number(a[0]) - Number(b[0])),
      [
        [8001, true, "web by pvectl", true],
        [8002, true, "golden by pvectl", true],
        [8003, true, "cache by pvectl", true],
      ],
    );
    assert.equal(out.restore, "OK");
    assert.equal(out.restored_name, "web");
    // The archive's config as extractconfig answers it: the config file's text (pvectl's restore reads name and tags from it).
    assert.match(String(out.extracted), /^name: web$/m);
    assert.match(String(out.extracted), /^tags: pvectl;pvectl-node\.pve1$/m);
    assert.equal(out.own_backup, "OK");
  });

  it("pvectl lists the archive proxmoxer made next to its own", async () => {
    const listing = await listBackups(client, { vmids: [8003] });
    assert.equal(listing.archives.length, 2);
    assert.ok(listing.archives.some((a) => a.volid === reported.get(8003) && a.protected));
    assert.ok(listing.archives.some((a) => a.volid.endsWith(".tar.lzo") && !a.protected));
  });
});
