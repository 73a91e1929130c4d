// ansible_host of a guest with a static cloud-init (or container) address is that address whichever
// source finds it first: the agent of the running guest reports it, and the config names it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildInventory } from "../../src/inventory/build.js";
import { collectGuests, type InventoryApi } from "../../src/inventory/collect.js";
import { parseInventoryConfig } from "../../src/inventory/config.js";
import { Harness } from "../sim/guests-harness.js";

function harnessApi(h: Harness): InventoryApi {
  return {
    request: (method, path, params) => h.call(method, path, (params ?? {}) as Record<string, string | number>),
  };
}

test("a running VM's ansible_host is its cloud-init address from the agent as from ipconfig; a container's from netN", async () => {
  const h = new Harness();
  await h.createVm(100, {
    agent: 1,
    ide2: "local-lvm:cloudinit",
    net0: "virtio,bridge=vmbr0",
    net1: "virtio,bridge=vmbr0",
    ipconfig0: "ip=192.0.2.10/24,gw=192.0.2.1",
    ipconfig1: "ip=198.51.100.10/24",
  });
  await h.ok("POST", "/nodes/pve1/qemu/100/status/start");
  await h.ok("POST", "/nodes/pve1/lxc", {
    vmid: 200,
    hostname: "ct200",
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
    rootfs: "local-lvm:4",
    net0: "name=eth0,bridge=vmbr0,ip=192.0.2.20/24",
    start: 1,
  });
  h.clock += 60;
  const { guests } = await collectGuests(harnessApi(h), { level: "agent", concurrency: 1 });
  assert.ok(
    guests.find((g) => g.vmid === 100)?.agentAddresses?.some((a) => a.address === "192.0.2.10"),
    "the agent answered",
  );
  for (const ansibleHost of [["agent", "ipconfig"], ["agent"], ["ipconfig"]]) {
    const inv = buildInventory(guests, parseInventoryConfig({ ansibleHost }, "test"));
    assert.equal(inv._meta.hostvars.vm100?.ansible_host, "192.0.2.10", `VM via ${ansibleHost.join(", ")}`);
  }
  const inv = buildInventory(guests, parseInventoryConfig({}, "test"));
  assert.equal(inv._meta.hostvars.ct200?.ansible_host, "192.0.2.20");
});
