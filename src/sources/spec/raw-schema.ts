// The shape of a spec file as a user writes it (before normalization), as a zod schema.
// It is both the validator (strict: unknown keys are errors) and the source of the JSON Schema
// that editors use for completion. Enums and ranges come from PVE's schema facts.
import { z } from "zod";
import { defaultKeyOf } from "../../pve/index.js";
import { type QemuOption, type SpecField, type SpecFieldName, type SpecKind, specFieldRows } from "../../resources/qemu/options-table.js";
import type { ParamSchema } from "../../schema/types.js";
import { vmCloneSchema } from "./clone.js";
import { snapshotsSchema } from "./snapshots.js";
import { ctSchema } from "./ct-schema.js";
import { objectSectionSchemas } from "../../resources/objects.js";
import { BUSES, driveSubSchema, paramSubSchema, qemuCreateEndpoint, requireParam, slotNames, subKeyEnum } from "./pve-facts.js";

import {
  BRIDGE_ID,
  CONNECTION_NAME,
  DNS_NAME,
  FINGERPRINT,
  IP_ADDRESS,
  IPV4,
  IPV4_CIDR,
  MAC,
  NODE_NAME,
  POOL_ID_OR_NONE,
  POOL_ID_RULE,
  STORAGE_ID,
  TOKEN_NAME,
  USER_ID,
  envName,
  fromPveParam,
  memoryValue,
  pattern,
  sizeString,
  slotsObject,
  tagsSchema,
  volumeId,
} from "./zod-values.js";

export { SPEC_PATTERNS } from "./zod-values.js";

// ---- drives ----

/** Drive keys the structured disk fields own (storage, size, format, importFrom) or that make no sense here. */
const OWNED_DRIVE_KEYS = new Set(["file", "volume", "size", "format", "import-from", "media"]);

/** Drive option names accepted on any bus (bus-specific ones are checked after parsing). */
export function driveOptionNames(): string[] {
  const names = new Set<string>();
  for (const bus of BUSES) {
    for (const [key, schema] of Object.entries(driveSubSchema(bus))) {
      // Aliases (old names of other keys) have no type of their own: accept the real name only.
      if (OWNED_DRIVE_KEYS.has(key) || schema.alias !== undefined) continue;
      names.add(key);
    }
  }
  return [...names].sort();
}

function driveOptionsShape(): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const name of driveOptionNames()) {
    const schema = BUSES.map((bus) => driveSubSchema(bus)[name]).find((s) => s !== undefined) as ParamSchema;
    shape[name] = fromPveParam(schema).optional();
  }
  // `discard: true` reads better in YAML than PVE's `on`; both are accepted.
  shape.discard = z.union([z.boolean(), z.enum(["on", "ignore"])]).optional();
  return shape;
}

function diskSchema() {
  return z
    .strictObject({
      storage: pattern(STORAGE_ID, "a storage id, e.g. local-lvm").describe("Storage id the volume lives on, e.g. local-lvm."),
      size: sizeString("size").optional().describe("Size with a unit (K, M, G, T; powers of 1024), e.g. 32G."),
      format: z.enum(subKeyEnum("scsi0", "format")).optional().describe("Image format (raw, qcow2 ...); storage default when absent."),
      importFrom: volumeId("a volume id, e.g. local:import/debian-13.qcow2")
        .optional()
        .describe("Create the disk from this image (PVE import-from), e.g. local:import/debian-13.qcow2."),
      ...driveOptionsShape(),
    })
    .meta({ id: "Disk", description: "A disk. Options use PVE's drive option names (cache, discard, iothread, ssd, backup ...)." });
}

function cdromSchema() {
  return z
    .strictObject({
      iso: volumeId("an ISO volume id, e.g. local:iso/debian-13-netinst.iso")
        .optional()
        .describe("ISO volume, e.g. local:iso/debian-13-netinst.iso; leave out for an empty drive."),
    })
    .meta({ id: "Cdrom", description: "A CD-ROM drive." });
}

export function diskSlots(): string[] {
  return BUSES.flatMap((bus) => slotNames(bus));
}

/** Slots a CD-ROM (or the cloud-init drive) can use. VirtIO block devices cannot be CD-ROMs. */
export function cdromSlots(): string[] {
  return ["ide", "sata", "scsi"].flatMap((bus) => slotNames(bus));
}

