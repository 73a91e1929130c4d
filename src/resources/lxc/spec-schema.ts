// The shape of one `containers:` entry as a user writes it, as a zod schema: the validator
// (strict: unknown keys are errors) and the JSON Schema editors complete from. Plain fields
// come from the container options table (resources/lxc/options-table.ts), in its order; mount
// points and NICs take their sub-keys from PVE's container schema.
import { ctCloneSchema } from "../spec-section/clone.js";
import { snapshotsSchema } from "../spec-section/snapshots.js";
import { z } from "zod";
import { LXC_FEATURES, type LxcOption, type LxcSpecKind, lxcSpecFieldRows } from "./options-table.js";
import { lxcCreateEndpoint, lxcSlotNames, lxcSubSchema, mountOptionNames, requireLxcParam } from "./spec-facts.js";
import {
  BRIDGE_ID,
  DNS_NAME,
  envName,
  fromPveParam,
  IP_ADDRESS,
  MAC,
  memoryValue,
  NODE_NAME,
  pattern,
  POOL_ID_OR_NONE,
  POOL_ID_RULE,
  sizeString,
  slotsObject,
  STORAGE_ID,
  tagsSchema,
  volumeId,
} from "../spec-section/zod-values.js";

const ABSOLUTE_PATH = /^\/.*$/;

/** `features:` — PVE's flags as booleans; `mount` as the list of file system types allowed. */
function featuresSchema() {
  const sub = lxcSubSchema("features");
  const shape: Record<string, z.ZodType> = {};
  for (const name of LXC_FEATURES) {
    shape[name] =
      sub[name]?.type === "boolean"
        ? z.boolean().optional()
        : z
            .array(pattern(/^[a-zA-Z0-9_]+$/, "a file system type, e.g. nfs"))
            .optional()
            .describe("File system types the container may mount, e.g. [nfs, cifs].");
  }
  return z.strictObject(shape);
}

/** How a spec writes each kind of container value (LxcSpecKind). */
const KIND_SCHEMAS: Record<Exclude<LxcSpecKind, "own">, (row: LxcOption) => z.ZodType> = {
  pve: (row) => fromPveParam(requireLxcParam(row.key)),
  MiB: (row) => memoryValue(requireLxcParam(row.key).minimum ?? 0),
  features: () => featuresSchema(),
  addresses: () => z.array(pattern(IP_ADDRESS, "an IPv4 or IPv6 address")),
  words: () => z.array(pattern(DNS_NAME, "a DNS name, e.g. example.com")),
};

/** The table's fields, in its order; `own` ones are given by the caller (those it leaves out are placed elsewhere). */
function tableFields<Own extends Record<string, z.ZodType>>(own: Own): Own & Record<string, z.ZodOptional<z.ZodType>> {
  const shape: Record<string, z.ZodType> = {};
  for (const { row, spec } of lxcSpecFieldRows()) {
    if (spec.kind === "own") {
      const placed = own[spec.field];
      if (placed) shape[spec.field] = placed;
      continue;
    }
    const optional = KIND_SCHEMAS[spec.kind](row).optional();
    shape[spec.field] = spec.describe !== undefined ? optional.describe(spec.describe) : optional;
  }
  // The table's fields are typed loosely (normalize reads them by kind); the given ones keep their types.
  return shape as Own & Record<string, z.ZodOptional<z.ZodType>>;
}

/** Options of a rootfs or mount point, from PVE's sub-schema (acl, backup, quota, ro ...). */
function mountOptions(slot: "rootfs" | "mp0"): Record<string, z.ZodType> {
  const sub = lxcSubSchema(slot);
  const shape: Record<string, z.ZodType> = {};
  for (const name of mountOptionNames(slot)) shape[name] = fromPveParam(sub[name] ?? {}).optional();
  return shape;
}

function rootfsSchema() {
  return z
    .strictObject({
      storage: pattern(STORAGE_ID, "a storage id, e.g. local-lvm").describe(
        "Storage the root file system is allocated on, e.g. local-lvm.",
      ),
      size: sizeString("size").describe("Size with a unit (K, M, G, T; powers of 1024), e.g. 8G."),
      ...mountOptions("rootfs"),
    })
    .meta({ id: "CtRootfs", description: "The container's root file system." });
}

