// The pieces of `pvectl demo` that act on the world rather than print: a simulated cluster and
// a client pinned to it, the examples the demo can run, the hand edit it repairs, the NetBox
// simulator with its planned records, and the inventory with NetBox facts. The command
// (cli/commands/demo.ts) strings them together with plan, apply, sync and their rendering.
import { getQemuConfig, updateQemuConfig } from "../api/endpoints/index.js";
import { PveClient } from "../api/index.js";
import type { GuestReport } from "../engine/report.js";
import { generateInventory, parseInventoryConfig } from "../inventory/index.js";
import type { AnsibleInventory } from "../inventory/model.js";
import { NetboxClient } from "../netbox/client.js";
import { type RunningSimulator, startSimulator } from "../sim/index.js";
import { loadNetboxConfig, type NetboxConfig } from "../sources/netbox/config.js";
import { loadSpecFiles, type SpecDocument } from "../sources/spec/index.js";
import { type NetboxSimulator, startNetboxSimulator } from "./netbox/simulator.js";

export interface DemoClusterOptions {
  /** Plain HTTP instead of HTTPS with the simulator's certificate pinned by fingerprint. */
  http?: boolean;
  timing: "instant" | "realistic";
  /** Realistic timing: real seconds per simulated second. */
  timeScale?: number;
}

export interface DemoCluster {
  sim: RunningSimulator;
  client: PveClient;
  close(): Promise<void>;
}

/** The PVE simulator in-process, and root's client for it. */
export async function startDemoCluster(options: DemoClusterOptions): Promise<DemoCluster> {
  const sim = await startSimulator({
    port: 0,
    https: !options.http,
    timing: options.timing,
    ...(options.timeScale !== undefined ? { timeScale: options.timeScale } : {}),
  });
  const url = new URL(sim.url);
  const client = new PveClient({
    host: url.hostname,
    port: Number(url.port),
    ...(options.http ? { protocol: "http" as const } : { fingerprint: sim.fingerprint! }),
    user: "root@pam",
    password: sim.rootPassword,
  });
  return {
    sim,
    client,
    close: async () => {
      await client.close();
      await sim.close();
    },
  };
}

/** Examples that name a connection describe a real cluster; the demo runs the others. */
export async function runnableExamples(files: string[]): Promise<{ runnable: string[]; skipped: string[] }> {
  const runnable: string[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    const spec = await loadSpecFiles([file]);
    if ([...spec.vms, ...spec.containers].some((guest) => guest.connection !== undefined)) skipped.push(file);
    else runnable.push(file);
  }
  return { runnable, skipped };
}

export function loadDemoSpec(files: string[]): Promise<SpecDocument> {
  return loadSpecFiles(files);
}

/**
 * Changes the first created guest with a NIC behind pvectl's back, as a person in the web UI
 * would: net0 on the other bridge (MAC kept) and one more tag. Returns its name.
 */
export async function driftByHand(client: PveClient, guests: GuestReport[]): Promise<string | undefined> {
  const guest = guests.find((g) => g.result === "created" && g.vmid !== undefined && g.macs.net0);
  if (!guest) return undefined;
  const config = await getQemuConfig(client, guest.node, guest.vmid!);
  const net0 = String(config.net0);
  const bridge = /bridge=vmbr0/.test(net0) ? "vmbr1" : "vmbr0";
  await updateQemuConfig(client, guest.node, guest.vmid!, {
    net0: net0.replace(/bridge=[^,]+/, `bridge=${bridge}`),
    tags: `${String(config.tags ?? "")};edited-by-hand`,
  });
  return guest.key;
}

export interface DemoNetbox {
  sim: NetboxSimulator;
  netbox: NetboxClient;
  config: NetboxConfig;
  /** The names of the VM records in status planned, which a sync builds. */
  planned: string[];
}

/** The NetBox simulator with its demo records, and the sync config that fits them (`configFile`). */
export async function startDemoNetbox(configFile: string): Promise<DemoNetbox> {
  const sim = await startNetboxSimulator({ seed: "demo" });
  try {
    const netbox = new NetboxClient({ url: sim.url, token: sim.token });
    const config = await loadNetboxConfig(configFile);
    const planned = await netbox.list("virtualization/virtual-machines", { status: "planned" });
    return { sim, netbox, config, planned: planned.map((r) => r.name) };
  } catch (err) {
    await sim.close();
    throw err;
  }
}

/** The inventory of what now exists, with NetBox facts, grouped by tag and NetBox status. */
export function demoInventory(client: PveClient, netbox: DemoNetbox): Promise<AnsibleInventory> {
  return generateInventory(
    { api: client, endpoint: client.origin, identity: client.identity, netbox: netbox.netbox },
    parseInventoryConfig(
      {
        facts: "config",
        netbox: { url: netbox.sim.url },
        ansibleHost: ["netbox", "ipconfig"],
        keyedGroups: [
          { key: "tag", prefix: "tag" },
          { key: "netbox_status", prefix: "netbox" },
        ],
      },
      "demo",
    ),
  );
}
