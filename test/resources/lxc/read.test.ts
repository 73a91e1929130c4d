import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { liveCtFromPending } from "../../../src/resources/lxc/read.js";
import { lxcDevices } from "../../../src/resources/lxc/devices.js";
import { GIB, liveCt } from "./fixture.js";

describe("reading a container's config", () => {
  it("reads rootfs and mount points with sizes in bytes, and a bind mount by its host path", () => {
    const live = liveCt();
    assert.deepEqual(live.mounts.rootfs, {
      slot: "rootfs",
      volume: "local-lvm:vm-200-disk-0",
      storage: "local-lvm",
      sizeBytes: 8 * GIB,
      options: {},
    });
    assert.deepEqual(live.mounts.mp0, {
      slot: "mp0",
      volume: "local-lvm:vm-200-disk-1",
      storage: "local-lvm",
      sizeBytes: 16 * GIB,
      mountpoint: "/data",
      options: { backup: "1" },
    });
    assert.deepEqual(live.mounts.mp1, { slot: "mp1", volume: "/srv/shared", mountpoint: "/shared", options: { ro: "1" } });
  });

  it("reads the hostname as the name, NICs with their MAC, tags, and keeps mount points and NICs out of options", () => {
    const live = liveCt();
    assert.equal(live.kind, "lxc");
    assert.equal(live.name, "web1");
    assert.deepEqual(live.nics.net0, {
      slot: "net0",
      name: "eth0",
      hwaddr: "BC:24:11:0A:0B:0C",
      bridge: "vmbr0",
      options: { ip: "dhcp", tag: "10", type: "veth" },
    });
    assert.deepEqual(live.tags, ["pvectl", "web"]);
    assert.equal(live.options.features, "keyctl=1,nesting=1");
    assert.equal(live.options.unprivileged, "1");
    for (const key of ["rootfs", "mp0", "net0", "hostname", "tags", "digest"]) assert.equal(live.options[key], undefined, key);
    assert.equal(live.digest, "d1");
  });

  it("takes pending values as the effective config and names the pending keys", () => {
    const live = liveCtFromPending({ vmid: 200, node: "pve1", status: "running" }, [
      { key: "hostname", value: "web1" },
      { key: "nameserver", value: "10.0.0.53", pending: "10.0.0.54" },
      { key: "mp0", value: "local-lvm:vm-200-disk-1,mp=/data,size=16G", delete: 1 },
      { key: "unused0", value: "local-lvm:vm-200-disk-2" },
      { key: "digest", value: "d2" },
    ]);
    assert.equal(live.options.nameserver, "10.0.0.54");
    assert.equal(live.mounts.mp0, undefined);
    assert.deepEqual(live.unused, { unused0: "local-lvm:vm-200-disk-2" });
    assert.deepEqual(live.pendingKeys, ["mp0", "nameserver"]);
  });

  it("reports MACs per netN and volumes of rootfs and every mount point", () => {
    assert.deepEqual(lxcDevices(liveCt()), {
      macs: { net0: "BC:24:11:0A:0B:0C" },
      volumes: { rootfs: "local-lvm:vm-200-disk-0", mp0: "local-lvm:vm-200-disk-1", mp1: "/srv/shared" },
    });
  });
});
