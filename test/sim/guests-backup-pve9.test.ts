// Backups as PVE 9 makes and keeps them: vzdump's log, retention after a backup (the storage's
// prune-backups unless the job gives its own), protected archives, the prunebackups dry run and
// task, and which guests /cluster/backup-info/not-backed-up lists.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

type Row = Record<string, unknown>;

function harness(prune?: string): Harness {
  return new Harness({
    config: {
      nodes: ["pve1", "pve2"],
      bridges: ["vmbr0"],
      storages: [
        { id: "local", type: "dir", content: "iso,vztmpl,backup", path: "/var/lib/vz", ...(prune ? { "prune-backups": prune } : {}) },
        { id: "local-lvm", type: "lvmthin", content: "images,rootdir" },
      ],
    },
  });
}

async function backup(h: Harness, vmid: number, extra: Record<string, string | number> = {}): Promise<string> {
  h.clock += 3600;
  return h.ok("POST", "/nodes/pve1/vzdump", { vmid: String(vmid), storage: "local", compress: "zstd", ...extra });
}

const backups = async (h: Harness) =>
  ((await h.call("GET", "/nodes/pve1/storage/local/content", { content: "backup" })) as Row[]).map((b) => String(b.volid));

describe("vzdump (PVE 9)", () => {
  it("logs the archive by its path, the start time as PVE prints it, and the job's end", async () => {
    const h = harness();
    await h.createVm(100, { scsi0: "local-lvm:4" });
    const log = h.task(await backup(h, 100)).log;
    assert.ok(log.includes("INFO: Backup started at 2025-11-24 17:00:00"), log.join("\n"));
    assert.ok(log.includes("INFO: creating vzdump archive '/var/lib/vz/dump/vzdump-qemu-100-2025_11_24-17_00_00.vma.zst'"));
    assert.equal(log.at(-1), "INFO: Backup job finished successfully");
    assert.deepEqual(await backups(h), ["local:backup/vzdump-qemu-100-2025_11_24-17_00_00.vma.zst"]);
  });

  it("prunes with the storage's retention after each backup; the job's own wins; remove=0 keeps all", async () => {
    const h = harness("keep-last=2");
    await h.createVm(100);
    await backup(h, 100);
    await backup(h, 100);
    const third = h.task(await backup(h, 100)).log;
    assert.ok(third.includes("INFO: prune older backups with retention: keep-last=2"));
    assert.ok(third.some((l) => /^INFO: removing backup 'local:backup\/vzdump-qemu-100-2025_11_24-17_00_00\.vma\.zst'$/.test(l)));
    assert.ok(third.includes("INFO: pruned 1 backup(s) not covered by keep-retention policy"));
    assert.equal((await backups(h)).length, 2);
    await backup(h, 100, { remove: 0 });
    assert.equal((await backups(h)).length, 3);
    await backup(h, 100, { "prune-backups": "keep-last=1" });
    assert.equal((await backups(h)).length, 1);
  });

  it("keeps protected archives through prunes and refuses to delete them in the imgdel task", async () => {
    const h = harness("keep-last=1");
    await h.createVm(100);
    await backup(h, 100, { protected: 1 });
    await backup(h, 100);
    await backup(h, 100);
    const [kept, newest] = await backups(h);
    assert.equal((await backups(h)).length, 2, "the protected one and the newest");
    const volume = String(kept).slice("local:".length);
    const upid = await h.call("DELETE", `/nodes/pve1/storage/local/content/${encodeURIComponent(String(kept))}`);
    assert.match(String(upid), /:imgdel:100@local:/);
    assert.equal(h.task(upid).exitstatus, `cannot remove protected volume '${volume}' on 'local'`);
    await h.call("PUT", `/nodes/pve1/storage/local/content/${encodeURIComponent(String(kept))}`, { protected: 0 });
    await h.ok("DELETE", `/nodes/pve1/storage/local/content/${encodeURIComponent(String(kept))}`);
    assert.deepEqual(await backups(h), [newest]);
  });
});

