// Storage replication jobs as PVE 9 keeps them, driven by a client nobody here wrote
// (python3-proxmoxer): created for a guest with ZFS volumes, refused for one without, listed
// per node with their run state, turned around when the guest runs on the target, marked for
// removal by DELETE and gone a scheduler run later; a guest with a job is destroyed only with purge.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";

const PYTHON = "/usr/bin/python3";
const skip = !existsSync("/usr/lib/python3/dist-packages/proxmoxer") ? "python3-proxmoxer is not installed" : false;

const STORAGES = [
  { id: "local", type: "dir", content: ["iso", "vztmpl", "backup"] },
  { id: "local-zfs", type: "zfspool", content: ["images", "rootdir"] },
  { id: "local-lvm", type: "lvmthin", content: ["images", "rootdir"] },
];

// Each step's answer or PVE's error text, printed as one JSON document.
const SCRIPT = `
import json, sys
from proxmoxer import ProxmoxAPI
host, port, ca, password, step = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
p = ProxmoxAPI(host, port=port, user="root@pam", password=password, verify_ssl=ca)
out = {}
def attempt(name, fn):
    try:
        out[name] = fn()
    except Exception as e:
        out[name] = {"error": str(e)}
if step == "create":
    p.nodes("pve1").qemu.post(vmid=100, name="db1", scsi0="local-zfs:4", cdrom="none")
    p.nodes("pve1").qemu.post(vmid=101, name="web1", scsi0="local-lvm:4")
    attempt("created", lambda: p.cluster.replication.post(id="100-0", type="local", target="pve2", schedule="*/5", comment="db"))
    attempt("duplicate_target", lambda: p.cluster.replication.post(id="100-1", type="local", target="pve2"))
    attempt("to_itself", lambda: p.cluster.replication.post(id="100-2", type="local", target="pve1"))
    attempt("lvm_guest", lambda: p.cluster.replication.post(id="101-0", type="local", target="pve2"))
    attempt("bad_id", lambda: p.cluster.replication.post(id="99-0", type="local", target="pve2"))
    attempt("list", lambda: p.cluster.replication.get())
    attempt("read", lambda: p.cluster.replication("100-0").get())
    attempt("update", lambda: p.cluster.replication("100-0").put(rate=50, delete="comment"))
    attempt("delete_target", lambda: p.cluster.replication("100-0").put(delete="target"))
    attempt("after_update", lambda: p.cluster.replication("100-0").get())
    attempt("status_pve1", lambda: p.nodes("pve1").replication.get())
    attempt("status_pve2", lambda: p.nodes("pve2").replication.get())
    attempt("destroy_without_purge", lambda: p.nodes("pve1").qemu(100).delete())
if step == "moved":
    import time
    upid = p.nodes("pve1").qemu(100).migrate.post(target="pve2")
    while p.nodes("pve1").tasks(upid).status.get()["status"] != "stopped":
        time.sleep(0.05)
    out["migrated"] = p.nodes("pve1").tasks(upid).status.get()["exitstatus"]
    attempt("status_pve2", lambda: p.nodes("pve2").replication.get())
    attempt("job", lambda: p.cluster.replication("100-0").get())
if step == "remove":
    attempt("removed", lambda: p.cluster.replication("100-0").delete())
    attempt("marked", lambda: p.cluster.replication.get())
if step == "gone":
    attempt("list", lambda: p.cluster.replication.get())
print(json.dumps(out))
`;

describe("replication jobs through python3-proxmoxer", { skip }, () => {
  let sim: RunningSimulator;
  let dir: string;
  const run = async (step: string) => {
    const { stdout } = await promisify(execFile)(
      PYTHON,
      [join(dir, "repl.py"), "127.0.0.1", String(sim.port), join(dir, "ca.pem"), sim.rootPassword, step],
      { encoding: "utf8", timeout: 60_000 },
    );
    return JSON.parse(stdout);
  };
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 3, config: { storages: STORAGES } });
    dir = mkdtempSync(join(tmpdir(), "pvectl-sim-replication-"));
    writeFileSync(join(dir, "ca.pem"), sim.ca as string);
    writeFileSync(join(dir, "repl.py"), SCRIPT);
  });
  after(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates, refuses, lists, updates and turns around jobs as PVE does", async () => {
    const out = await run("create");
    assert.equal(out.created, null);
    assert.match(out.duplicate_target.error, /replication job for guest '100' to target 'local\/pve2' already exists/);
    assert.match(out.to_itself.error, /Source and target must not be identical/);
    assert.match(out.lvm_guest.error, /missing replicate feature on volume 'local-lvm:vm-101-disk-0'/);
    assert.match(out.bad_id.error, /400 Bad Request: Parameter verification failed/);
    assert.deepEqual(out.list, [
      { id: "100-0", type: "local", guest: 100, jobnum: 0, target: "pve2", source: "pve1", schedule: "*/5", comment: "db" },
    ]);
    assert.match(out.read.digest, /^[0-9a-f]{40}$/);
    assert.equal(out.after_update.rate, 50);
    assert.equal(out.after_update.comment, undefined);
    assert.match(out.delete_target.error, /unable to delete required option 'target'/);
    const [status] = out.status_pve1;
    assert.equal(status.id, "100-0");
    assert.equal(status.vmtype, "qemu");
    assert.equal(status.fail_count, 0);
    assert.ok(status.next_sync > status.last_sync, "the next run is after the last");
    assert.deepEqual(out.status_pve2, [], "pve2 runs no job: the guest is not there");
    assert.match(out.destroy_without_purge.error, /There is a replication job '100-0' for guest '100' - Please remove that first/);

    // The guest moves to the replication target: the job now copies back to pve1.
    const moved = await run("moved");
    assert.equal(moved.migrated, "OK");
    assert.equal(moved.status_pve2[0]?.target, "pve1");
    assert.equal(moved.job.source, "pve2");

    const removal = await run("remove");
    assert.equal(removal.marked[0]?.remove_job, "full", "DELETE only marks the job; the scheduler removes it");
    sim.admin.advanceClock(61);
    assert.deepEqual((await run("gone")).list, []);
  });
});
