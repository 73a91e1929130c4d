// What `access needs` derives from a spec, by what it uses: operations per guest, scoping of
// paths (per guest, per pool, /vms when nothing narrows it), the opt-in operations and notes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { accessSpec, specAccessNeeds } from "../../src/app/access.js";
import type { NeedsOptions } from "../../src/engine/access-needs.js";
import { parseSpec } from "../../src/sources/spec/index.js";

function needs(yaml: string, options: NeedsOptions = {}) {
  const result = specAccessNeeds(parseSpec(yaml, "t.yaml"), options);
  const lines = result.paths.flatMap((p) => p.privileges.map((q) => `${p.path} ${q.privilege} ${q.operations.join(",")}`));
  return { lines, notes: result.notes, paths: result.paths.map((p) => p.path) };
}

const VM = `vms:
  - vmid: 120
    name: app
    node: pve1
    memory: 1G
    disks: { scsi0: { storage: local-lvm, size: 4G } }
    nics: { net0: { bridge: vmbr0 } }
`;

describe("access needs", () => {
  it("a guest with a vmid: its own path, its storage and bridge, each operation named", () => {
    const { lines, paths } = needs(VM);
    assert.deepEqual(paths, ["/sdn/zones/localnetwork/vmbr0", "/storage/local-lvm", "/vms/120"]);
    assert.ok(lines.includes("/vms/120 VM.Allocate create,destroy"));
    assert.ok(lines.includes("/vms/120 VM.Audit read"));
    assert.ok(lines.includes("/vms/120 VM.PowerMgmt power"));
    assert.ok(lines.includes("/vms/120 VM.Config.Memory change,create"));
    assert.ok(!lines.some((l) => l.includes("VM.Snapshot") || l.includes("VM.Backup")), "not used by this spec");
  });

  it("a cloud-init drive needs Cloudinit and CDROM to change or remove it (qemu-server's update), even when NICs cover the cloud-init keys' (Cloudinit or Network)", () => {
    const { lines } = needs(VM.replace("    memory: 1G\n", "    memory: 1G\n    cloudInit: { storage: local-lvm, user: debian }\n"));
    assert.ok(lines.includes("/vms/120 VM.Config.Cloudinit change"), lines.join("\n"));
    assert.ok(lines.includes("/vms/120 VM.Config.CDROM change"), lines.join("\n"));
  });

  it("snapshots and backups only when the spec or the options use them", () => {
    const retention = needs(VM.replace("    memory: 1G\n", "    memory: 1G\n    snapshots: { keep: 3, prefix: auto- }\n")).lines;
    assert.ok(retention.includes("/vms/120 VM.Snapshot snapshot"));
    assert.ok(!retention.some((l) => l.includes("VM.Snapshot.Rollback")), "retention prunes, never rolls back");
    const all = needs(VM, { snapshots: true, backupStorages: ["backup-nfs"] }).lines;
    // A rollback takes VM.Snapshot or VM.Snapshot.Rollback (PVE's `any`): VM.Snapshot, needed anyway, covers it.
    assert.ok(all.includes("/vms/120 VM.Snapshot snapshot"));
    assert.ok(!all.some((l) => l.includes("VM.Snapshot.Rollback")));
    assert.ok(all.includes("/vms/120 VM.Backup backup"));
    assert.ok(all.some((l) => l.startsWith("/storage/backup-nfs Datastore.AllocateSpace backup")));
  });

  it("a guest in a pool is granted through the pool; without vmid or pool only /vms reaches it", () => {
    const pooled = needs(VM.replace("    memory: 1G\n", "    pool: web\n    memory: 1G\n"));
    assert.ok(pooled.paths.includes("/pool/web"));
    assert.ok(!pooled.paths.some((p) => p.startsWith("/vms")));
    assert.ok(pooled.lines.includes("/pool/web Pool.Audit read"));
    const loose = needs(VM.replace("  - vmid: 120\n    name: app", "  - name: app"));
    assert.ok(loose.paths.includes("/vms"));
    assert.ok(loose.notes.some((n) => /no vmid and no pool: app\..*\/vms \(every guest/.test(n)));
  });

  it("a guest to be absent needs only what stops and destroys it (and reading it)", () => {
    const { lines } = needs("vms:\n  - vmid: 130\n    name: old\n    node: pve1\n    state: absent\n");
    assert.deepEqual(lines, ["/vms/130 VM.Allocate destroy", "/vms/130 VM.Audit read", "/vms/130 VM.PowerMgmt power"]);
  });

  it("a clone: VM.Clone on its source, the source's storages and bridges; a source outside the specs is a note", () => {
    const spec = `vms:
  - vmid: 9000
    name: tpl
    node: pve1
    template: true
    disks: { scsi0: { storage: shared, size: 4G } }
    nics: { net0: { bridge: vmbr1 } }
  - vmid: 210
    name: app1
    node: pve1
    clone: { from: tpl }
`;
    const { lines } = needs(spec);
    assert.ok(lines.includes("/vms/9000 VM.Clone clone"));
    assert.ok(lines.includes("/vms/210 VM.Allocate clone,destroy"));
    assert.ok(lines.some((l) => l.startsWith("/storage/shared Datastore.AllocateSpace") && l.includes("clone")));
    const outside = needs("vms:\n  - vmid: 211\n    name: app2\n    node: pve1\n    clone: { from: 9100 }\n");
    assert.ok(outside.lines.includes("/vms/9100 VM.Clone clone"));
    assert.ok(outside.notes.some((n) => n.startsWith("clone source 9100 of app2 is not in these specs")));
  });

  it("a VM's startup order needs Sys.Modify on / (qemu-server: it changes the host's behaviour), granted without propagation", () => {
    const { lines } = needs(VM.replace("    memory: 1G\n", "    memory: 1G\n    extraConfig: { startup: order=2 }\n"));
    assert.ok(lines.includes("/ Sys.Modify change,create"));
    const spec = accessSpec(
      specAccessNeeds(parseSpec(VM.replace("    memory: 1G\n", "    memory: 1G\n    extraConfig: { startup: order=2 }\n"), "t.yaml")).paths,
      "Deploy",
      { group: "ops" },
    );
    assert.deepEqual(
      spec.acls.find((a) => a.path === "/"),
      { path: "/", role: "DeployCluster", group: "ops", propagate: false },
    );
  });

  it("backup jobs: Sys.Audit to read them, Sys.Modify on / to change them", () => {
    const { lines } = needs("backupJobs:\n  - id: nightly\n    schedule: '02:00'\n    storage: local\n    selection: { pool: web }\n");
    assert.ok(lines.includes("/ Sys.Audit read"));
    assert.ok(lines.includes("/ Sys.Modify backup-job"));
    assert.ok(lines.includes("/pool/web VM.Backup backup-job"), "a job over a pool needs VM.Backup on it");
  });
});
