// "A pool per team" over the guest features the spec language has: a template with a cloud-init
// drive, a full and a linked clone of it with their own cloud-init, a container, snapshot
// retention and a backup job of the pool; then a change that moves a disk to another storage,
// changes cloud-init, the retention and the job's schedule; a backup of the pool restored over a
// VM and a container; snapshots taken, rolled back, pruned and deleted; then the job removed and
// every guest destroyed in one run (the template after its linked clone). The token is made as
// an operator would (`pvectl access needs --format spec --snapshots --backup-storage local` of
// the changed spec, a superset of the first's needs, applied by root); every plan, apply and
// command runs as that token alone, and nothing is refused.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { PveClient } from "../../src/api/index.js";
import { checkAccess } from "../../src/app/access.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planDestroy } from "../../src/app/destroy.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { parseSpec, type SpecDocument } from "../../src/sources/spec/index.js";
import { fastApply } from "../support/engine-lab.js";
import { cliAsToken, type Granted, grantByPvectl, startTlsLab, type TlsLab } from "./access-by-pvectl.js";

const TEAM = (app: { disk: string; ip: string; memory: string; keep: number; schedule: string }) => `vms:
  - vmid: 9001
    name: web-tpl
    node: pve1
    pool: web
    template: true
    memory: 1G
    disks:
      scsi0: { storage: local-lvm, size: 4G }
    nics:
      net0: { bridge: vmbr0 }
    cloudInit: { storage: local-lvm, user: debian }
  - vmid: 511
    name: web-app
    node: pve1
    pool: web
    clone: { from: web-tpl, full: true }
    cores: 2
    memory: ${app.memory}
    snapshots: { keep: ${app.keep}, prefix: auto- }
    disks:
      scsi0: { storage: ${app.disk}, size: 8G }
    nics:
      net0: { bridge: vmbr0 }
    cloudInit:
      storage: local-lvm
      user: debian
      ipconfig:
        ipconfig0: { ip: ${app.ip}, gw: 10.0.10.1 }
  - vmid: 513
    name: web-worker
    node: pve1
    pool: web
    clone: { from: web-tpl, full: false }
    memory: ${app.memory}
    snapshots: { keep: ${app.keep}, prefix: auto- }
    cloudInit:
      storage: local-lvm
      user: debian
      ipconfig:
        ipconfig0: { ip: dhcp }
containers:
  - vmid: 512
    hostname: web-cache
    node: pve1
    pool: web
    memory: ${app.memory}
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"
    snapshots: { keep: ${app.keep}, prefix: auto- }
    rootfs: { storage: local-lvm, size: 4G }
    nics:
      net0: { bridge: vmbr0, ip: dhcp }
backupJobs:
  - id: web-nightly
    schedule: "${app.schedule}"
    selection: { pool: web }
    storage: local
`;
const FIRST = TEAM({ disk: "local-lvm", ip: "10.0.10.31/24", memory: "1G", keep: 3, schedule: "02:30" });
const CHANGED = TEAM({ disk: "tank", ip: "10.0.10.32/24", memory: "2G", keep: 1, schedule: "03:15" });
/** PVE's default storages and a ZFS pool, where the disk moves (snapshots work there; a raw file on NFS could not be snapshotted). */
const STORAGES = {
  storages: [
    { id: "local", type: "dir", content: ["iso", "vztmpl", "backup", "snippets", "import"], path: "/var/lib/vz" },
    { id: "local-lvm", type: "lvmthin", content: ["images", "rootdir"] },
    { id: "shared", type: "nfs", content: ["images", "rootdir", "iso", "backup"], shared: true, path: "/mnt/pve/shared" },
    { id: "tank", type: "zfspool", content: ["images", "rootdir"] },
  ],
  content: ["local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"],
};
/** The team's backup jobs removed (a spec that lists none manages them all: pvectl's are deleted). */
const NO_JOBS = "backupJobs: []\n";
const TOKEN = "web@pve!ci";

