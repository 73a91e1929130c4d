import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

type Row = Record<string, unknown>;

describe("guest agent", () => {
  it("answers only when configured, running and booted; addresses are deterministic per NIC", async () => {
    const h = new Harness();
    await h.createVm(100, { net0: "virtio,bridge=vmbr0", net1: "virtio,bridge=vmbr1" });
    await rejects(h.call("POST", "/nodes/pve1/qemu/100/agent/ping"), 500, "No QEMU guest agent configured");
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { agent: "enabled=1,fstrim_cloned_disks=1" });
    await rejects(h.call("POST", "/nodes/pve1/qemu/100/agent/ping"), 500, "VM 100 is not running");
    await h.ok("POST", "/nodes/pve1/qemu/100/status/start");
    await rejects(h.call("GET", "/nodes/pve1/qemu/100/agent/network-get-interfaces"), 500, "QEMU guest agent is not running");
    h.clock += 60;
    assert.deepEqual(await h.call("POST", "/nodes/pve1/qemu/100/agent/ping"), { result: {} });
    const res = (await h.call("GET", "/nodes/pve1/qemu/100/agent/network-get-interfaces")) as { result: Row[] };
    const cfg = await h.config(100);
    assert.deepEqual(
      res.result.map((i) => i.name),
      ["lo", "eth0", "eth1"],
    );
    const eth0 = res.result[1] as Row;
    assert.equal(eth0["hardware-address"], String(cfg.net0).slice(7, 24).toLowerCase());
    const addrs = (eth0["ip-addresses"] as Row[]).map((a) => [a["ip-address-type"], a.prefix]);
    assert.deepEqual(addrs, [
      ["ipv4", 24],
      ["ipv6", 64],
    ]);
    const ip0 = (eth0["ip-addresses"] as Row[])[0]?.["ip-address"];
    const ip1 = ((res.result[2] as Row)["ip-addresses"] as Row[])[0]?.["ip-address"];
    assert.match(String(ip0), /^10\.\d+\.\d+\.\d+$/);
    assert.notEqual(ip0, ip1);
    const again = (await h.call("GET", "/nodes/pve1/qemu/100/agent/network-get-interfaces")) as { result: Row[] };
    assert.deepEqual(((again.result[1] as Row)["ip-addresses"] as Row[])[0]?.["ip-address"], ip0);
    const status = (await h.call("GET", "/nodes/pve1/qemu/100/status/current")) as Row;
    assert.equal(status.agent, 1);
    await h.ok("POST", "/nodes/pve1/qemu/100/status/stop");
    await rejects(h.call("GET", "/nodes/pve1/qemu/100/agent/network-get-interfaces"), 500, "VM 100 is not running");
  });
});

describe("vzdump and backup jobs", () => {
  it("backs up to storage content with notes, holding `lock: backup` meanwhile", async () => {
    const h = new Harness({ deferTasks: true });
    await h.call("POST", "/nodes/pve1/qemu", { vmid: 100, name: "web1", scsi0: "local-lvm:10" });
    await h.runTasks();
    const upid = await h.call("POST", "/nodes/pve1/vzdump", {
      vmid: "100",
      storage: "local",
      mode: "snapshot",
      compress: "zstd",
      "notes-template": "{{guestname}} on {{node}}",
    });
    assert.match(String(upid), /:vzdump:100:root@pam:$/);
    assert.equal((await h.config(100)).lock, "backup");
    await h.runTasks();
    assert.equal(h.task(upid).exitstatus, "OK");
    assert.equal((await h.config(100)).lock, undefined);
    const backups = (await h.call("GET", "/nodes/pve1/storage/local/content", { content: "backup" })) as Row[];
    assert.equal(backups.length, 1);
    const b = backups[0] as Row;
    assert.match(String(b.volid), /^local:backup\/vzdump-qemu-100-\d{4}_\d{2}_\d{2}-\d{2}_\d{2}_\d{2}\.vma\.zst$/);
    assert.equal(b.format, "vma.zst");
    assert.equal(b.vmid, 100);
    assert.equal(b.subtype, "qemu");
    assert.equal(b.notes, "web1 on pve1");
  });

  it("a locked guest makes the job fail with 'job errors'; a storage without backup content is refused", async () => {
    const h = new Harness();
    await h.createVm(100);
    h.model.setGuestLock(100, "migrate");
    const upid = await h.call("POST", "/nodes/pve1/vzdump", { vmid: "100", storage: "shared" });
    assert.equal(h.task(upid).exitstatus, "job errors");
    assert.ok(h.task(upid).log.some((l) => l.includes("VM is locked (migrate)")));
    await rejects(
      h.call("POST", "/nodes/pve1/vzdump", { vmid: "100", storage: "local-lvm" }),
      500,
      "can't use storage 'local-lvm' for backups - wrong content type",
    );
  });

  it("prunes with keep-last", async () => {
    const h = new Harness();
    await h.createVm(100);
    for (let i = 0; i < 3; i++) {
      h.clock += 3600;
      await h.ok("POST", "/nodes/pve1/vzdump", { vmid: "100", storage: "shared", "prune-backups": "keep-last=2" });
    }
    const backups = (await h.call("GET", "/nodes/pve2/storage/shared/content", { content: "backup" })) as Row[];
    assert.equal(backups.length, 2);
  });

  it("manages /cluster/backup jobs with PVE's errors", async () => {
    const h = new Harness();
    await h.createVm(100);
    await h.createVm(101);
    await rejects(h.call("POST", "/cluster/backup", { id: "job1", vmid: "100", storage: "local" }), 400, "Parameter verification failed.", {
      schedule: "neither 'starttime' nor 'schedule' were set",
    });
    await h.call("POST", "/cluster/backup", { id: "job1", vmid: "100", storage: "local", schedule: "02:30", mode: "stop" });
    await rejects(h.call("POST", "/cluster/backup", { id: "job1", vmid: "100", schedule: "02:30" }), 500, "Job 'job1' already exists");
    const jobs = (await h.call("GET", "/cluster/backup")) as Row[];
    assert.equal(jobs.length, 1);
    assert.equal(jobs[0]?.schedule, "02:30");
    assert.equal(jobs[0]?.type, "vzdump");
    assert.equal(typeof jobs[0]?.["next-run"], "number");
    await h.call("PUT", "/cluster/backup/job1", { vmid: "100,101", delete: "mode" });
    const job = (await h.call("GET", "/cluster/backup/job1")) as Row;
    assert.equal(job.vmid, "100,101");
    assert.equal(job.mode, undefined);
    await rejects(h.call("GET", "/cluster/backup/nope"), 400, "Parameter verification failed.", { id: "No such job 'nope'" });
    const uncovered = (await h.call("GET", "/cluster/backup-info/not-backed-up")) as Row[];
    assert.deepEqual(uncovered, []);
    await h.call("DELETE", "/cluster/backup/job1");
    assert.deepEqual(await h.call("GET", "/cluster/backup"), []);
  });
});

describe("guest agent delay", () => {
  it("follows the cluster config's agentDelay (0 = answers right after start)", async () => {
    const h = new Harness({ config: { agentDelay: 0 } });
    await h.createVm(100, { agent: "1", start: 1 });
    assert.deepEqual(await h.call("POST", "/nodes/pve1/qemu/100/agent/ping"), { result: {} });
  });
});