describe("prunebackups", () => {
  it("the dry run marks keep, remove and protected per guest; the task removes what it marked", async () => {
    const h = harness();
    await h.createVm(100);
    await h.createVm(101);
    for (let i = 0; i < 3; i++) await backup(h, 100, i === 0 ? { protected: 1 } : {});
    await backup(h, 101);
    const marks = (await h.call("GET", "/nodes/pve1/storage/local/prunebackups", { "prune-backups": "keep-last=1" })) as Row[];
    assert.deepEqual(
      marks.map((m) => [m.vmid, m.type, m.mark]),
      [
        [100, "qemu", "protected"],
        [100, "qemu", "remove"],
        [100, "qemu", "keep"],
        [101, "qemu", "keep"],
      ],
    );
    const keepAll = (await h.call("GET", "/nodes/pve1/storage/local/prunebackups")) as Row[];
    assert.ok(
      keepAll.every((m) => m.mark !== "remove"),
      "the storage keeps all by default",
    );
    const upid = await h.ok("DELETE", "/nodes/pve1/storage/local/prunebackups", { "prune-backups": "keep-last=1", vmid: 100 });
    assert.match(upid, /:prunebackups:100@local:/);
    assert.equal((await backups(h)).length, 3);
    await rejects(h.call("GET", "/nodes/pve1/storage/local-lvm/prunebackups"), 500, "storage 'local-lvm' does not support backups");
  });

  it("keep-daily keeps the newest backup of each of the last N days", async () => {
    const h = harness();
    await h.createVm(100);
    for (let i = 0; i < 6; i++) await backup(h, 100); // hourly, all on one day
    h.clock += 86_400;
    await backup(h, 100);
    const marks = (await h.call("GET", "/nodes/pve1/storage/local/prunebackups", { "prune-backups": "keep-daily=2" })) as Row[];
    const kept = marks.filter((m) => m.mark === "keep").map((m) => Number(m.ctime));
    const all = marks.map((m) => Number(m.ctime)).sort();
    assert.deepEqual(kept.sort(), [all[5], all[6]]);
  });
});

describe("not-backed-up", () => {
  it("counts every vzdump job (disabled ones too); pool before vmid before all; a job's node limits it", async () => {
    const h = harness();
    await h.createVm(100);
    await h.createVm(101);
    await h.createVm(102, {}, "pve2");
    await h.ok("POST", "/nodes/pve1/qemu", { vmid: 103 });
    await h.ok("POST", "/nodes/pve1/qemu/103/template");
    const listed = async () => ((await h.call("GET", "/cluster/backup-info/not-backed-up")) as Row[]).map((r) => [r.vmid, r.name]);
    assert.deepEqual(await listed(), [
      [100, "vm100"],
      [101, "vm101"],
      [102, "vm102"],
      [103, undefined],
    ]);
    await h.call("POST", "/cluster/backup", { id: "off", schedule: "daily", vmid: "100", enabled: 0 });
    await h.call("POST", "/cluster/backup", { id: "pve2only", schedule: "daily", all: 1, node: "pve2" });
    assert.deepEqual(await listed(), [
      [101, "vm101"],
      [103, undefined],
    ]);
  });
});

