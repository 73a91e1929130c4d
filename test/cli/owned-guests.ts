// Many guests pvectl owns (its ownership tag), made straight through the API so tests and
// benchmarks over hundreds of guests do not spend their time in `pvectl apply`. Every fourth is
// a container; the rest are VMs; all have one disk on local-lvm (LVM-thin: snapshots allowed),
// spread round-robin over the nodes.
import { PveClient } from "../../src/api/index.js";
import type { RunningSimulator } from "../../src/sim/index.js";
import { mapConcurrent } from "../../src/util/concurrency.js";

export const CT_TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

export interface OwnedGuest {
  vmid: number;
  name: string;
  node: string;
  type: "qemu" | "lxc";
}

/** The guests seedOwnedGuests makes: vmids from `firstVmid`, names app-001..., nodes pve1..pveN. */
export function ownedGuests(count: number, nodes: number, firstVmid = 1000): OwnedGuest[] {
  return Array.from({ length: count }, (_, i) => ({
    vmid: firstVmid + i,
    name: `app-${String(i + 1).padStart(3, "0")}`,
    node: `pve${(i % nodes) + 1}`,
    type: i % 4 === 3 ? "lxc" : "qemu",
  }));
}

/**
 * Creates `guests` and waits for their tasks. Run it with the instant timing profile (switch
 * to realistic after): with realistic timing every create takes a worker slot for seconds.
 */
export async function seedOwnedGuests(sim: RunningSimulator, guests: OwnedGuest[]): Promise<void> {
  const client = new PveClient({
    host: "127.0.0.1",
    port: sim.port,
    user: "root@pam",
    password: sim.rootPassword,
    fingerprint: sim.fingerprint,
  });
  try {
    await mapConcurrent(guests, 16, async (g) => {
      const body =
        g.type === "qemu"
          ? { vmid: g.vmid, name: g.name, memory: 512, scsi0: "local-lvm:1", net0: "virtio,bridge=vmbr0", tags: "pvectl" }
          : { vmid: g.vmid, hostname: g.name, ostemplate: CT_TEMPLATE, rootfs: "local-lvm:1", memory: 512, tags: "pvectl" };
      await client.waitForTask((await client.request("POST", `/nodes/${g.node}/${g.type}`, body)) as string);
    });
  } finally {
    await client.close();
  }
  await sim.admin.waitForTasks();
}

/** Snapshot names per vmid as PVE lists them (without "current"). */
export async function snapshotsByVmid(sim: RunningSimulator, guests: OwnedGuest[]): Promise<Map<number, string[]>> {
  const client = new PveClient({
    host: "127.0.0.1",
    port: sim.port,
    user: "root@pam",
    password: sim.rootPassword,
    fingerprint: sim.fingerprint,
  });
  try {
    const lists = await mapConcurrent(guests, 16, async (g) => {
      const snaps = (await client.request("GET", `/nodes/${g.node}/${g.type}/${g.vmid}/snapshot`)) as Array<{ name: string }>;
      return [g.vmid, snaps.map((s) => s.name).filter((n) => n !== "current")] as const;
    });
    return new Map(lists);
  } finally {
    await client.close();
  }
}
