// Before anything changes: every reference a step makes (node, storage and its content type,
// bridge, ISO, image a disk is imported from) is checked through the API, and every privilege
// the steps need is checked against GET /access/permissions. All problems are reported together.
import { getNodeNetwork, getPermissions, getStorageContent } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import type { GuestType } from "../plan/intent.js";
import { GUEST_KINDS } from "../resources/index.js";
import type { GuestPlan, PreflightProblem } from "../plan/types.js";
import { mapConcurrent } from "../util/concurrency.js";
import type { ClusterSnapshot } from "./cluster.js";
import { planStepNeeds } from "./plan-needs.js";
import { granted, missingPrivileges } from "./privileges.js";
import { planReadNeeds } from "./read-needs.js";

/** Volumes a step reads from storage content: ISOs for CD-ROMs, images for `import-from`, a container's template. */
type FileContent = "iso" | "import" | "images" | "vztmpl";

/** The content type a storage needs to hold a guest type's volumes (a container's rootfs and mount points: `rootdir`). */
function volumeContent(kind: GuestType): string {
  return GUEST_KINDS[kind].volumeContent.type;
}

interface References {
  nodes: Set<string>;
  /** node -> storage -> content types needed */
  storages: Map<string, Map<string, Set<string>>>;
  /** node -> bridges */
  bridges: Map<string, Set<string>>;
  /** node -> volumes a step reads (ISOs, import-from images) -> their content type */
  files: Map<string, Map<string, FileContent>>;
  /** reference -> guests that use it, for messages */
  users: Map<string, Set<string>>;
}

function add<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(value);
}

function collect(guests: GuestPlan[]): References {
  const refs: References = { nodes: new Set(), storages: new Map(), bridges: new Map(), files: new Map(), users: new Map() };
  const use = (ref: string, guest: string) => add(refs.users, ref, guest);
  for (const guest of guests) {
    if (guest.steps.length === 0) continue;
    const node = guest.node;
    refs.nodes.add(node);
    use(`node:${node}`, guest.key);
    const needStorage = (storage: string, content: string) => {
      let byStorage = refs.storages.get(node);
      if (!byStorage) {
        byStorage = new Map();
        refs.storages.set(node, byStorage);
      }
      add(byStorage, storage, content);
      use(`storage:${node}:${storage}`, guest.key);
    };
    const needFile = (storage: string, volume: string, content: FileContent) => {
      needStorage(storage, content);
      let byVolume = refs.files.get(node);
      if (!byVolume) {
        byVolume = new Map();
        refs.files.set(node, byVolume);
      }
      byVolume.set(volume, content);
      use(`file:${node}:${volume}`, guest.key);
    };
    for (const step of guest.steps) {
      for (const call of step.calls) {
        const intent = call.intent;
        if (intent.op === "move-volume") needStorage(intent.storage, volumeContent(intent.kind));
        // A clone: its target storage, and the bridges its copied NICs keep (on the new guest's node).
        if (intent.op === "clone" && intent.storage !== undefined) needStorage(intent.storage, volumeContent(intent.kind));
        if (intent.op === "clone") {
          for (const bridge of intent.bridges) {
            add(refs.bridges, node, bridge);
            use(`bridge:${node}:${bridge}`, guest.key);
          }
        }
        if (intent.op !== "create" && intent.op !== "configure") continue;
        if (intent.op === "create" && intent.template) needFile(intent.template.storage, intent.template.volume, "vztmpl");
        for (const write of intent.writes) {
          if (write.as === "drive") {
            if (write.newOn) needStorage(write.newOn, volumeContent(intent.kind));
            if (write.iso) needFile(write.iso.storage, write.iso.volume, "iso");
            // import-from: a volume of content type import (storage:import/...) or an existing
            // disk image; an absolute path (root only) cannot be checked through the API
            const image = write.importFrom;
            if (image) needFile(image.storage, image.volume, image.volume.startsWith(`${image.storage}:import/`) ? "import" : "images");
          } else if (write.as === "nic" && write.bridge) {
            add(refs.bridges, node, write.bridge);
            use(`bridge:${node}:${write.bridge}`, guest.key);
          }
        }
      }
    }
  }
  return refs;
}

function whoUses(refs: References, ref: string): string {
  return [...(refs.users.get(ref) ?? [])].sort().join(", ");
}