describe("a pool per team, every guest feature, run by the generated token alone", () => {
  let lab: TlsLab;
  let granted: Granted;
  let token: PveClient;
  const files: string[] = [];
  const asToken = (args: string[]) => cliAsToken(lab, granted, args);
  const snapshots = async (vmid: number, type: "qemu" | "lxc") =>
    ((await lab.client.request("GET", `/nodes/pve1/${type}/${vmid}/snapshot`)) as Array<{ name: string }>)
      .map((s) => s.name)
      .filter((n) => n !== "current")
      .sort();

  before(async () => {
    lab = await startTlsLab(STORAGES);
    await lab.client.request("POST", "/pools", { poolid: "web" });
    for (const [name, text] of [
      ["team.yaml", FIRST],
      ["team-changed.yaml", CHANGED],
    ] as const) {
      files.push(join(lab.dir, name));
      writeFileSync(files.at(-1)!, text);
    }
    // The changed version uses every storage the first does, and the one its disk moves to.
    granted = await grantByPvectl(lab, [files[1]!], TOKEN, "WebDeploy", ["--snapshots", "--backup-storage", "local"]);
    token = granted.token;
  });
  after(async () => {
    await token.close();
    await lab.close();
  });

  /** Plans and applies `spec` as the token: no preflight problem, no failed guest (but `waiting`). */
  async function run(spec: SpecDocument, what: string, waiting: string[] = []): Promise<void> {
    const planned = await planSpec(token, spec);
    assert.deepEqual(planned.plan.preflightErrors, [], what);
    const report = await applyPlan(token, planned, { ...fastApply, allowRestart: true, allowDataLoss: true });
    assert.deepEqual(
      report.guests.filter((g) => g.result === "failed" && !waiting.includes(g.key)).map((g) => [g.key, g.error]),
      [],
      what,
    );
  }

  const job = async () =>
    ((await lab.client.request("GET", "/cluster/backup")) as Array<{ id: string; schedule?: string }>).find((j) => j.id === "web-nightly");

  it("access check finds nothing missing for either version", async () => {
    for (const text of [FIRST, CHANGED]) assert.deepEqual((await checkAccess(lab.client, parseSpec(text, "team.yaml"), TOKEN)).missing, []);
  });

  it("creates (the clone waits a run for its template), changes with a disk move, converges", async () => {
    const first = parseSpec(FIRST, "team.yaml");
    await run(first, "create", ["web-app", "web-worker"]);
    await run(first, "clone");
    assert.equal((await job())?.schedule, "02:30");
    const changed = parseSpec(CHANGED, "team-changed.yaml");
    await run(changed, "change");
    assert.equal((await job())?.schedule, "03:15", "the job changed");
    assert.match(
      String(((await lab.client.request("GET", "/nodes/pve1/qemu/511/config")) as Record<string, unknown>).scsi0),
      /^tank:vm-511-disk-\d+,/,
    );
    const again = await planSpec(token, changed);
    assert.deepEqual(
      again.plan.guests.flatMap((g) => [...g.steps.map((s) => `${g.key}: ${s.summary}`), ...g.errors]),
      [],
    );
  });

  it("backs the pool up and restores the VM and the container over themselves (they stay in the pool)", async () => {
    await asToken(["backup", "run", "--pool", "web", "--storage", "local", "--yes"]);
    for (const [vmid, type] of [
      [511, "qemu"],
      [512, "lxc"],
    ] as const) {
      const listed = await asToken(["backup", "list", "--vmid", String(vmid), "--json"]);
      const archive = (listed.match(new RegExp(`local:backup/vzdump-${type}-${vmid}-[^"]+`)) ?? [])[0];
      assert.ok(archive, listed);
      await lab.client.request("PUT", `/nodes/pve1/${type}/${vmid}/config`, { description: "changed after the backup" });
      await asToken(["restore", archive, "--vmid", String(vmid), "--allow-data-loss", "--yes"]);
      const config = (await lab.client.request("GET", `/nodes/pve1/${type}/${vmid}/config`)) as Record<string, unknown>;
      assert.equal(config.description, undefined, `${vmid}: the backup's config is back`);
      const pool = (await lab.client.request("GET", "/pools/web")) as { members: Array<{ vmid: number }> };
      assert.ok(
        pool.members.some((m) => m.vmid === vmid),
        `${vmid} still in the pool`,
      );
    }
  });

  it("takes snapshots of the pool, rolls one back, and the retention prunes them", async () => {
    for (const name of ["auto-1", "auto-2"]) await asToken(["snapshot", "create", name, "--pool", "web", "--yes"]);
    await asToken(["snapshot", "rollback", "auto-1", "--vmid", "512", "--allow-data-loss", "--yes"]);
    assert.deepEqual(await snapshots(511, "qemu"), ["auto-1", "auto-2"]);
    // keep: 1 in the changed spec: the older snapshot of each guest goes.
    await run(parseSpec(CHANGED, "team-changed.yaml"), "retention");
    assert.deepEqual(
      [await snapshots(511, "qemu"), await snapshots(512, "lxc"), await snapshots(513, "qemu")],
      [["auto-2"], ["auto-2"], ["auto-2"]],
    );
    await asToken(["snapshot", "create", "before-destroy", "--pool", "web", "--yes"]);
    await asToken(["snapshot", "delete", "auto-2", "--pool", "web", "--allow-data-loss", "--yes"]);
    assert.deepEqual(await snapshots(513, "qemu"), ["before-destroy"]);
  });

  it("removes the job, then destroys every guest (with its snapshots) in one run", async () => {
    await run(parseSpec(NO_JOBS, "no-jobs.yaml"), "remove the job");
    assert.equal(await job(), undefined);
    const changed = parseSpec(CHANGED, "team-changed.yaml");
    const destroy = await planDestroy(token, changed);
    assert.deepEqual(destroy.plan.preflightErrors, []);
    const report = await applyPlan(token, destroy, { ...fastApply, allowDataLoss: true, allowRestart: true });
    assert.deepEqual(
      report.guests.filter((g) => g.result === "failed").map((g) => [g.key, g.error]),
      [],
    );
    const left = (await planSpec(lab.client, changed)).plan.guests.filter((g) => g.exists);
    assert.deepEqual(
      left.map((g) => g.key),
      [],
    );
  });
});