export function nicSlots(): string[] {
  return slotNames("net");
}

// ---- NICs ----

function nicSchema() {
  const net = paramSubSchema("net0");
  const range = (key: string) => fromPveParam(net[key] ?? {}).optional();
  return z
    .strictObject({
      model: z.enum(subKeyEnum("net0", "model")).optional().describe("NIC model; default virtio."),
      bridge: pattern(BRIDGE_ID, "a bridge name, e.g. vmbr0").describe("Bridge, e.g. vmbr0."),
      tag: range("tag").describe("VLAN tag (1-4094)."),
      mtu: range("mtu").describe("MTU; 1 means the bridge's MTU (virtio only)."),
      queues: range("queues").describe("Multiqueue count."),
      firewall: z.boolean().optional(),
      rate: range("rate").describe("Rate limit in MB/s (megabytes, not bits)."),
      linkDown: z.boolean().optional().describe("Disconnect the NIC."),
      trunks: pattern(/^\d+(-\d+)?(;\d+(-\d+)?)*$/, "VLAN ids separated by ;, e.g. 10;20-30").optional(),
      macaddr: pattern(MAC, "a MAC address like BC:24:11:2A:3B:4C")
        .optional()
        .describe("MAC address; leave out to keep the current one (PVE generates one on create)."),
    })
    .meta({ id: "Nic", description: "A network interface." });
}

// ---- the options table's fields (resources/qemu/options-table.ts) ----

/** The lower bound PVE sets for a MiB value: the key's, or its property string's default key's. */
function minimumMiB(row: QemuOption): number {
  const param = requireParam(row.key);
  const sub = typeof param.format === "object" ? param.format : undefined;
  const defaultKey = sub ? defaultKeyOf(sub) : undefined;
  return (defaultKey !== undefined ? sub?.[defaultKey]?.minimum : param.minimum) ?? 0;
}

/** A value of the default key of PVE's property string, matched against that key's pattern. */
function defaultKeySchema(row: QemuOption, spec: SpecField): z.ZodType {
  const sub = paramSubSchema(row.key);
  const name = defaultKeyOf(sub);
  const keyPattern = name !== undefined ? sub[name]?.pattern : undefined;
  return keyPattern ? pattern(new RegExp(`^(${keyPattern})$`), spec.example ?? `a value of PVE's ${row.key}`) : z.string();
}

/** How a spec writes each kind of value (see SpecKind). */
const KIND_SCHEMAS: Record<Exclude<SpecKind, "own">, (row: QemuOption, spec: SpecField) => z.ZodType> = {
  pve: (row) => fromPveParam(requireParam(row.key)),
  "pve-string": () => z.string().min(1),
  MiB: (row) => memoryValue(minimumMiB(row)),
  "default-key": defaultKeySchema,
  "boot-order": () => z.array(z.string()),
  agent: () => agentSchema(),
  "ssh-keys": () => z.array(z.string().min(1)),
  addresses: () => z.array(pattern(IP_ADDRESS, "an IPv4 or IPv6 address")),
  words: () => z.array(z.string().min(1)),
};

/**
 * The fields the options table gives the VM (`section` undefined) or a section, in the table's
 * order, each optional; `placed` holds the object's other fields, each put right after the
 * table field `after` names (so the JSON Schema lists them where a person expects them).
 */
function optionFields<Section extends SpecField["section"], Placed extends Record<string, z.ZodType>>(
  section: Section,
  placed: Placed,
  after: Record<keyof Placed, string>,
): Placed & Record<SpecFieldName<Section>, z.ZodOptional<z.ZodType>> {
  const shape: Record<string, z.ZodType> = {};
  for (const { row, spec } of specFieldRows(section)) {
    if (spec.kind !== "own") {
      const optional = KIND_SCHEMAS[spec.kind](row, spec).optional();
      shape[spec.field] = spec.describe !== undefined ? optional.describe(spec.describe) : optional;
    }
    for (const [name, schema] of Object.entries(placed)) if (after[name] === spec.field) shape[name] = schema;
  }
  // The table's fields are typed loosely (normalize reads them by kind); the placed ones keep their types.
  return shape as Placed & Record<SpecFieldName<Section>, z.ZodOptional<z.ZodType>>;
}