describe("vzdump's job as VZDump runs it", () => {
  it("logs the command line, skips guests of other nodes, fails unknown ones, says how each guest went", async () => {
    const h = harness();
    await h.createVm(100, { scsi0: "local-lvm:4" });
    await h.createVm(101, {}, "pve2");
    h.clock += 3600;
    const upid = await h.call("POST", "/nodes/pve1/vzdump", {
      vmid: "100,101,999",
      storage: "local",
      compress: "zstd",
      "notes-template": "{{guestname}} x",
    });
    const task = h.task(upid);
    assert.equal(task.exitstatus, "job errors");
    assert.equal(
      task.log[0],
      "INFO: starting new backup job: vzdump 100 101 999 --compress zstd --node pve1 --notes-template '{{guestname}} x' --storage local",
    );
    assert.equal(task.log[1], "INFO: skip external VMs: 101");
    assert.ok(task.log.includes("INFO: status = stopped"));
    assert.ok(task.log.includes("INFO: VM Name: vm100"));
    assert.ok(task.log.includes("INFO: include disk 'scsi0' 'local-lvm:vm-100-disk-0' 4G"));
    assert.ok(task.log.includes("INFO: backup mode: stop"), "a stopped guest is backed up in stop mode");
    assert.ok(task.log.includes("INFO: Finished Backup of VM 100 (00:00:09)"));
    assert.ok(task.log.includes("ERROR: Backup of VM 999 failed - unable to find VM '999'"));
    assert.equal(await h.call("POST", "/nodes/pve1/vzdump", { vmid: "101", storage: "local" }), "OK", "nothing on this node: no task");
  });

  it("a container on storage without snapshots falls back from snapshot to suspend mode", async () => {
    const h = new Harness({
      config: {
        nodes: ["pve1"],
        bridges: ["vmbr0"],
        storages: [
          { id: "local", type: "dir", content: "iso,vztmpl,backup,rootdir", path: "/var/lib/vz" },
          { id: "local-lvm", type: "lvmthin", content: "images,rootdir" },
        ],
        content: ["local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"],
      },
    });
    const ostemplate = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";
    await h.ok("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate, rootfs: "local:2", hostname: "db-1", start: 1 });
    await h.ok("POST", "/nodes/pve1/lxc", { vmid: 201, ostemplate, rootfs: "local-lvm:2", mp0: "local-lvm:1,mp=/data", start: 1 });
    const log = h.task(await h.ok("POST", "/nodes/pve1/vzdump", { vmid: "200,201", storage: "local", mode: "snapshot" })).log;
    assert.ok(log.includes("INFO: mode failure - some volumes do not support snapshots"));
    assert.ok(log.includes("INFO: trying 'suspend' mode instead"));
    assert.ok(log.includes("INFO: CT Name: db-1"));
    assert.ok(log.includes("INFO: including mount point mp0 ('/data') in backup"));
    assert.deepEqual(
      log.filter((l) => l.startsWith("INFO: backup mode")),
      ["INFO: backup mode: suspend", "INFO: backup mode: snapshot"],
    );
  });

  it("options PVE keeps for root are refused for others; a named guest without VM.Backup fails the task", async () => {
    const h = harness();
    await h.createVm(100);
    h.userid = "ops@pve";
    await rejects(
      h.call("POST", "/nodes/pve1/vzdump", { vmid: "100", storage: "local", "prune-backups": "keep-last=1" }),
      400,
      "Parameter verification failed.",
      {
        "prune-backups": "Only root may set this option.",
      },
    );
    h.denied.add("/vms/100 VM.Backup");
    const upid = await h.call("POST", "/nodes/pve1/vzdump", { vmid: "100", storage: "local" });
    assert.equal(h.task(upid).exitstatus, "Permission check failed (/vms/100, VM.Backup)");
    assert.equal((await h.config(100)).lock, undefined);
  });

  it("refuses a notes template PVE's verify_notes_template refuses, in a job and in a vzdump call", async () => {
    const h = harness();
    await h.createVm(100);
    const job = { id: "nightly", schedule: "daily", vmid: "100", storage: "local" };
    await rejects(
      h.call("POST", "/cluster/backup", { ...job, "notes-template": "{{guestname}}\nnightly" }),
      400,
      "Parameter verification failed.",
      {
        "notes-template": "contains a line feed",
      },
    );
    assert.deepEqual(await h.call("GET", "/cluster/backup"), [], "nothing is stored");
    await h.call("POST", "/cluster/backup", { ...job, "notes-template": "{{guestname}}\\nnightly" });
    await rejects(
      h.call("PUT", "/cluster/backup/nightly", { storage: "local", "notes-template": "a\nb" }),
      400,
      "Parameter verification failed.",
      { "notes-template": "contains a line feed" },
    );
    await rejects(
      h.call("POST", "/nodes/pve1/vzdump", { vmid: "100", storage: "local", "notes-template": "{{host}} \\t" }),
      400,
      "Parameter verification failed.",
      {
        "notes-template": "found unknown: escape sequence '\\t' at char 9, variable 'host' at char 4",
      },
    );
  });
});