function mountSchema() {
  return z
    .strictObject({
      storage: pattern(STORAGE_ID, "a storage id, e.g. local-lvm")
        .optional()
        .describe("Storage a new volume is allocated on (with `size`)."),
      size: sizeString("size").optional().describe("Size with a unit, e.g. 32G."),
      volume: pattern(ABSOLUTE_PATH, "an absolute host path, e.g. /srv/data (a bind mount); for a new volume give `storage` and `size`")
        .optional()
        .describe("A bind mount: the host path (only root@pam may write one)."),
      mountpoint: pattern(ABSOLUTE_PATH, "an absolute path inside the container, e.g. /data").describe(
        "Where it appears in the container, e.g. /data.",
      ),
      ...mountOptions("mp0"),
    })
    .meta({ id: "CtMount", description: "A mount point: a new volume (storage + size) or a bind mount (volume: /host/path)." });
}

function nicSchema() {
  const sub = lxcSubSchema("net0");
  const shape: Record<string, z.ZodType> = {};
  for (const [name, schema] of Object.entries(sub).sort(([a], [b]) => a.localeCompare(b))) shape[name] = fromPveParam(schema).optional();
  shape.name = pattern(BRIDGE_ID, "an interface name, e.g. eth0")
    .optional()
    .describe("Interface name in the container; default eth<N> for net<N>.");
  shape.bridge = pattern(BRIDGE_ID, "a bridge name, e.g. vmbr0").optional().describe("Bridge, e.g. vmbr0.");
  shape.ip = z.string().optional().describe("dhcp, manual or an IPv4 address in CIDR form (10.0.0.5/24).");
  shape.ip6 = z.string().optional().describe("dhcp, auto, manual or an IPv6 address in CIDR form.");
  shape.hwaddr = pattern(MAC, "a MAC address like BC:24:11:2A:3B:4C")
    .optional()
    .describe("MAC address; leave out to keep the current one.");
  shape.rate = (shape.rate ?? z.number().optional()).describe("Rate limit in MB/s (megabytes, not bits).");
  return z.strictObject(shape).meta({ id: "CtNic", description: "A container network interface." });
}

export function ctSchema() {
  const vmid = lxcCreateEndpoint().params.vmid ?? {};
  return z
    .strictObject({
      vmid: z
        .number()
        .int()
        .min(vmid.minimum ?? 100)
        .max(vmid.maximum ?? 999999999)
        .optional()
        .describe("The container's identity (recommended). Without it, the hostname identifies it."),
      hostname: pattern(DNS_NAME, "letters, digits and '-', dots only between labels (a DNS name)")
        .optional()
        .describe("The container's hostname."),
      name: pattern(DNS_NAME, "letters, digits and '-', dots only between labels (a DNS name)").optional().describe("Alias of `hostname`."),
      node: pattern(NODE_NAME, "a node name, e.g. pve1").describe("Node the container is created on."),
      connection: z.string().optional().describe("Name of a connection under `connections`."),
      pool: pattern(POOL_ID_OR_NONE, `${POOL_ID_RULE} (or "" for no pool)`)
        .optional()
        .describe('Resource pool; "" means in no pool; leave out to not manage membership.'),
      adopt: z
        .boolean()
        .optional()
        .describe("Manage an existing container pvectl did not create (no `pvectl` tag); the plan adds the tag."),
      clone: ctCloneSchema().optional(),
      snapshots: snapshotsSchema().optional(),
      state: z.enum(["present", "absent"]).optional().describe("absent destroys the container (a data-loss step)."),
      power: z.enum(["running", "stopped"]).optional().describe("Desired power state; leave out to not manage it."),
      template: z
        .boolean()
        .optional()
        .describe("true: the container is converted to a template once (cannot be undone; never started). Leave out to not manage it."),
      ostemplate: volumeId("a template volume, e.g. local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst")
        .optional()
        .describe("The template a new container is created from: storage:vztmpl/file."),
      ...tableFields({ tags: tagsSchema().optional() }),
      sshPublicKeys: z.array(z.string().min(1)).optional().describe("Public SSH keys for root (create only), one per entry."),
      passwordEnv: envName().optional().describe("Environment variable holding root's password (create only)."),
      passwordFile: z.string().min(1).optional().describe("File holding root's password (create only; first line)."),
      rootfs: rootfsSchema().optional(),
      mounts: slotsObject(lxcSlotNames("mp"), mountSchema(), "Mount points by slot: mp0-mp255.").optional(),
      detach: z
        .array(z.enum(lxcSlotNames("mp") as [string, ...string[]]))
        .optional()
        .describe("Mount point slots removed from `mounts` whose volumes are kept (detached as unusedN)."),
      nics: slotsObject(lxcSlotNames("net"), nicSchema(), "NICs by slot: net0-net31.").optional(),
      extraConfig: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
        .optional()
        .describe("Any other PVE container config key, validated against PVE's schema, e.g. tty."),
    })
    .meta({ id: "Container", description: "An LXC container." });
}

export type RawCt = z.output<ReturnType<typeof ctSchema>>;
