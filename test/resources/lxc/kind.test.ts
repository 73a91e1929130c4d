// The lxc kind's answers to the engine: which task a call starts (to find it after a lost
// answer), whether a call's effect is already in the container, and what pve-container checks
// inside its handlers beyond the endpoint's own permission.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lxcCalls } from "../../../src/resources/lxc/calls.js";
import { lxcKind } from "../../../src/resources/lxc/kind.js";
import { GIB } from "./fixture.js";

const pending = [
  { key: "hostname", value: "web1" },
  { key: "memory", value: 1024 },
  { key: "rootfs", value: "local-lvm:vm-200-disk-0,size=8G" },
  { key: "mp0", value: "shared:200/vm-200-disk-1.raw,mp=/data,size=16G" },
  { key: "net0", value: "name=eth0,bridge=vmbr1,hwaddr=BC:24:11:0A:0B:0C,ip=dhcp" },
];
const guest = { vmid: 200, node: "pve1" };

describe("the lxc kind for the engine", () => {
  it("names pve-container's worker types; a config PUT starts no task", () => {
    const create = lxcCalls.create("pve1", { hostname: "a", ostemplate: "local:vztmpl/x.tar.zst" });
    assert.equal(lxcKind.taskType(create), "vzcreate");
    assert.equal(lxcKind.taskType(lxcCalls.power("pve1", 200, "start")), "vzstart");
    assert.equal(lxcKind.taskType(lxcCalls.power("pve1", 200, "shutdown")), "vzshutdown");
    assert.equal(lxcKind.taskType(lxcCalls.power("pve1", 200, "stop")), "vzstop");
    assert.equal(lxcKind.taskType(lxcCalls.power("pve1", 200, "reboot")), "vzreboot");
    assert.equal(lxcKind.taskType(lxcCalls.destroy("pve1", 200)), "vzdestroy");
    assert.equal(lxcKind.taskType(lxcCalls.resize("pve1", 200, "rootfs", 9 * GIB)), "resize");
    assert.equal(lxcKind.taskType(lxcCalls.moveVolume("pve1", 200, "mp0", "shared")), "move_volume");
    assert.equal(lxcKind.taskType(lxcCalls.config("pve1", 200, { memory: "2048" })), undefined);
    assert.equal(lxcCalls.config("pve1", 200, { memory: "2048" }).method, "PUT");
  });

  it("reads back whether a write landed, by what the plan said it was", () => {
    const landed = (call: ReturnType<typeof lxcCalls.config>) => lxcKind.landed(call, guest, pending);
    assert.equal(landed(lxcCalls.config("pve1", 200, { mp0: "shared:16,mp=/data" })), true, "new volume on that storage");
    assert.equal(landed(lxcCalls.config("pve1", 200, { mp1: "local-lvm:1,mp=/x" })), false, "no mp1 yet");
    assert.equal(landed(lxcCalls.config("pve1", 200, { net0: "name=eth0,bridge=vmbr1" })), true);
    assert.equal(landed(lxcCalls.config("pve1", 200, { net0: "name=eth0,bridge=vmbr0" })), false, "another bridge");
    assert.equal(landed(lxcCalls.config("pve1", 200, { hostname: "web1" })), true);
    assert.equal(landed(lxcCalls.config("pve1", 200, { delete: "mp0" })), false, "still attached");
    assert.equal(landed(lxcCalls.config("pve1", 200, { delete: "unused0" })), true, "already gone");
    assert.equal(landed(lxcCalls.resize("pve1", 200, "rootfs", 8 * GIB)), true);
    assert.equal(landed(lxcCalls.resize("pve1", 200, "rootfs", 9 * GIB)), false);
    assert.equal(landed(lxcCalls.moveVolume("pve1", 200, "mp0", "shared")), true);
    assert.equal(landed(lxcCalls.moveVolume("pve1", 200, "rootfs", "shared")), false);
  });

  it("asks for the privileges pve-container checks per key written", () => {
    const needs = (call: ReturnType<typeof lxcCalls.config>) =>
      lxcKind.callNeeds(call.intent, "/vms/200").map((n) => `${n.path} ${n.anyOf ? n.anyOf.join("|") : n.privilege}`);
    assert.deepEqual(needs(lxcCalls.config("pve1", 200, { mp1: "local-lvm:2,mp=/x" })), [
      "/vms/200 VM.Config.Disk",
      "/storage/local-lvm Datastore.AllocateSpace",
    ]);
    assert.deepEqual(needs(lxcCalls.config("pve1", 200, { net1: "name=eth1,bridge=vmbr2" })), [
      "/vms/200 VM.Config.Network",
      "/sdn/zones/localnetwork/vmbr2 SDN.Use",
    ]);
    assert.deepEqual(needs(lxcCalls.config("pve1", 200, { memory: "2048", cores: "2", features: "nesting=1" })), [
      "/vms/200 VM.Config.Memory",
      "/vms/200 VM.Config.CPU",
      "/vms/200 VM.Allocate",
    ]);
    assert.deepEqual(needs(lxcCalls.config("pve1", 200, { delete: "mp0,net1,nameserver" })), [
      "/vms/200 VM.Config.Disk",
      "/vms/200 VM.Config.Network",
      "/vms/200 VM.Config.Network",
    ]);
    assert.deepEqual(
      needs(lxcCalls.create("pve1", { hostname: "a", ostemplate: "local:vztmpl/x.tar.zst", rootfs: "local-lvm:4", pool: "web", start: 1 })),
      [
        "/pool/web VM.Allocate",
        "/pool/web Pool.Allocate|Permissions.Modify",
        "/vms/200 VM.PowerMgmt",
        "/storage/local Datastore.AllocateSpace|Datastore.Audit",
        "/vms/200 VM.Config.Network",
        "/vms/200 VM.Config.Disk",
        "/storage/local-lvm Datastore.AllocateSpace",
      ],
    );
    assert.deepEqual(needs(lxcCalls.moveVolume("pve1", 200, "mp0", "shared")), ["/storage/shared Datastore.AllocateSpace"]);
  });
});
