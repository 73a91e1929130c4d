// Both simulators side by side, as the NetBox sync tests and the README's main job use them:
// a PVE simulator (HTTP, instant tasks) with the images the demo platforms name, and a NetBox
// simulator seeded with the demo records.
import { PveClient } from "../../src/api/index.js";
import { NetboxClient } from "../../src/netbox/client.js";
import { type NetboxConfig, parseNetboxConfig } from "../../src/sources/netbox/config.js";
import { type NetboxSimulator, type NetboxSimulatorOptions, startNetboxSimulator } from "../../src/netbox/sim/index.js";
import { type SyncOptions, syncNetbox } from "../../src/app/netbox/sync.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { DEMO_CONFIG } from "./fixtures.js";

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

export async function startNetboxLab(configText = DEMO_CONFIG, simOptions: SimulatorOptions = {}, netboxOptions: NetboxSimulatorOptions = {}): Promise<NetboxLab> {
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
