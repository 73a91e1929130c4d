import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness } from "./guests-harness.js";

describe("cloud-init", () => {
  it("allocates vm-<vmid>-cloudinit, reports pending cloud-init changes and dumps the generated data", async () => {
    const h = new Harness();
    await h.createVm(100, {
      ide2: "local-lvm:cloudinit",
      net0: "virtio,bridge=vmbr0",
      ciuser: "ops",
      sshkeys: encodeURIComponent("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemoKeyOnlyDemoKeyOnlyDemoKeyOnly0000000000 ops@laptop"),
      ipconfig0: "ip=10.0.0.5/24,gw=10.0.0.1",
      nameserver: "10.0.0.53",
    });
    const cfg = await h.config(100);
    assert.equal(cfg.ide2, "local-lvm:vm-100-cloudinit,media=cdrom");
    assert.ok(h.model.state.volumes.some((v) => v.volid === "local-lvm:vm-100-cloudinit"));
    let pending = (await h.call("GET", "/nodes/pve1/qemu/100/cloudinit")) as Array<Record<string, unknown>>;
    assert.deepEqual(
      pending.find((p) => p.key === "ciuser"),
      { key: "ciuser", pending: "ops" },
      "never generated yet",
    );
    await h.ok("POST", "/nodes/pve1/qemu/100/status/start");
    pending = (await h.call("GET", "/nodes/pve1/qemu/100/cloudinit")) as Array<Record<string, unknown>>;
    assert.deepEqual(
      pending.find((p) => p.key === "ciuser"),
      { key: "ciuser", value: "ops" },
    );
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { ciuser: "admin" });
    pending = (await h.call("GET", "/nodes/pve1/qemu/100/cloudinit")) as Array<Record<string, unknown>>;
    assert.deepEqual(
      pending.find((p) => p.key === "ciuser"),
      { key: "ciuser", value: "ops", pending: "admin" },
    );
    assert.equal(await h.call("PUT", "/nodes/pve1/qemu/100/cloudinit"), null);
    const user = String(await h.call("GET", "/nodes/pve1/qemu/100/cloudinit/dump", { type: "user" }));
    assert.match(user, /^#cloud-config\nhostname: vm100\n/);
    assert.match(user, /\nuser: admin\n/);
    assert.match(
      user,
      /ssh_authorized_keys:\n {2}- ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemoKeyOnlyDemoKeyOnlyDemoKeyOnly0000000000 ops@laptop\n/,
    );
    const net = String(await h.call("GET", "/nodes/pve1/qemu/100/cloudinit/dump", { type: "network" }));
    assert.match(net, /address: '10\.0\.0\.5'\n {8}netmask: '255\.255\.255\.0'\n {8}gateway: '10\.0\.0\.1'/);
    assert.match(net, /mac_address: 'bc:24:11:/);
  });

  it("the network data lists only NICs with an ipconfigN, in qemu-server's order of their keys", async () => {
    const h = new Harness();
    const nic = "virtio,bridge=vmbr0";
    await h.createVm(100, {
      ide2: "local-lvm:cloudinit",
      net0: nic,
      net1: nic,
      net2: nic,
      net10: nic,
      ipconfig2: "ip=dhcp",
      ipconfig10: "ip=10.0.10.5/24",
      ipconfig0: "ip=10.0.0.5/24",
    });
    const net = String(await h.call("GET", "/nodes/pve1/qemu/100/cloudinit/dump", { type: "network" }));
    // nocloud_network skips a NIC without ipconfigN and sorts the keys as strings (net10 before net2).
    assert.deepEqual(
      [...net.matchAll(/name: (eth\d+)/g)].map((m) => m[1]),
      ["eth0", "eth10", "eth2"],
    );
  });

  it("a clone gets its own cloud-init drive; removing the drive frees it", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:2", ide2: "local-lvm:cloudinit" });
    await h.ok("POST", "/nodes/pve1/qemu/100/clone", { newid: 101 });
    assert.equal((await h.config(101)).ide2, "local-lvm:vm-101-cloudinit,media=cdrom");
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { delete: "ide2" });
    const cfg = await h.config(100);
    assert.equal(cfg.unused0, undefined);
    assert.equal(
      h.model.state.volumes.some((v) => v.volid === "local-lvm:vm-100-cloudinit"),
      false,
    );
  });
});