// ---- the rest of a VM ----

function agentSchema() {
  return z.union([
    z.boolean(),
    z.strictObject({
      enabled: z.boolean(),
      fstrimClonedDisks: z.boolean().optional(),
      freezeFs: z.boolean().optional(),
      type: z.enum(subKeyEnum("agent", "type")).optional(),
    }),
  ]);
}

function cloudInitSchema() {
  const ipconfig = z.strictObject({
    ip: z
      .string()
      .refine((v) => v === "dhcp" || IPV4_CIDR.test(v), {
        error: (i) => `\`${String(i.input)}\` is not "dhcp" or an IPv4 address in CIDR form (10.0.0.5/24)`,
      })
      .optional(),
    gw: pattern(IPV4, "an IPv4 address").optional(),
    ip6: z
      .string()
      .refine((v) => v === "dhcp" || v === "auto" || /^[0-9a-f:]+\/\d{1,3}$/i.test(v), {
        error: (i) => `\`${String(i.input)}\` is not "dhcp", "auto" or an IPv6 address in CIDR form`,
      })
      .optional(),
    gw6: pattern(/^[0-9a-fA-F:]+$/, "an IPv6 address").optional(),
  });
  const ipconfigSlots: Record<string, z.ZodOptional<typeof ipconfig>> = {};
  const optionalIpconfig = ipconfig.optional();
  for (const name of slotNames("ipconfig")) ipconfigSlots[name] = optionalIpconfig;
  return z
    .strictObject({
      storage: pattern(STORAGE_ID, "a storage id, e.g. local-lvm").describe("Storage for the cloud-init drive."),
      slot: z
        .enum(cdromSlots() as [string, ...string[]])
        .optional()
        .describe("Slot of the cloud-init drive; default ide2."),
      ...optionFields(
        "cloudInit",
        { ipconfig: z.strictObject(ipconfigSlots).optional().describe("ipconfigN configures netN.") },
        { ipconfig: "sshKeys" },
      ),
    })
    .describe("Cloud-init basics.");
}

function efidiskSchema() {
  return z.strictObject({
    storage: pattern(STORAGE_ID, "a storage id, e.g. local-lvm"),
    format: z.enum(subKeyEnum("efidisk0", "format")).optional(),
    efitype: z.enum(subKeyEnum("efidisk0", "efitype")).optional(),
    preEnrolledKeys: z.boolean().optional(),
  });
}

function tpmSchema() {
  return z.strictObject({
    storage: pattern(STORAGE_ID, "a storage id, e.g. local-lvm"),
    version: z.enum(subKeyEnum("tpmstate0", "version")).optional(),
  });
}

function vmSchema() {
  const create = qemuCreateEndpoint();
  const vmid = create.params.vmid ?? {};
  return z
    .strictObject({
      vmid: z
        .number()
        .int()
        .min(vmid.minimum ?? 100)
        .max(vmid.maximum ?? 999999999)
        .optional()
        .describe("The VM's identity (recommended). Without it, the name identifies the VM."),
      name: pattern(DNS_NAME, "letters, digits and '-', dots only between labels (a DNS name)").describe("VM name (a label; see vmid)."),
      node: pattern(NODE_NAME, "a node name, e.g. pve1").describe("Node the VM is created on."),
      connection: z.string().optional().describe("Name of a connection under `connections`."),
      pool: pattern(POOL_ID_OR_NONE, `${POOL_ID_RULE} (or "" for no pool)`)
        .optional()
        .describe('Resource pool the VM belongs to; "" means in no pool; leave out to not manage membership.'),
      adopt: z
        .boolean()
        .optional()
        .describe("Manage an existing VM pvectl did not create (no `pvectl` tag); the plan adds the tag. Without it such a VM is refused."),
      clone: vmCloneSchema().optional(),
      snapshots: snapshotsSchema().optional(),
      state: z.enum(["present", "absent"]).optional().describe("absent destroys the VM (a data-loss step)."),
      power: z.enum(["running", "stopped"]).optional().describe("Desired power state; leave out to not manage it."),
      template: z
        .boolean()
        .optional()
        .describe("true: the VM is converted to a template once (cannot be undone; never started). Leave out to not manage it."),
      ...optionFields(
        undefined,
        {
          efidisk: efidiskSchema().optional().describe("EFI vars disk (needs bios: ovmf)."),
          tpm: tpmSchema().optional().describe("TPM state disk."),
          tags: tagsSchema().optional(),
        },
        { efidisk: "scsihw", tpm: "scsihw", tags: "onboot" },
      ),
      disks: slotsObject(diskSlots(), diskSchema(), "Disks by slot: scsi0-30, virtio0-15, sata0-5, ide0-3.").optional(),
      detach: z
        .array(z.enum(diskSlots() as [string, ...string[]]))
        .optional()
        .describe("Disk slots removed from `disks` whose volumes are kept (detached as unusedN) instead of destroyed."),
      cdroms: slotsObject(cdromSlots(), cdromSchema(), "CD-ROM drives by slot (ide, sata, scsi).").optional(),
      nics: slotsObject(nicSlots(), nicSchema(), "NICs by slot: net0-31.").optional(),
      cloudInit: cloudInitSchema().optional(),
      extraConfig: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
        .optional()
        .describe("Any other PVE VM config key (the `qm set` escape hatch), validated against PVE's schema, e.g. rng0."),
    })
    .meta({ id: "Vm", description: "A QEMU virtual machine." });
}

