// The `--config` file of `pvectl sim` (YAML, parsed by the platform) and the default cluster.
import { z } from "zod";
import { GIB as GiB } from "../../pve/index.js";
import { SimUserError } from "../errors.js";
import type { StorageState, StorageType } from "./types.js";

const storageSchema = z.object({
  id: z.string().regex(/^[a-z][a-z0-9\-_.]*[a-z0-9]$/i),
  type: z.enum(["dir", "btrfs", "lvmthin", "nfs", "lvm", "zfspool", "rbd", "cifs"]),
  content: z.union([z.string(), z.array(z.string())]),
  shared: z.boolean().optional(),
  nodes: z.array(z.string()).optional(),
  /** capacity in GiB */
  size: z.number().positive().optional(),
  path: z.string().optional(),
  /** Retention, e.g. "keep-last=3,keep-daily=7" (default keep-all=1). */
  "prune-backups": z
    .string()
    .regex(/^keep-(all|last|hourly|daily|weekly|monthly|yearly)=\d+(,keep-(all|last|hourly|daily|weekly|monthly|yearly)=\d+)*$/)
    .optional(),
});

const nodeSchema = z.union([
  z.string(),
  z.object({
    name: z.string(),
    cpus: z.number().int().positive().optional(),
    /** GiB */
    memory: z.number().positive().optional(),
    bridges: z.array(z.string()).optional(),
  }),
]);

export const clusterConfigSchema = z.object({
  name: z.string().optional(),
  nodes: z.union([z.number().int().min(1).max(64), z.array(nodeSchema)]).optional(),
  bridges: z.array(z.string()).optional(),
  storages: z.array(storageSchema).optional(),
  /** Files present on storages at start: "local:iso/debian-13-netinst.iso" or {volid, size (bytes)}. */
  content: z.array(z.union([z.string(), z.object({ volid: z.string(), size: z.number().optional() })])).optional(),
  macPrefix: z.string().optional(),
  /** Simulated seconds after a VM starts until its guest agent answers (default 15; 0 = at once). */
  agentDelay: z.number().int().min(0).optional(),
});

export type ClusterConfig = z.infer<typeof clusterConfigSchema>;

export interface NormalisedNode {
  name: string;
  cpus: number;
  memory: number;
  bridges: string[];
}

export interface NormalisedConfig {
  name: string;
  nodes: NormalisedNode[];
  storages: StorageState[];
  content: Array<{ volid: string; size: number }>;
  macPrefix: string;
  agentDelay: number;
}

const DEFAULT_BRIDGES = ["vmbr0", "vmbr1"];

const DEFAULT_STORAGES: StorageState[] = [
  {
    id: "local",
    type: "dir",
    content: ["iso", "vztmpl", "backup", "snippets", "import"],
    shared: false,
    total: 100 * GiB,
    path: "/var/lib/vz",
    enabled: true,
  },
  { id: "local-lvm", type: "lvmthin", content: ["images", "rootdir"], shared: false, total: 500 * GiB, enabled: true },
  {
    id: "shared",
    type: "nfs",
    content: ["images", "rootdir", "iso", "backup"],
    shared: true,
    total: 2048 * GiB,
    path: "/mnt/pve/shared",
    enabled: true,
  },
];

const DEFAULT_CONTENT = [
  { volid: "local:iso/debian-13-netinst.iso", size: 754_974_720 },
  { volid: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst", size: 129_593_344 },
];

/** Thrown for an invalid --config file; says which field is wrong. */
export class ClusterConfigError extends SimUserError {
  constructor(readonly detail: string) {
    super(`invalid simulator cluster config: ${detail}`);
    this.name = "ClusterConfigError";
  }
  userMessage(): string {
    return `The simulator's cluster config is invalid: ${this.detail}. Fix the --config file and start again.`;
  }
}

export function normaliseClusterConfig(raw: unknown, nodeCount?: number): NormalisedConfig {
  const parsed = clusterConfigSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ClusterConfigError(`${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}`);
  }
  const cfg = parsed.data;
  const bridges = cfg.bridges ?? DEFAULT_BRIDGES;
  // Nodes named (or counted) in the config win over the --nodes count.
  let nodes: NormalisedNode[];
  if (Array.isArray(cfg.nodes)) {
    nodes = cfg.nodes.map((n) =>
      typeof n === "string"
        ? { name: n, cpus: 16, memory: 64 * GiB, bridges }
        : { name: n.name, cpus: n.cpus ?? 16, memory: (n.memory ?? 64) * GiB, bridges: n.bridges ?? bridges },
    );
  } else {
    const count = typeof cfg.nodes === "number" ? cfg.nodes : (nodeCount ?? 3);
    nodes = Array.from({ length: count }, (_, i) => ({ name: `pve${i + 1}`, cpus: 16, memory: 64 * GiB, bridges }));
  }
  const seen = new Set<string>();
  for (const node of nodes) {
    if (!/^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$/.test(node.name)) {
      throw new ClusterConfigError(`nodes: '${node.name}' is not a valid node name`);
    }
    if (seen.has(node.name)) throw new ClusterConfigError(`nodes: '${node.name}' is listed twice`);
    seen.add(node.name);
  }
  const storages: StorageState[] = cfg.storages
    ? cfg.storages.map((s) => ({
        id: s.id,
        type: s.type as StorageType,
        content: typeof s.content === "string" ? s.content.split(",").map((c) => c.trim()) : s.content,
        shared: s.shared ?? ["nfs", "rbd", "cifs"].includes(s.type),
        ...(s.nodes ? { nodes: s.nodes } : {}),
        total: (s.size ?? 500) * GiB,
        ...(s.path ? { path: s.path } : {}),
        ...(s["prune-backups"] ? { pruneBackups: s["prune-backups"] } : {}),
        enabled: true,
      }))
    : DEFAULT_STORAGES.map((s) => ({ ...s, content: [...s.content] }));
  const content = cfg.content
    ? cfg.content.map((c) =>
        typeof c === "string" ? { volid: c, size: 100 * 1024 * 1024 } : { volid: c.volid, size: c.size ?? 100 * 1024 * 1024 },
      )
    : DEFAULT_CONTENT;
  for (const c of content) {
    const sid = c.volid.split(":")[0];
    if (!storages.some((s) => s.id === sid)) throw new ClusterConfigError(`content: storage of '${c.volid}' is not defined`);
  }
  return {
    name: cfg.name ?? "simcluster",
    nodes,
    storages,
    content,
    macPrefix: cfg.macPrefix ?? "BC:24:11",
    agentDelay: cfg.agentDelay ?? 15,
  };
}
