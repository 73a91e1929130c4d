// Before a migration runs: can the guest go to its target? Checked from the cluster listing (the
// target in the cluster and online, every storage of the guest's volumes there and available,
// the target's free memory for a running guest), the target's bridges (GET /nodes/S/network),
// and PVE's own answer (GET …/migrate?target=S: nodes HA or storages rule out, local resources,
// mapped devices, local CD-ROM images). All problems are reported together, before anything runs.
import { getNodeNetwork } from "../api/endpoints/index.js";
import { PveError, type PveClient } from "../api/index.js";
import type { MigrateIntent } from "../plan/intent.js";
import { resolvePath } from "../plan/resolve-call.js";
import type { GuestPlan, PreflightProblem } from "../plan/types.js";
import { GUEST_KINDS } from "../resources/index.js";
import { humanSize } from "../resources/formats.js";
import { mapConcurrent } from "../util/concurrency.js";
import type { ClusterSnapshot } from "./cluster.js";
import { errorText } from "./retry-policy.js";

interface Migration {
  guest: GuestPlan;
  vmid: number;
  intent: MigrateIntent;
}

function migrationsOf(guests: GuestPlan[]): Migration[] {
  return guests.flatMap((guest) =>
    guest.steps.flatMap((step) =>
      step.calls.flatMap((call) =>
        call.intent.op === "migrate" && guest.vmid !== undefined ? [{ guest, vmid: guest.vmid, intent: call.intent }] : [],
      ),
    ),
  );
}

function problem(m: Migration, message: string): PreflightProblem {
  return {
    kind: "migration",
    guest: m.guest.key,
    message: `cannot migrate ${m.guest.name} from ${m.intent.from} to ${m.intent.target}: ${message}`,
  };
}

/** The nodes: both in the cluster and online. */
function nodeProblems(cluster: ClusterSnapshot, m: Migration): string[] {
  const out: string[] = [];
  const target = cluster.nodes.get(m.intent.target);
  if (target === undefined) {
    out.push(
      `node ${m.intent.target} is not in the cluster (nodes: ${[...cluster.nodes.keys()].sort().join(", ")}); fix node: in the spec`,
    );
  } else if (!target.online) out.push(`the target node ${m.intent.target} is offline; migrate once it is back`);
  if (cluster.nodes.get(m.intent.from)?.online === false) out.push(`the node it is on, ${m.intent.from}, is offline`);
  return out;
}

/** Every storage its volumes are on must be there on the target, and available (PVE copies node-local volumes to the same storage id). */
function storageProblems(cluster: ClusterSnapshot, m: Migration): string[] {
  const out: string[] = [];
  const there = cluster.storages.filter((s) => s.node === m.intent.target);
  for (const storage of m.intent.storages) {
    const info = there.find((s) => s.storage === storage);
    if (info === undefined) {
      out.push(
        `storage ${storage}, which holds its volumes, does not exist on ${m.intent.target} (storages there: ${
          there
            .map((s) => s.storage)
            .sort()
            .join(", ") || "none"
        }); ` + `add it to that node (or allow it there in the storage's node list) or move the volumes to a storage both nodes have`,
      );
    } else if (!info.available)
      out.push(`storage ${storage}, which holds its volumes, is not available on ${m.intent.target} (disabled or inactive)`);
  }
  return out;
}

/** A running guest moves with its memory: the target must have that much free. */
function memoryProblems(cluster: ClusterSnapshot, m: Migration): string[] {
  const node = cluster.nodes.get(m.intent.target);
  if (m.intent.memoryBytes === undefined || node?.mem === undefined || node.maxmem === undefined) return [];
  const free = node.maxmem - node.mem;
  if (free >= m.intent.memoryBytes) return [];
  return [
    `it runs with ${humanSize(m.intent.memoryBytes)} of memory and ${m.intent.target} has ${humanSize(Math.max(free, 0))} free; ` +
      `free memory there, or stop the guest (power: stopped) to move it offline`,
  ];
}

/** The bridges its NICs use, on the target (one network listing per target node). */
async function bridgeProblems(client: PveClient, migrations: Migration[], onlineTargets: Set<string>): Promise<Map<Migration, string[]>> {
  const out = new Map<Migration, string[]>();
  const targets = [...new Set(migrations.filter((m) => m.intent.bridges.length > 0).map((m) => m.intent.target))].filter((n) =>
    onlineTargets.has(n),
  );
  const present = new Map<string, Set<string>>();
  await mapConcurrent(targets, 4, async (node) => {
    const ifaces = await getNodeNetwork(client, node, { type: "any_bridge" });
    present.set(node, new Set(ifaces.map((i) => i.iface)));
  });
  for (const m of migrations) {
    const bridges = present.get(m.intent.target);
    if (bridges === undefined) continue;
    const missing = m.intent.bridges.filter((b) => !bridges.has(b));
    if (missing.length > 0) {
      out.set(m, [
        `bridge ${missing.join(", ")} of its NICs does not exist on ${m.intent.target} (bridges there: ${[...bridges].sort().join(", ") || "none"}); ` +
          "create it there (or use an SDN vnet both nodes have)",
      ]);
    }
  }
  return out;
}

