// A small simulated cluster with every kind of guest an inventory must describe: QEMU VMs and
// containers, running and stopped, with and without the guest agent, tags, pools, snapshots
// (one guest whose snapshots no longer sit under its current state), a paused VM and a
// template. Shared by the tests that compare pvectl's inventory with the community plugin's.
import { PveClient } from "../../src/api/index.js";
import type { RunningSimulator } from "../../src/sim/index.js";

const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

async function task(client: PveClient, method: "POST" | "PUT" | "DELETE", path: string, params: Record<string, string | number> = {}) {
  await client.waitForTask((await client.request(method, path, params)) as string);
}

export async function populateInventoryCluster(sim: RunningSimulator): Promise<void> {
  const client = new PveClient({
    host: "127.0.0.1",
    port: sim.port,
    user: "root@pam",
    password: sim.rootPassword,
    fingerprint: sim.fingerprint,
  });
  try {
    await client.request("POST", "/pools", { poolid: "team-a" });
    await task(client, "POST", "/nodes/pve1/qemu", {
      vmid: 101,
      name: "web-1",
      tags: "web;prod",
      memory: 1024,
      cores: 2,
      agent: "1",
      ostype: "l26",
      net0: "virtio,bridge=vmbr0,firewall=1",
      scsi0: "local-lvm:4,discard=on",
      ide2: "local-lvm:cloudinit",
      ipconfig0: "ip=10.10.0.11/24,gw=10.10.0.1",
      description: "owner=ops,tier=front",
      pool: "team-a",
    });
    await task(client, "POST", "/nodes/pve1/qemu/101/status/start");
    await task(client, "POST", "/nodes/pve1/qemu/101/snapshot", { snapname: "before_upgrade", description: "pre" });
    await task(client, "POST", "/nodes/pve2/qemu", {
      vmid: 102,
      name: "db-1",
      tags: "db",
      memory: 2048,
      agent: "enabled=1,fstrim_cloned_disks=1",
      net0: "virtio,bridge=vmbr0",
      sata0: "local-lvm:2",
      ipconfig0: "ip=dhcp",
    });
    // Stopped with the agent enabled: the plugin asks the agent anyway and gets an error.
    await task(client, "POST", "/nodes/pve2/qemu", {
      vmid: 103,
      name: "win-1",
      memory: 4096,
      ostype: "win11",
      agent: "0",
      cpu: "host,flags=+aes",
    });
    await task(client, "POST", "/nodes/pve2/qemu/103/status/start");
    await task(client, "POST", "/nodes/pve2/qemu/103/status/suspend");
    // Snapshots first, then second; rollback to first; delete first: second remains, the current state has no parent.
    await task(client, "POST", "/nodes/pve1/qemu", { vmid: 104, name: "lab-1", memory: 512, scsi0: "local-lvm:1" });
    await task(client, "POST", "/nodes/pve1/qemu/104/snapshot", { snapname: "first" });
    await task(client, "POST", "/nodes/pve1/qemu/104/snapshot", { snapname: "second" });
    await task(client, "POST", "/nodes/pve1/qemu/104/snapshot/first/rollback");
    await task(client, "DELETE", "/nodes/pve1/qemu/104/snapshot/first");
    await task(client, "POST", "/nodes/pve2/qemu", { vmid: 190, name: "tpl", memory: 512, scsi0: "local-lvm:1" });
    await task(client, "POST", "/nodes/pve2/qemu/190/template");
    await task(client, "POST", "/nodes/pve1/lxc", {
      vmid: 201,
      hostname: "ct-a",
      ostemplate: TEMPLATE,
      rootfs: "local-lvm:1",
      net0: "name=eth0,bridge=vmbr0,ip=10.20.0.5/24,gw=10.20.0.1",
      tags: "web",
      features: "nesting=1",
      pool: "team-a",
    });
    await task(client, "POST", "/nodes/pve1/lxc/201/status/start");
    await task(client, "POST", "/nodes/pve1/lxc/201/snapshot", { snapname: "clean" });
    await task(client, "POST", "/nodes/pve2/lxc", {
      vmid: 202,
      hostname: "ct-b",
      ostemplate: TEMPLATE,
      rootfs: "local-lvm:1",
      net0: "name=eth0,bridge=vmbr0,ip=dhcp",
    });
  } finally {
    await client.close();
  }
}
