// Containers over the wire as PVE 9 answers them, driven by Debian's python3-proxmoxer (a client
// nobody here wrote) against an in-process simulator with dir, lvmthin and ZFS storages:
// volume names, task types, move_volume, resize, hotplug/pending, status fields, destroy.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { PROXMOXER_PREAMBLE, proxmoxerSkip as skip, runProxmoxerScript } from "./proxmoxer.js";

const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

const SCRIPT = `
${PROXMOXER_PREAMBLE}def err(f):
    try:
        f()
        return None
    except Exception as e:
        return str(e)
def ttype(upid):
    return upid.split(":")[5] + ":" + upid.split(":")[6]
out = {"types": []}
def task(upid):
    out["types"].append(ttype(upid))
    return wait(upid)

ct = node.lxc(500)
out["create"] = task(node.lxc.post(vmid=500, ostemplate="${TEMPLATE}", hostname="db-1", rootfs="tank:4",
    mp0="local:0,mp=/scratch", mp1="local-lvm:2,mp=/data", net0="name=eth0,bridge=vmbr0,ip=dhcp",
    password="secret12", **{"ssh-public-keys": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBxbUd1W8w1yEWhJRWCeRBVwBqZ4bFXsTq6WY9zBnvRh ops@example"}))
out["created"] = ct.config.get()
out["missing_template"] = task(node.lxc.post(vmid=501, ostemplate="local:vztmpl/nope.tar.zst", rootfs="tank:1"))
out["resize"] = task(ct.resize.put(disk="mp1", size="+1G"))
out["shrink"] = err(lambda: ct.resize.put(disk="mp1", size="1G"))
out["move"] = task(ct.move_volume.post(volume="mp1", storage="tank"))
out["moved"] = ct.config.get()
out["start"] = task(ct.status.start.post())
out["move_running"] = err(lambda: ct.move_volume.post(volume="rootfs", storage="local"))
ct.config.put(memory=2048, swap=0, searchdomain="example.test", mp2="local-lvm:1,mp=/logs")
out["pending"] = ct.pending.get()
out["status"] = ct.status.current.get()
out["reboot"] = task(ct.status.reboot.post())
out["after_reboot"] = ct.config.get()
out["shutdown"] = task(ct.status.shutdown.post())
out["reboot_stopped"] = err(lambda: ct.status.reboot.post())
# a subvol on a directory storage cannot be linked-cloned (pve-storage has no clone feature for it)
ct.config.put(delete="mp0")
out["template"] = ct.template.post()
out["types"].append(ttype(node.tasks.get(typefilter="vztemplate")[0]["upid"]))
out["clone"] = task(ct.clone.post(newid=502, hostname="db-2"))
out["clone_config"] = node.lxc(502).config.get()
out["destroy"] = task(node.lxc(502).delete())
out["destroy_template"] = task(ct.delete())
out["left"] = sorted(v["volid"] for s in ("local", "local-lvm", "tank") for v in node.storage(s).content.get() if v.get("vmid") in (500, 502))
print(json.dumps(out))
`;

describe("containers over the wire as PVE 9 (python3-proxmoxer)", { skip }, () => {
  let sim: RunningSimulator;
  before(async () => {
    sim = await startSimulator({
      port: 0,
      config: {
        nodes: ["pve1"],
        bridges: ["vmbr0"],
        storages: [
          { id: "local", type: "dir", content: "iso,vztmpl,backup,rootdir" },
          { id: "local-lvm", type: "lvmthin", content: "images,rootdir" },
          { id: "tank", type: "zfspool", content: "images,rootdir" },
        ],
        content: [TEMPLATE],
      },
    });
  });
  after(async () => {
    await sim?.close();
  });

  it("creates, resizes, moves, hot-plugs, reboots, templates, clones and destroys a container", async () => {
    const out = await runProxmoxerScript(sim, SCRIPT, 120_000);
    assert.deepEqual(out.types, [
      "vzcreate:500",
      "vzcreate:501",
      "resize:500",
      "move_volume:500",
      "vzstart:500",
      "vzreboot:500",
      "vzshutdown:500",
      "vztemplate:500",
      "vzclone:500",
      "vzdestroy:502",
      "vzdestroy:500",
    ]);
    assert.equal(out.create, "OK");
    assert.equal(out.created.rootfs, "tank:subvol-500-disk-0,size=4G");
    assert.equal(out.created.mp0, "local:500/subvol-500-disk-0.subvol,mp=/scratch,size=0T");
    assert.equal(out.created.mp1, "local-lvm:vm-500-disk-0,mp=/data,size=2G");
    assert.equal(out.created.unprivileged, 1);
    assert.equal(out.created.password, undefined);
    assert.equal(out.missing_template, "unable to create CT 501 - can't find file 'local:vztmpl/nope.tar.zst'");
    assert.equal(out.resize, "OK");
    assert.match(out.shrink, /^500 Internal Server Error: unable to shrink disk size/);
    assert.equal(out.move, "OK");
    assert.equal(out.moved.mp1, "tank:subvol-500-disk-1,mp=/data,size=3G");
    assert.equal(out.moved.unused0, "local-lvm:vm-500-disk-0");
    assert.match(out.move_running, /cannot move volumes of a running container/);
    const pending = Object.fromEntries(out.pending.map((e: Record<string, unknown>) => [e.key, e]));
    assert.equal(pending.memory.value, 2048);
    assert.equal(pending.memory.pending, undefined);
    assert.equal(pending.swap.value, 0);
    assert.equal(pending.mp2.value, "local-lvm:vm-500-disk-1,mp=/logs,size=1G");
    assert.deepEqual(pending.searchdomain, { key: "searchdomain", pending: "example.test" });
    assert.equal(out.status.status, "running");
    assert.equal(out.status.maxmem, 2048 * 1024 ** 2);
    assert.equal(typeof out.status.pressurememorysome, "number");
    assert.equal(out.after_reboot.searchdomain, "example.test");
    assert.match(out.reboot_stopped, /VM 500 not running/);
    assert.equal(out.template, null);
    assert.equal(out.clone, "OK");
    assert.equal(out.clone_config.rootfs, "tank:basevol-500-disk-0/subvol-502-disk-0,size=4G");
    assert.equal(out.destroy, "OK");
    assert.equal(out.destroy_template, "OK");
    assert.deepEqual(out.left, []);
  });
});