export async function checkReferences(client: PveClient, cluster: ClusterSnapshot, guests: GuestPlan[]): Promise<PreflightProblem[]> {
  const refs = collect(guests);
  const problems: PreflightProblem[] = [];
  const onlineNodes: string[] = [];
  for (const node of [...refs.nodes].sort()) {
    const info = cluster.nodes.get(node);
    if (!info) {
      const known = [...cluster.nodes.keys()].sort().join(", ");
      problems.push({
        kind: "node",
        guest: whoUses(refs, `node:${node}`),
        message: `node ${node} is not in the cluster (nodes: ${known})`,
      });
    } else if (!info.online) {
      problems.push({
        kind: "node",
        guest: whoUses(refs, `node:${node}`),
        message: `node ${node} is offline; nothing can change on it until it is back`,
      });
    } else onlineNodes.push(node);
  }
  const unlisted: UnlistedStorage[] = [];
  for (const node of onlineNodes) {
    for (const [storage, contents] of refs.storages.get(node) ?? []) {
      const info = cluster.storages.find((s) => s.node === node && s.storage === storage);
      const guest = whoUses(refs, `storage:${node}:${storage}`);
      if (!info) {
        unlisted.push({ node, storage, guest });
        continue;
      }
      if (!info.available) problems.push({ kind: "storage", guest, message: `storage ${storage} on node ${node} is not available` });
      for (const content of contents) {
        if (!info.content.includes(content)) {
          problems.push({
            kind: "storage",
            guest,
            message: `storage ${storage} on node ${node} does not hold content type ${content} (it holds: ${info.content.join(", ") || "nothing"})`,
          });
        }
      }
    }
  }
  problems.push(...(await unlistedStorageProblems(client, cluster, unlisted)));
  // Bridges and ISOs need one listing per node (and per ISO storage), read concurrently.
  await mapConcurrent(
    onlineNodes.filter((n) => refs.bridges.has(n)),
    4,
    async (node) => {
      const ifaces = await getNodeNetwork(client, node, { type: "any_bridge" });
      const present = new Set(ifaces.map((i) => i.iface));
      for (const bridge of refs.bridges.get(node) ?? []) {
        if (!present.has(bridge)) {
          problems.push({
            kind: "bridge",
            guest: whoUses(refs, `bridge:${node}:${bridge}`),
            message: `bridge ${bridge} does not exist on node ${node} (bridges there: ${[...present].sort().join(", ") || "none"})`,
          });
        }
      }
    },
  );
  // one content listing per node, storage and content type, for the volumes expected there
  const listings = new Map<string, { node: string; storage: string; content: FileContent; volumes: string[] }>();
  for (const node of onlineNodes) {
    for (const [volume, content] of refs.files.get(node) ?? []) {
      const storage = volume.split(":")[0]!;
      // a missing storage or content type is already reported above
      if (!cluster.storages.some((s) => s.node === node && s.storage === storage && s.content.includes(content))) continue;
      const key = `${node}\0${storage}\0${content}`;
      const listing = listings.get(key) ?? { node, storage, content, volumes: [] };
      listing.volumes.push(volume);
      listings.set(key, listing);
    }
  }
  await mapConcurrent([...listings.values()], 4, async ({ node, storage, content, volumes }) => {
    const listed = await getStorageContent(client, node, storage, { content });
    const present = new Set(listed.map((c) => c.volid));
    for (const volume of volumes) {
      if (present.has(volume)) continue;
      problems.push({ ...missingFile(content, volume, storage, node), guest: whoUses(refs, `file:${node}:${volume}`) });
    }
  });
  return problems;
}

/** What is missing and what to do about it, by the content the volume was expected in. */
function missingFile(content: FileContent, volume: string, storage: string, node: string): Omit<PreflightProblem, "guest"> {
  if (content === "vztmpl") {
    const file = volume.slice(volume.indexOf("/") + 1);
    return {
      kind: "template",
      message: `container template ${volume} is not in storage ${storage} on node ${node}; download it there (pveam download ${storage} ${file}) or fix ostemplate`,
    };
  }
  const what = content === "iso" ? "ISO" : "image";
  return {
    kind: content === "iso" ? "iso" : "image",
    message: `${what} ${volume} is not in storage ${storage} on node ${node}; upload it or fix the path`,
  };
}

interface UnlistedStorage {
  node: string;
  storage: string;
  guest: string;
}

/** The privileges under which /cluster/resources lists a storage (PVE: any of them). */
const STORAGE_LISTED_WITH = ["Datastore.Audit", "Datastore.AllocateSpace"];

/**
 * A storage the cluster listing does not show either does not exist on that node or is hidden
 * from this user/token (listed only with Datastore.Audit or Datastore.AllocateSpace on it):
 * the permission dump tells which, so the message does not send anyone looking for a typo.
 */
async function unlistedStorageProblems(
  client: PveClient,
  cluster: ClusterSnapshot,
  unlisted: UnlistedStorage[],
): Promise<PreflightProblem[]> {
  if (unlisted.length === 0) return [];
  const dump = await getPermissions(client);
  return unlisted.map(({ node, storage, guest }) => {
    const path = `/storage/${storage}`;
    if (!STORAGE_LISTED_WITH.some((p) => granted(dump, path, p))) {
      return {
        kind: "storage" as const,
        guest,
        path,
        privilege: "Datastore.Audit",
        message:
          `storage ${storage} is not visible to ${client.identity}: it lacks Datastore.Audit on ${path}, so PVE does not list it ` +
          "(it may exist); grant Datastore.Audit (or Datastore.AllocateSpace) on that path, or check the name",
      };
    }
    const here = cluster.storages
      .filter((s) => s.node === node)
      .map((s) => s.storage)
      .sort()
      .join(", ");
    return {
      kind: "storage" as const,
      guest,
      message: `storage ${storage} does not exist on node ${node} (storages there: ${here || "none"})`,
    };
  });
}

export async function checkPermissions(client: PveClient, guests: GuestPlan[]): Promise<PreflightProblem[]> {
  const steps = guests.flatMap((g) => g.steps);
  if (steps.length === 0) return [];
  const dump = await getPermissions(client);
  const byStep = new Map(guests.flatMap((g) => g.steps.map((s) => [s.id, g.key] as const)));
  return missingPrivileges(dump, [...planStepNeeds(guests), ...planReadNeeds(guests)], client.identity).map((need) => {
    const privilege = need.anyOf && need.anyOf.length > 1 ? need.anyOf.join(" or ") : need.privilege;
    return {
      kind: "permission" as const,
      guest: byStep.get(need.stepId) ?? "",
      path: need.path,
      privilege,
      message: `${client.identity} lacks ${privilege} on ${need.path}${(need.orOn ?? []).map((o) => ` (or ${o.privilege} on ${o.path})`).join("")} (needed by step ${need.stepId})`,
    };
  });
}
