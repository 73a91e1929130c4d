// Snapshots, backups, retention and restore over the wire as PVE 9 answers them, driven by
// Debian's python3-proxmoxer (a client nobody here wrote) against an in-process simulator
// whose backup storage keeps the last two backups per guest.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { PROXMOXER_PREAMBLE, proxmoxerSkip as skip, runProxmoxerScript } from "./proxmoxer.js";

const SCRIPT = `
${PROXMOXER_PREAMBLE}def log(upid):
    return [l["t"] for l in node.tasks(upid).log.get(limit=500)]
def err(f):
    try:
        f()
        return None
    except Exception as e:
        return str(e)
out = {}
vm = node.qemu(100)
wait(node.qemu.post(vmid=100, name="web1", memory=1024, scsi0="local-lvm:4", start=1))
out["bad_name"] = err(lambda: vm.snapshot.post(snapname="1st"))
upid = vm.snapshot.post(snapname="live", vmstate=1, description="with RAM")
out["snap"] = wait(upid)
out["snap_log"] = log(upid)
wait(vm.snapshot.post(snapname="plain"))
out["list"] = vm.snapshot.get()
out["live_config"] = vm.snapshot("live").config.get()
out["used_lvm"] = node.storage("local-lvm").status.get()["used"]
out["rollback"] = wait(vm.snapshot("plain").rollback.post())
out["after_rollback"] = vm.status.current.get()["status"]
out["rollback_start"] = wait(vm.snapshot("plain").rollback.post(start=1))
out["after_start"] = vm.status.current.get()["status"]
out["delete_live"] = wait(vm.snapshot("live").delete())
out["state_left"] = [v["volid"] for v in node.storage("local-lvm").content.get() if "state" in v["volid"]]
backups = []
for i in range(3):
    upid = node.vzdump.post(vmid="100", storage="local", compress="zstd", mode="snapshot",
        **{"notes-template": "{{guestname}} #{{vmid}}", "protected": 1 if i == 0 else 0})
    backups.append(wait(upid))
    time.sleep(1.1)
out["backups"] = backups
out["last_log"] = log(upid)
out["content"] = node.storage("local").content.get(content="backup")
out["dryrun"] = node.storage("local").prunebackups.get(**{"prune-backups": "keep-last=1"})
protected = [c["volid"] for c in out["content"] if c.get("protected")][0]
# proxmoxer leaves the volid's "/" as it is; PVE (like the simulator) then finds no such method
out["unencoded"] = err(lambda: node.storage("local").content(protected).delete())
out["delete_protected"] = wait(node.storage("local").content(urllib.parse.quote(protected, safe="")).delete())
out["prune"] = wait(node.storage("local").prunebackups.delete(**{"prune-backups": "keep-last=1"}, vmid=100))
out["after_prune"] = [c["volid"] for c in node.storage("local").content.get(content="backup")]
out["restore_exists"] = err(lambda: node.qemu.post(vmid=100, archive=out["after_prune"][-1]))
wait(vm.status.stop.post())
out["restore"] = wait(node.qemu.post(vmid=100, archive=out["after_prune"][-1], force=1))
out["restored"] = vm.config.get()
out["not_backed_up"] = p.cluster("backup-info")("not-backed-up").get()
print(json.dumps(out))
`;

describe("snapshots and backups over the wire as PVE 9 (python3-proxmoxer)", { skip }, () => {
  let sim: RunningSimulator;
  before(async () => {
    sim = await startSimulator({
      port: 0,
      config: {
        nodes: ["pve1"],
        bridges: ["vmbr0"],
        storages: [
          { id: "local", type: "dir", content: "iso,vztmpl,backup", path: "/var/lib/vz", "prune-backups": "keep-last=2" },
          { id: "local-lvm", type: "lvmthin", content: "images,rootdir" },
        ],
      },
    });
  });
  after(async () => {
    await sim?.close();
  });

  it("snapshots with RAM, rolls back, backs up with retention and protection, prunes and restores", async () => {
    const out = await runProxmoxerScript(sim, SCRIPT, 120_000);
    assert.match(out.bad_name, /^400 Bad Request: Parameter verification failed/);
    assert.equal(out.snap, "OK");
    assert.ok(out.snap_log.includes("saving VM state and RAM using storage 'local-lvm'"));
    assert.deepEqual(
      out.list.map((s: Record<string, unknown>) => [s.name, s.vmstate, s.parent]),
      [
        ["live", 1, undefined],
        ["plain", 0, "live"],
        ["current", undefined, "plain"],
      ],
    );
    assert.equal(out.live_config.vmstate, "local-lvm:vm-100-state-live");
    assert.equal(out.live_config.description, "with RAM");
    assert.equal(out.rollback, "OK");
    assert.equal(out.after_rollback, "stopped");
    assert.equal(out.rollback_start, "OK");
    assert.equal(out.after_start, "running");
    assert.equal(out.delete_live, "OK");
    assert.deepEqual(out.state_left, []);
    assert.deepEqual(out.backups, ["OK", "OK", "OK"]);
    assert.ok(
      out.last_log.some((l: string) => /^INFO: creating vzdump archive '\/var\/lib\/vz\/dump\/vzdump-qemu-100-.*\.vma\.zst'$/.test(l)),
    );
    assert.ok(out.last_log.includes("INFO: prune older backups with retention: keep-last=2"));
    assert.equal(out.content.length, 3, "the protected backup does not count against keep-last=2");
    assert.ok(out.content.every((c: Record<string, unknown>) => c.notes === "web1 #100" && c.subtype === "qemu" && c.format === "vma.zst"));
    assert.deepEqual(out.dryrun.map((d: Record<string, unknown>) => d.mark).sort(), ["keep", "protected", "remove"]);
    assert.match(out.unencoded, /^501 Not Implemented/);
    assert.match(out.delete_protected, /^cannot remove protected volume 'backup\/vzdump-qemu-100-/);
    assert.equal(out.prune, "OK");
    assert.equal(out.after_prune.length, 2);
    assert.match(out.restore_exists, /unable to restore VM 100 - VM 100 already exists on node 'pve1'/);
    assert.equal(out.restore, "OK");
    assert.equal(out.restored.name, "web1");
    assert.deepEqual(out.not_backed_up, [{ vmid: 100, type: "qemu", name: "web1" }]);
  });
});