function connectionSchema() {
  return z
    .strictObject({
      host: z.string().min(1).describe("Host name or address of any cluster node."),
      port: z.number().int().min(1).max(65535).optional().describe("Default 8006."),
      user: pattern(USER_ID, "user@realm, e.g. automation@pve").optional(),
      tokenId: pattern(TOKEN_NAME, "the token name only (the part after `!`), e.g. pvectl").optional(),
      passwordEnv: envName().optional().describe("Environment variable holding the password."),
      passwordFile: z.string().min(1).optional().describe("File holding the password."),
      tokenSecretEnv: envName().optional().describe("Environment variable holding the token secret."),
      tokenSecretFile: z.string().min(1).optional().describe("File holding the token secret."),
      fingerprint: pattern(FINGERPRINT, "a SHA-256 fingerprint, 32 hex byte pairs separated by ':'")
        .optional()
        .describe("Pin the server certificate by its SHA-256 fingerprint."),
      caPath: z.string().min(1).optional().describe("PEM file of the CA that signed the cluster certificate."),
      validateCerts: z.boolean().optional().describe("Default true. false sends credentials to whoever answers."),
    })
    .meta({ id: "Connection", description: "A cluster connection. Secrets are referenced (env var or file), never written inline." });
}

let cached: ReturnType<typeof buildSpecFileSchema> | undefined;

function buildSpecFileSchema() {
  const connection = connectionSchema();
  const vm = vmSchema();
  const ct = ctSchema();
  // Each registered object family's section (backupJobs, access ...), in the registry's order.
  const objectSections: Record<string, z.ZodType> = Object.fromEntries(objectSectionSchemas());
  const file = z
    .strictObject({
      version: z.literal(1).optional().describe("Spec format version (1)."),
      connections: z
        .record(pattern(CONNECTION_NAME, "letters, digits, '.', '-' and '_'"), connection)
        .optional()
        .describe("Named cluster connections."),
      vms: z.array(vm).optional().describe("QEMU virtual machines."),
      containers: z.array(ct).optional().describe("LXC containers."),
      ...objectSections,
    })
    .describe("A pvectl spec file: the desired state of guests on Proxmox VE clusters.");
  return { file, vm, ct, connection };
}

/** The zod schemas of a spec file, one VM and one connection (built once from the PVE facts). */
export function specSchemas(): ReturnType<typeof buildSpecFileSchema> {
  cached ??= buildSpecFileSchema();
  return cached;
}

export type RawSpecFile = z.output<ReturnType<typeof buildSpecFileSchema>["file"]>;
export type RawVm = z.output<ReturnType<typeof buildSpecFileSchema>["vm"]>;
export type RawAgent = z.output<ReturnType<typeof agentSchema>>;
export type RawConnection = z.output<ReturnType<typeof buildSpecFileSchema>["connection"]>;
