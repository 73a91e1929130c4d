// Both simulators side by side, as the NetBox sync tests and the README's main job use them:
// a PVE simulator (HTTP, instant tasks) with the images the demo platforms name, and a NetBox
// simulator seeded with the demo records.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PveClient } from "../../src/api/index.js";
import { NetboxClient } from "../../src/netbox/client.js";
import { type NetboxConfig, parseNetboxConfig } from "../../src/sources/netbox/config.js";
import { type NetboxSimulator, type NetboxSimulatorOptions, startNetboxSimulator } from "../../src/netbox/sim/index.js";
import { type SyncOptions, syncNetbox } from "../../src/app/netbox/sync.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { DEMO_CONFIG } from "../netbox/fixtures.js";

export interface NetboxLab {
  sim: RunningSimulator;
  pve: PveClient;
  nb: NetboxSimulator;
  netbox: NetboxClient;
  config: NetboxConfig;
  sync(extra?: Partial<SyncOptions>): ReturnType<typeof syncNetbox>;
  /** PVE guests by name -> vmids (to count duplicates). */
  pveGuests(): Promise<Map<string, number[]>>;
  close(): Promise<void>;
}

export const FAST_APPLY = { taskPoll: { minIntervalMs: 5, maxIntervalMs: 20 }, retry: { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 40 } };

export async function startNetboxLab(
  configText = DEMO_CONFIG,
  simOptions: SimulatorOptions = {},
  netboxOptions: NetboxSimulatorOptions = {},
): Promise<NetboxLab> {
  const sim = await startSimulator({
    port: 0,
    https: false,
    seed: 11,
    config: { content: ["local:iso/debian-13-netinst.iso", "local:import/noble.qcow2"] },
    ...simOptions,
  });
  const url = new URL(sim.url);
  const pve = new PveClient({ host: url.hostname, port: Number(url.port), protocol: "http", user: "root@pam", password: sim.rootPassword });
  const nb = await startNetboxSimulator({ seed: "demo", ...netboxOptions });
  const netbox = new NetboxClient({ url: nb.url, token: nb.token });
  const config = parseNetboxConfig(configText, "netbox.yaml");
  return {
    sim,
    pve,
    nb,
    netbox,
    config,
    sync: (extra = {}) => syncNetbox({ config, netbox, pveClient: () => pve, apply: FAST_APPLY, ...extra }),
    async pveGuests() {
      const rows = (await pve.request("GET", "/cluster/resources", { type: "vm" })) as { vmid: number; name?: string }[];
      const out = new Map<string, number[]>();
      for (const r of rows) out.set(r.name ?? "", [...(out.get(r.name ?? "") ?? []), r.vmid]);
      return out;
    },
    async close() {
      await netbox.close();
      await nb.close();
      await pve.close();
      await sim.close();
    },
  };
}

/** What addVlanNetworks made: NetBox ids of the VLANs (by vid), the VLAN 30 prefix and the records. */
export interface VlanNetworks {
  vlans: Record<"10" | "20" | "30" | "40", number>;
  storagePrefix: number;
  /** app-01: eth0 on VLAN 10 (10.10.0.0/24, gateway in the prefix's custom field), eth1 on VLAN 30 (10.30.0.0/24, router 10.30.0.254 tagged gateway). */
  twoNics: number;
  /** backup-01: eth0 on VLAN 40, which has no prefix (refused). */
  noPrefix: number;
}

/**
 * VLAN networks on a simulator seeded with the demo data, made with python3-pynetbox
 * (vlan-networks.py): VLANs 10/20/30 with a prefix each, VLAN 40 without, and the records
 * app-01 (two NICs, VLANs 10 and 30) and backup-01 (VLAN 40), both `planned` on ubuntu-24-04
 * (give that platform `cloudInit:` to see the addresses in the guests: CLOUD_INIT_CONFIG).
 */
export async function addVlanNetworks(nb: { url: string; token: string }): Promise<VlanNetworks> {
  const script = fileURLToPath(new URL("../netbox/vlan-networks.py", import.meta.url));
  const { stdout } = await promisify(execFile)("/usr/bin/python3", [script, nb.url, nb.token]);
  return JSON.parse(stdout) as VlanNetworks;
}

/** NetBox told to send pvectl serve its VM and interface events: a webhook with the shared secret and the event rule that fires it. */
export function pointNetboxAt(nb: NetboxSimulator, url: string, secret: string): void {
  const hook = nb.admin.create("extras/webhooks", { name: "pvectl", payload_url: `${url}/webhook`, secret });
  nb.admin.create("extras/event-rules", {
    name: "build planned VMs",
    object_types: ["virtualization.virtualmachine", "virtualization.vminterface"],
    event_types: ["object_created", "object_updated"],
    action_type: "webhook",
    action_object_type: "extras.webhook",
    action_object_id: hook.id,
  });
}
