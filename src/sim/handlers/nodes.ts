// GET /nodes, /nodes/{node}, /nodes/{node}/status (the network is in network.ts).
import { noise, nodeUsage } from "../cluster/metrics.js";
import type { SimCluster } from "../cluster/model.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { nodeParam, sim } from "./context.js";

type Entry = Record<string, unknown>;

function fingerprint(model: SimCluster, node: string): string {
  const bytes: string[] = [];
  for (let i = 0; i < 32; i++) {
    bytes.push(
      Math.floor(noise(model.state.salt, node, "fp", i) * 256)
        .toString(16)
        .toUpperCase()
        .padStart(2, "0"),
    );
  }
  return bytes.join(":");
}

/** What /nodes and /cluster/resources both say of a node (stats only with Sys.Audit on the node). */
export function nodeEntry(ctx: HandlerContext, model: SimCluster, name: string): Entry {
  const node = model.requireNode(name);
  const entry: Entry = {
    id: `node/${name}`,
    type: "node",
    node: name,
    status: node.online ? "online" : "offline",
    level: "",
  };
  if (!node.online || !ctx.hasPermission(`/nodes/${name}`, ["Sys.Audit"])) return entry;
  const usage = nodeUsage(model, name);
  return {
    ...entry,
    cpu: usage.cpu,
    maxcpu: node.cpus,
    mem: usage.mem,
    maxmem: node.memory,
    disk: usage.disk,
    maxdisk: node.rootDisk,
    uptime: usage.uptime,
  };
}

// Each list adds its own key (pve-manager): GET /nodes the certificate's fingerprint, read from
// the cluster file system, /cluster/resources the cgroup mode from the node's static info.
// Both come whatever the caller may audit and whether the node is up.
function listNodes(ctx: HandlerContext): Entry[] {
  const model = sim(ctx);
  return model.state.nodes.map((n) => ({ ...nodeEntry(ctx, model, n.name), ssl_fingerprint: fingerprint(model, n.name) }));
}

/** A node as /cluster/resources lists it. */
export function nodeResource(ctx: HandlerContext, model: SimCluster, name: string): Entry {
  const entry: Entry = { ...nodeEntry(ctx, model, name), "cgroup-mode": 2 };
  // the HA manager's node status, once it is active (any HA resource)
  if (model.state.guests.some((g) => g.hastate !== undefined)) entry.hastate = model.isNodeOnline(name) ? "online" : "unknown";
  return entry;
}

function nodeIndex(ctx: HandlerContext): Entry[] {
  sim(ctx).requireNode(nodeParam(ctx));
  return [
    "apt",
    "capabilities",
    "ceph",
    "disks",
    "firewall",
    "hardware",
    "lxc",
    "network",
    "qemu",
    "status",
    "storage",
    "tasks",
    "version",
    "vzdump",
  ].map((name) => ({ name }));
}

function nodeStatus(ctx: HandlerContext): Entry {
  const model = sim(ctx);
  const node = model.requireNode(nodeParam(ctx));
  if (!node.online) throw new PveApiError(595, `no route to host`);
  const usage = nodeUsage(model, node.name);
  const load = (i: number) => (usage.cpu * node.cpus * (1 - i * 0.1)).toFixed(2);
  const used = Math.round(node.rootDisk * 0.08);
  return {
    uptime: usage.uptime,
    cpu: usage.cpu,
    wait: 0.0002,
    idle: 0,
    loadavg: [load(0), load(1), load(2)],
    kversion: "Linux 6.17.2-1-pve #1 SMP PREEMPT_DYNAMIC PMX 6.17.2-1 (2025-10-21T11:55Z) x86_64",
    pveversion: "pve-manager/9.1.2/9d436f37a0ac4172",
    "current-kernel": { sysname: "Linux", release: "6.17.2-1-pve", machine: "x86_64", version: "#1 SMP PREEMPT_DYNAMIC PMX 6.17.2-1" },
    "boot-info": { mode: "efi", secureboot: 0 },
    cpuinfo: {
      cpus: node.cpus,
      cores: node.cpus / 2,
      sockets: 1,
      model: "AMD EPYC 7302P 16-Core Processor",
      mhz: "3000.000",
      hvm: "1",
      user_hz: 100,
      flags: "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov svm",
    },
    memory: { total: node.memory, used: usage.mem, free: node.memory - usage.mem, available: node.memory - usage.mem },
    swap: { total: 8 * 1024 ** 3, used: 0, free: 8 * 1024 ** 3 },
    ksm: { shared: 0 },
    rootfs: { total: node.rootDisk, used, free: node.rootDisk - used, avail: node.rootDisk - used },
  };
}

export function registerNodeHandlers(router: Router): void {
  router.add("GET", "/nodes", listNodes);
  router.add("GET", "/nodes/{node}", nodeIndex);
  router.add("GET", "/nodes/{node}/status", nodeStatus);
}