/** PVE's answer to GET …/migrate?target=, as far as pvectl reads it (qemu-server and pve-container name some keys differently). */
interface NodeRefusal {
  unavailable_storages?: string[];
  "blocking-ha-resources"?: Array<{ sid?: string; cause?: string }>;
}

interface Preconditions {
  not_allowed_nodes?: Record<string, NodeRefusal>;
  "not-allowed-nodes"?: Record<string, NodeRefusal>;
  local_resources?: string[];
  "mapped-resources"?: string[];
  local_disks?: Array<{ volid?: string; cdrom?: boolean | number; is_unused?: boolean | number }>;
}

/** What PVE says stands in the way, in its own words. */
function preconditionProblems(answer: Preconditions, m: Migration): string[] {
  const out: string[] = [];
  // qemu-server fills the hash with every other node: an entry without a reason is no refusal.
  const refused = (answer.not_allowed_nodes ?? answer["not-allowed-nodes"])?.[m.intent.target];
  if (refused !== undefined && Object.keys(refused).length > 0) {
    const storages = refused.unavailable_storages ?? [];
    const blocking = (refused["blocking-ha-resources"] ?? []).map((b) => `${b.sid ?? "?"} (${b.cause ?? "rule"})`);
    const why = [
      ...(storages.length > 0 ? [`storages ${storages.join(", ")} are not available there`] : []),
      ...(blocking.length > 0 ? [`HA resources ${blocking.join(", ")} block it`] : []),
    ];
    out.push(`PVE does not allow ${m.intent.target} as its target${why.length > 0 ? `: ${why.join("; ")}` : ""}`);
  }
  if ((answer.local_resources ?? []).length > 0) {
    out.push(`it uses resources local to ${m.intent.from} (${answer.local_resources!.join(", ")}), which PVE does not move`);
  }
  if ((answer["mapped-resources"] ?? []).length > 0) {
    out.push(`it uses mapped devices (${answer["mapped-resources"]!.join(", ")}); pvectl does not migrate guests with mapped devices`);
  }
  for (const disk of answer.local_disks ?? []) {
    if (disk.cdrom && !disk.is_unused)
      out.push(`its CD-ROM shows ${disk.volid ?? "a local image"}, which is local to ${m.intent.from}; eject it first`);
  }
  return out;
}

async function askPve(client: PveClient, m: Migration): Promise<string[]> {
  const call = GUEST_KINDS[m.intent.kind].endpoints.migratePreconditions(m.intent.from, m.vmid, m.intent.target);
  try {
    const answer = (await client.request("GET", resolvePath(call), { target: m.intent.target })) as Preconditions | null;
    return answer ? preconditionProblems(answer, m) : [];
  } catch (err) {
    // A server without the endpoint (501): the checks above are all there is. Refused (403): the
    // permission preflight names the missing VM.Migrate already.
    if (err instanceof PveError && (err.status === 501 || err.status === 403)) return [];
    return [`PVE could not be asked whether it may move (${errorText(err).split("\n")[0]}); run plan again`];
  }
}

export async function checkMigrations(client: PveClient, cluster: ClusterSnapshot, guests: GuestPlan[]): Promise<PreflightProblem[]> {
  const migrations = migrationsOf(guests);
  if (migrations.length === 0) return [];
  const local = new Map(
    migrations.map((m) => [m, [...nodeProblems(cluster, m), ...storageProblems(cluster, m), ...memoryProblems(cluster, m)]]),
  );
  const online = new Set([...cluster.nodes.values()].filter((n) => n.online).map((n) => n.node));
  const asking = migrations.filter((m) => online.has(m.intent.target) && online.has(m.intent.from));
  const [bridges, answers] = await Promise.all([
    bridgeProblems(client, migrations, online),
    mapConcurrent(asking, 4, async (m) => [m, await askPve(client, m)] as const),
  ]);
  const pve = new Map(answers);
  return migrations.flatMap((m) => {
    const own = [...(local.get(m) ?? []), ...(bridges.get(m) ?? [])];
    // When pvectl's own checks already refuse the move, PVE's answer is left out: it repeats a missing storage.
    return (own.length > 0 ? own : (pve.get(m) ?? [])).map((text) => problem(m, text));
  });
}
