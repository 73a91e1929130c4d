// The NetBox sync configuration (YAML): how to reach NetBox, which records to select, and
// how a NetBox virtual machine becomes a pvectl VM or container spec (clusters -> connections
// and nodes, platforms -> ostype and ISO/image, or a container's template; units, custom fields, write-back and decommission
// policy). Every key is documented in docs/netbox.md. Problems are reported all at once with
// file:line:column, like spec files.
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { formatIssue, type SpecIssue, sortIssues } from "../spec/errors.js";
import { specIssuesFromZod } from "../spec/issues.js";
import type { ConnectionSpec } from "../spec/model.js";
import { parseYaml, type YamlDocument } from "../spec/yaml-source.js";
import { parseDuration } from "../../util/duration.js";
import { checkCtTemplate, type CtTemplate } from "./ct-template.js";
import { checkPlatformTemplate, type VmTemplate } from "./platform-template.js";
import { PvectlError, type PvectlErrorJson } from "../../util/errors.js";

const name = z.string().min(1);
// PVE's pve-storage-id: at least two characters, ending in a letter or digit.
const storageId = z
  .string()
  .regex(
    /^[a-z][a-z0-9\-_.]*[a-z0-9]$/i,
    "not a PVE storage id (a letter, then letters, digits, '-', '_' or '.', ending in a letter or digit)",
  );
const nodeName = z.string().regex(/^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$/, "not a PVE node name");
const vmid = z.number().int().min(100).max(999_999_999);
const volumeId = z.string().regex(/^[^:\s]+:.+$/, "expected a volume id like local:iso/debian-13-netinst.iso");
const nicModel = z.enum(["virtio", "e1000", "e1000e", "rtl8139", "vmxnet3"]);
const diskBus = z.enum(["scsi", "virtio", "sata"]);

const connectionSchema = z.strictObject({
  host: name,
  port: z.number().int().min(1).max(65535).optional(),
  user: z.string().optional(),
  tokenId: z.string().optional(),
  tokenSecretEnv: z.string().optional(),
  tokenSecretFile: z.string().optional(),
  passwordEnv: z.string().optional(),
  passwordFile: z.string().optional(),
  fingerprint: z.string().optional(),
  caPath: z.string().optional(),
  validateCerts: z.boolean().optional(),
});

const clusterSchema = z.strictObject({
  /** Name under `connections:`; omitted: the PROXMOX_* environment variables. */
  connection: z.string().optional(),
  node: nodeName.optional(),
  storage: storageId.optional(),
  bridge: z.string().optional(),
  /** Guests built for this cluster's records without a vmid get one from this range (inclusive). */
  vmidRange: z.tuple([vmid, vmid]).optional(),
});

/**
 * A platform whose records become LXC containers. NetBox's vcpus, memory, first virtual disk
 * and interfaces fill in cores, memory, rootfs and NICs as for VMs; these say the rest.
 */
const containerSchema = z.strictObject({
  /** The template, `storage:vztmpl/file`. */
  ostemplate: z
    .string()
    .regex(/^[^:\s]+:vztmpl\/[^/]+$/, "expected a template volume like local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"),
  /** rootfs storage; default: the cluster's (or the record's custom field). */
  storage: storageId.optional(),
  /** rootfs size (`8G`) when the record has no virtual disk and no disk size. */
  size: z
    .string()
    .regex(/^\d+(\.\d+)?[KMGT]$/, "expected a size with a unit, e.g. 8G")
    .optional(),
  /** NIC bridge; default: the cluster's. */
  bridge: z.string().optional(),
  unprivileged: z.boolean().optional(),
  features: z
    .strictObject({
      nesting: z.boolean().optional(),
      keyctl: z.boolean().optional(),
      fuse: z.boolean().optional(),
      mknod: z.boolean().optional(),
    })
    .optional(),
  ostype: z
    .enum(["debian", "devuan", "ubuntu", "centos", "fedora", "opensuse", "archlinux", "alpine", "gentoo", "nixos", "unmanaged"])
    .optional(),
  swap: z.number().int().min(0).optional(),
  /** The first NIC's address when the record has no primary IPv4: dhcp (default) or manual. */
  ip: z.enum(["dhcp", "manual"]).optional(),
  /** IPv4 gateway of the first NIC, used with a static address (the record's primary IPv4). */
  gw: z
    .string()
    .regex(/^(\d{1,3}\.){3}\d{1,3}$/, "expected an IPv4 address")
    .optional(),
  nameserver: z.array(z.string()).optional(),
  searchdomain: z.array(z.string()).optional(),
});

/**
 * A platform whose VMs are clones of a template (or another VM). `storage` is where a full
 * clone's disks go; a linked clone's disks stay on the template's storage (PVE refuses a target).
 */
const cloneSchema = z.strictObject({
  /** The source: a vmid, or the name of a template that carries the pvectl tag. */
  from: z.union([
    z.number().int().min(100).max(999_999_999),
    z.string().regex(/^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/, "expected a vmid or a guest name"),
  ]),
  /** Full copy (true) or linked clone (false); omitted: PVE's default (linked from a template). */
  full: z.boolean().optional(),
  /** Full clones: the storage every copied disk goes to. */
  storage: storageId.optional(),
});

/** A VM platform's cloud-init: net0's address from the record's primary IPv4 (ipconfig0). */
const cloudInitSchema = z.strictObject({
  /** Slot of the cloud-init drive (default ide2, where PVE's docs put it on a template). */
  slot: z
    .string()
    .regex(/^(ide[0-3]|sata[0-5]|scsi([0-9]|[12][0-9]|30))$/, "expected a drive slot like ide2, sata0 or scsi1")
    .optional(),
  /** Storage of the drive; default: a clone keeps its template's drive, other VMs the record's storage. */
  storage: storageId.optional(),
  /** IPv4 gateway, used with a static address (default: the gateway of the address's prefix). */
  gw: z
    .string()
    .regex(/^(\d{1,3}\.){3}\d{1,3}$/, "expected an IPv4 address")
    .optional(),
  /** DNS servers and search domains the guest is given (cloud-init nameserver / searchdomain). */
  nameservers: z.array(z.string().min(1)).min(1).optional(),
  searchDomains: z.array(z.string().min(1)).min(1).optional(),
});

const platformSchema = z.strictObject({
  /** A VM's ostype; required unless the platform maps to a container. */
  ostype: z.enum(["other", "wxp", "w2k", "w2k3", "w2k8", "wvista", "win7", "win8", "win10", "win11", "l24", "l26", "solaris"]).optional(),
  /** Records of this platform become LXC containers (the VM keys do not apply). */
  container: containerSchema.optional(),
  /** ISO attached as a CD-ROM on ide2. */
  iso: volumeId.optional(),
  /** Disk image the first disk is created from (PVE import-from), e.g. a cloud image. */
  image: volumeId.optional(),
  /** Records of this platform are built as clones of a template (first disk: the template's, grown). */
  clone: cloneSchema.optional(),
  /** Records of this platform get net0's address by cloud-init (ipconfig0). */
  cloudInit: cloudInitSchema.optional(),
  bios: z.enum(["seabios", "ovmf"]).optional(),
  machine: z.string().optional(),
  cpu: z.string().optional(),
  agent: z.boolean().optional(),
  scsihw: z.string().optional(),
  /** A guest template in the spec language (a spec file's `vms:` entry): what else a VM of this platform gets (platform-template.ts). */
  vm: z.record(z.string(), z.unknown()).optional(),
  /** Bus of the record's disks and model of its NICs (default: `defaults.diskBus` / `defaults.nicModel`). */
  diskBus: diskBus.optional(),
  nicModel: nicModel.optional(),
  /** Drive options (spec disk keys: discard, ssd, iothread, cache, format ...) for every disk of the record. */
  diskOptions: z.record(z.string(), z.unknown()).optional(),
  /** With `container:`: a guest template in the spec language (a spec file's `containers:` entry; ct-template.ts). */
  ct: z.record(z.string(), z.unknown()).optional(),
});

const unit = z.enum(["MB", "MiB", "GB", "GiB"]);

const configSchema = z.strictObject({
  netbox: z
    .strictObject({
      url: z.string().url().optional(),
      tokenEnv: z.string().optional(),
      tokenFile: z.string().optional(),
      caFile: z.string().optional(),
      insecure: z.boolean().optional(),
    })
    .optional(),
  select: z
    .strictObject({
      /** One status or a list: `planned` builds; `staged`/`active` opt in to day-2 convergence. */
      status: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
      clusters: z.array(name).optional(),
      sites: z.array(name).optional(),
      tags: z.array(name).optional(),
    })
    .optional(),
  connections: z.record(z.string(), connectionSchema).optional(),
  clusters: z.record(z.string(), clusterSchema),
  defaults: z
    .strictObject({
      node: nodeName.optional(),
      storage: storageId.optional(),
      bridge: z.string().optional(),
      nicModel: nicModel.optional(),
      diskBus: diskBus.optional(),
      scsihw: z.string().optional(),
      memoryUnit: unit.optional(),
      diskUnit: unit.optional(),
      cores: z.number().int().min(1).optional(),
      memory: z.number().int().min(16).optional(),
      diskSize: z.number().int().min(1).optional(),
      platform: z.string().optional(),
      power: z.enum(["running", "stopped"]).optional(),
    })
    .optional(),
  platforms: z.record(z.string(), platformSchema).optional(),
  customFields: z
    .strictObject({
      vmid: z.string().optional(),
      node: z.string().optional(),
      storage: z.string().optional(),
      /** On a prefix: the gateway of its addresses (else its IP address tagged `gateway`; else none, and pvectl refuses to guess). */
      gateway: z.string().optional(),
    })
    .optional(),
  tags: z
    .strictObject({
      passThrough: z.boolean().optional(),
      add: z.array(z.string()).optional(),
    })
    .optional(),
  writeBack: z
    .strictObject({
      macs: z.boolean().optional(),
      /**
       * Addresses for interfaces without one: from the prefix of the interface's VLAN; the
       * fallback prefix serves interfaces without a VLAN. `prefix` (one prefix for every
       * interface) is refused with a pointer to the new keys.
       */
      primaryIp4: z
        .strictObject({ fallbackPrefix: z.string().optional(), prefix: z.string().optional(), status: z.string().optional() })
        .optional(),
      /** `dns_name` on the record's primary IP addresses: `<name>.<zone>`. */
      dns: z
        .strictObject({
          zone: z
            .string()
            .regex(/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i, "expected a DNS zone like lab.example.com"),
        })
        .optional(),
      onSuccess: z.string().optional(),
      onFailure: z.enum(["planned", "failed"]).optional(),
      journal: z.boolean().optional(),
    })
    .optional(),
  /** Let sync take over a guest pvectl did not create when a record's vmid names it (default false). */
  adopt: z.boolean().optional(),
  /** How long a vmid freed by decommission is not handed out again (a duration: 30m, 24h, 7d; 0 = no quarantine). */
  vmidQuarantine: z.union([z.string(), z.literal(0)]).optional(),
  /** How long a run's claim on a record holds when the run never releases it (it crashed): a duration, 1h by default. */
  claimExpiry: z.string().optional(),
  decommission: z
    .strictObject({
      status: z.string().optional(),
      stopTimeout: z.number().int().min(1).optional(),
      releaseIps: z.boolean().optional(),
      releaseMacs: z.boolean().optional(),
      deleteInterfaces: z.boolean().optional(),
      final: z.enum(["offline", "delete"]).optional(),
    })
    .optional(),
});

export type Unit = z.output<typeof unit>;

/** A vmid freed by decommission is not handed out again for a day unless the config says otherwise. */
export const DEFAULT_VMID_QUARANTINE_MS = 24 * 3600 * 1000;
export const DEFAULT_CLAIM_EXPIRY_MS = 3600 * 1000;
/** A platform as configured, with its checked guest template (VM platforms that write one). */
export type PlatformMapping = z.output<typeof platformSchema> & { template?: VmTemplate; ctTemplate?: CtTemplate };
export type ContainerMapping = z.output<typeof containerSchema>;
export type ClusterMapping = z.output<typeof clusterSchema>;

/** The configuration with every default filled in. */
export interface NetboxConfig {
  file: string;
  netbox: { url?: string; tokenEnv: string; tokenFile?: string; caFile?: string; insecure: boolean };
  /** `status`: the statuses whose records sync converges (default only `planned`). */
  select: { status: string[]; clusters: string[]; sites: string[]; tags: string[] };
  connections: Record<string, ConnectionSpec>;
  clusters: Record<string, ClusterMapping>;
  defaults: {
    node?: string;
    storage?: string;
    bridge?: string;
    nicModel: string;
    diskBus: "scsi" | "virtio" | "sata";
    scsihw?: string;
    memoryUnit: Unit;
    diskUnit: Unit;
    cores?: number;
    memory?: number;
    diskSize?: number;
    platform?: string;
    power?: "running" | "stopped";
  };
  platforms: Record<string, PlatformMapping>;
  customFields: { vmid: string; node: string; storage: string; gateway: string };
  tags: { passThrough: boolean; add: string[] };
  writeBack: {
    macs: boolean;
    /** Allocation per interface from its VLAN's prefix; `fallbackPrefix` for interfaces without a VLAN. */
    primaryIp4?: { fallbackPrefix?: string; status: string };
    dns?: { zone: string };
    onSuccess: string;
    onFailure: "planned" | "failed";
    journal: boolean;
  };
  /** Records may adopt existing guests pvectl did not create (their vmid custom field names one). */
  adopt: boolean;
  /** Milliseconds a vmid freed by decommission stays out of allocation. */
  vmidQuarantineMs: number;
  /** `vmidQuarantine` was written in the config (else the quarantine follows the backup retention: quarantine-retention.ts). */
  vmidQuarantineConfigured?: true;
  /** Milliseconds a run's claim on a record holds (record-claims.ts); a crashed run's claims end after it. */
  claimExpiryMs: number;
  decommission: {
    status: string;
    stopTimeout: number;
    releaseIps: boolean;
    releaseMacs: boolean;
    deleteInterfaces: boolean;
    final: "offline" | "delete";
  };
}

export class NetboxConfigError extends PvectlError {
  readonly kind = "netbox-config";

  readonly issues: SpecIssue[];

  constructor(issues: SpecIssue[]) {
    const sorted = sortIssues(issues);
    super(sorted.map(formatIssue).join("\n"));
    this.name = "NetboxConfigError";
    this.issues = sorted;
  }

  override userMessage(): string {
    return [`${this.#head()}. Fix it and run again (keys: docs/netbox.md):`, ...this.issues.map((i) => `  ${formatIssue(i)}`)].join("\n");
  }

  /** For --json: the problems apart, and what to do as the hint. */
  override parts(): Omit<PvectlErrorJson, "kind"> {
    return { message: this.#head(), hint: "fix it and run again (keys: docs/netbox.md)", problems: this.issues.map(formatIssue) };
  }

  #head(): string {
    const n = this.issues.length;
    return `the NetBox config is invalid (${n} ${n === 1 ? "problem" : "problems"}); nothing was read from NetBox or sent to a cluster`;
  }
}

/** What a clone platform cannot also say: the first disk comes from the template, not an ISO or image. */
function cloneIssues(slug: string, p: PlatformMapping, doc: YamlDocument): SpecIssue[] {
  const issues: SpecIssue[] = [];
  for (const key of ["iso", "image"] as const) {
    if (p[key] !== undefined)
      issues.push({
        location: doc.locate(["platforms", slug, key], "key"),
        path: ["platforms", slug, key],
        message: `\`${key}\` and \`clone\` both say where the VM's system comes from; a clone is a copy of its template: leave \`${key}\` out`,
      });
  }
  if (p.clone?.full !== true && p.clone?.storage !== undefined)
    issues.push({
      location: doc.locate(["platforms", slug, "clone", "storage"], "key"),
      path: ["platforms", slug, "clone", "storage"],
      message:
        "`storage` applies to full clones only (a linked clone's disks stay on the template's storage, and PVE clones a template linked unless told otherwise): set `full: true`, or remove it",
    });
  return issues;
}

type RawConfig = z.output<typeof configSchema>;

/** The sections that map names to entries, each entry checked on its own. */
const NAMED_ENTRIES = ["connections", "clusters", "platforms"];

/** The keys of the mapping at `key` of `value`, whatever their entries hold. */
function declaredKeys(value: unknown, key: string): string[] {
  const section = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  return section !== null && typeof section === "object" && !Array.isArray(section) ? Object.keys(section) : [];
}

/**
 * What of a config zod refused passed the check on its own: each top-level section without a
 * problem under it, and of `connections`, `clusters` and `platforms` each entry without one.
 * The checks across keys then still run on those, so one run reports every problem.
 */
function checkedParts(value: unknown, zodIssues: readonly z.core.$ZodIssue[]): Partial<RawConfig> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  const failed = (path: Array<string | number>) => zodIssues.some((issue) => path.every((step, i) => issue.path[i] === step));
  const out: Record<string, unknown> = {};
  for (const [key, section] of Object.entries(configSchema.shape) as Array<[string, z.ZodType]>) {
    const written = (value as Record<string, unknown>)[key];
    if (written === undefined) continue;
    if (NAMED_ENTRIES.includes(key)) {
      if (written === null || typeof written !== "object" || Array.isArray(written)) continue;
      const entries: Record<string, unknown> = {};
      for (const [name, entry] of Object.entries(written)) {
        const checked = failed([key, name]) ? undefined : section.safeParse({ [name]: entry });
        if (checked?.success) entries[name] = (checked.data as Record<string, unknown>)[name];
      }
      out[key] = entries;
    } else if (!failed([key])) {
      const checked = section.safeParse(written);
      if (checked.success) out[key] = checked.data;
    }
  }
  return out as Partial<RawConfig>;
}

function primaryIp4Of(raw: {
  fallbackPrefix?: string | undefined;
  status?: string | undefined;
}): NonNullable<NetboxConfig["writeBack"]["primaryIp4"]> {
  return { ...(raw.fallbackPrefix !== undefined ? { fallbackPrefix: raw.fallbackPrefix } : {}), status: raw.status ?? "active" };
}

/** Problems across the clusters, connections and write-back keys of a config. */
function clusterIssues(raw: Partial<RawConfig>, doc: YamlDocument): SpecIssue[] {
  const issues: SpecIssue[] = [];
  // A name counts as defined even when its entry has problems of its own (reported already).
  const connectionNames = declaredKeys(doc.value, "connections");
  for (const [cluster, m] of Object.entries(raw.clusters ?? {})) {
    if (m.connection !== undefined && !connectionNames.includes(m.connection))
      issues.push({
        location: doc.locate(["clusters", cluster, "connection"]),
        path: ["clusters", cluster, "connection"],
        message: `connection \`${m.connection}\` is not defined under \`connections:\`${connectionNames.length ? ` (defined: ${[...connectionNames].sort().join(", ")})` : ""}`,
      });
    if (m.vmidRange && m.vmidRange[0] > m.vmidRange[1])
      issues.push({
        location: doc.locate(["clusters", cluster, "vmidRange"]),
        path: ["clusters", cluster, "vmidRange"],
        message: `the range starts above its end (${m.vmidRange[0]} > ${m.vmidRange[1]}); write [low, high]`,
      });
  }
  if (raw.writeBack?.primaryIp4?.prefix !== undefined)
    issues.push({
      location: doc.locate(["writeBack", "primaryIp4", "prefix"], "key"),
      path: ["writeBack", "primaryIp4", "prefix"],
      message:
        "`prefix` gave every interface an address of one prefix, whatever its VLAN; addresses now come from the prefix NetBox links to each interface's untagged VLAN. Remove `prefix`, and name a prefix for interfaces without a VLAN as `fallbackPrefix` if you want one",
    });
  return issues;
}

/** The platforms' problems across keys, and the spec templates of those that have one. */
function platformIssues(
  raw: Partial<RawConfig>,
  doc: YamlDocument,
): { issues: SpecIssue[]; templates: Record<string, Pick<PlatformMapping, "template" | "ctTemplate">> } {
  const issues: SpecIssue[] = [];
  const platform = raw.defaults?.platform;
  if (platform !== undefined && !declaredKeys(doc.value, "platforms").includes(platform))
    issues.push({
      location: doc.locate(["defaults", "platform"]),
      path: ["defaults", "platform"],
      message: `platform \`${platform}\` is not defined under \`platforms:\``,
    });
  const templates: Record<string, Pick<PlatformMapping, "template" | "ctTemplate">> = {};
  for (const [slug, p] of Object.entries(raw.platforms ?? {})) {
    if (p.iso && p.image)
      issues.push({
        location: doc.locate(["platforms", slug, "image"], "key"),
        path: ["platforms", slug],
        message: "give either `iso` (install from a CD-ROM) or `image` (first disk imported from an image), not both",
      });
    if (p.clone) issues.push(...cloneIssues(slug, p, doc));
    if (p.cloudInit && p.iso && (p.cloudInit.slot ?? "ide2") === "ide2")
      issues.push({
        location: doc.locate(["platforms", slug, "cloudInit"], "key"),
        path: ["platforms", slug, "cloudInit", "slot"],
        message:
          "the ISO's CD-ROM is on ide2, where the cloud-init drive goes by default: set `cloudInit.slot` to another slot (e.g. ide0)",
      });
    if (p.container) {
      for (const key of [
        "ostype",
        "iso",
        "image",
        "clone",
        "cloudInit",
        "bios",
        "machine",
        "cpu",
        "agent",
        "scsihw",
        "vm",
        "diskBus",
        "nicModel",
        "diskOptions",
      ] as const) {
        if (p[key] !== undefined)
          issues.push({
            location: doc.locate(["platforms", slug, key], "key"),
            path: ["platforms", slug, key],
            message: `\`${key}\` is a VM setting, and this platform maps to a container; leave it out${key === "ostype" ? " (a container's ostype goes under `container:`)" : ""}${key === "vm" ? " (a container's template is `ct:`)" : ""}`,
          });
      }
      const checked = checkCtTemplate(slug, p.ct, p.container, doc);
      issues.push(...checked.issues);
      if (checked.template) templates[slug] = { ctTemplate: checked.template };
    } else {
      if (p.ostype === undefined && p.vm?.ostype === undefined && p.clone === undefined)
        issues.push({
          location: doc.locate(["platforms", slug], "key"),
          path: ["platforms", slug],
          message:
            "a platform needs `ostype` (VMs), `clone: { from: ... }` (VMs cloned from a template) or `container: { ostemplate: ... }` (LXC containers)",
        });
      const checked = checkPlatformTemplate(slug, p, raw.defaults?.diskBus ?? "scsi", doc);
      // A problem the checks above found already (the ISO's slot ...) is not told twice.
      const told = issues.filter((i) => i.path[0] === "platforms" && i.path[1] === slug).map((i) => i.path);
      issues.push(...checked.issues.filter((i) => !told.some((path) => overlaps(path, i.path))));
      if (checked.template) templates[slug] = { template: checked.template };
      if (p.ct !== undefined)
        issues.push({
          location: doc.locate(["platforms", slug, "ct"], "key"),
          path: ["platforms", slug, "ct"],
          message: "`ct` is a container's template, and this platform maps to VMs; write VM keys under `vm:` (or add `container:`)",
        });
    }
  }
  return { issues, templates };
}

/** Parses the YAML text of a NetBox config. */
export function parseNetboxConfig(text: string, file: string): NetboxConfig {
  const parsed = parseYaml(text, file);
  if (parsed.issues.length > 0) throw new NetboxConfigError(parsed.issues);
  const doc = parsed.documents[0];
  if (!doc || parsed.documents.length !== 1)
    throw new NetboxConfigError([{ path: [], message: "expected exactly one YAML document", location: { file, line: 1, column: 1 } }]);
  const result = configSchema.safeParse(doc.value ?? {});
  const issues: SpecIssue[] = result.success ? [] : specIssuesFromZod(result.error.issues, configSchema, doc.value, doc);
  const raw: Partial<RawConfig> = result.success ? result.data : checkedParts(doc.value ?? {}, result.error.issues);
  const connections: Record<string, ConnectionSpec> = {};
  for (const [key, c] of Object.entries(raw.connections ?? {})) {
    const { line, column } = doc.locate(["connections", key], "key");
    connections[key] = { name: key, ...c, source: { file, line, column } };
  }
  issues.push(...clusterIssues(raw, doc));
  const quarantineMs =
    raw.vmidQuarantine === undefined ? DEFAULT_VMID_QUARANTINE_MS : raw.vmidQuarantine === 0 ? 0 : parseDuration(raw.vmidQuarantine);
  if (quarantineMs === undefined)
    issues.push({
      location: doc.locate(["vmidQuarantine"]),
      path: ["vmidQuarantine"],
      message: `\`${String(raw.vmidQuarantine)}\` is not a duration; write e.g. 30m, 24h or 7d (0: no quarantine)`,
    });
  const claimExpiryMs = raw.claimExpiry === undefined ? DEFAULT_CLAIM_EXPIRY_MS : parseDuration(raw.claimExpiry);
  if (claimExpiryMs === undefined || claimExpiryMs <= 0)
    issues.push({
      location: doc.locate(["claimExpiry"]),
      path: ["claimExpiry"],
      message: `\`${String(raw.claimExpiry)}\` is not a positive duration; write e.g. 30m or 2h (longer than your longest sync)`,
    });
  const platforms = platformIssues(raw, doc);
  issues.push(...platforms.issues);
  if (!result.success || issues.length > 0) throw new NetboxConfigError(issues);

  return withDefaults(file, result.data, connections, quarantineMs, claimExpiryMs, platforms.templates);
}

/** Whether one path is the other or lies under it. */
function overlaps(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.slice(0, Math.min(a.length, b.length)).every((step, i) => step === b[i]);
}

/** The checked config with every default filled in. */
function withDefaults(
  file: string,
  raw: RawConfig,
  connections: Record<string, ConnectionSpec>,
  quarantineMs: number | undefined,
  claimExpiryMs: number | undefined,
  templates: Record<string, Pick<PlatformMapping, "template" | "ctTemplate">>,
): NetboxConfig {
  const d = raw.defaults ?? {};
  return {
    file,
    netbox: {
      ...(raw.netbox?.url ? { url: raw.netbox.url } : {}),
      tokenEnv: raw.netbox?.tokenEnv ?? "NETBOX_TOKEN",
      ...(raw.netbox?.tokenFile ? { tokenFile: raw.netbox.tokenFile } : {}),
      ...(raw.netbox?.caFile ? { caFile: raw.netbox.caFile } : {}),
      insecure: raw.netbox?.insecure ?? false,
    },
    select: {
      status: typeof raw.select?.status === "string" ? [raw.select.status] : (raw.select?.status ?? ["planned"]),
      clusters: raw.select?.clusters ?? [],
      sites: raw.select?.sites ?? [],
      tags: raw.select?.tags ?? [],
    },
    connections,
    clusters: raw.clusters,
    defaults: {
      ...d,
      nicModel: d.nicModel ?? "virtio",
      diskBus: d.diskBus ?? "scsi",
      memoryUnit: d.memoryUnit ?? "MiB",
      diskUnit: d.diskUnit ?? "MiB",
    },
    platforms: Object.fromEntries(Object.entries(raw.platforms ?? {}).map(([slug, p]) => [slug, { ...p, ...templates[slug] }])),
    customFields: {
      vmid: raw.customFields?.vmid ?? "proxmox_vmid",
      node: raw.customFields?.node ?? "proxmox_node",
      storage: raw.customFields?.storage ?? "proxmox_storage",
      gateway: raw.customFields?.gateway ?? "gateway",
    },
    tags: { passThrough: raw.tags?.passThrough ?? true, add: raw.tags?.add ?? [] },
    writeBack: {
      macs: raw.writeBack?.macs ?? true,
      ...(raw.writeBack?.primaryIp4 ? { primaryIp4: primaryIp4Of(raw.writeBack.primaryIp4) } : {}),
      ...(raw.writeBack?.dns ? { dns: { zone: raw.writeBack.dns.zone.toLowerCase() } } : {}),
      onSuccess: raw.writeBack?.onSuccess ?? "staged",
      onFailure: raw.writeBack?.onFailure ?? "planned",
      journal: raw.writeBack?.journal ?? true,
    },
    adopt: raw.adopt ?? false,
    vmidQuarantineMs: quarantineMs ?? DEFAULT_VMID_QUARANTINE_MS,
    ...(raw.vmidQuarantine !== undefined ? { vmidQuarantineConfigured: true as const } : {}),
    claimExpiryMs: claimExpiryMs ?? DEFAULT_CLAIM_EXPIRY_MS,
    decommission: {
      status: raw.decommission?.status ?? "decommissioning",
      stopTimeout: raw.decommission?.stopTimeout ?? 60,
      releaseIps: raw.decommission?.releaseIps ?? true,
      releaseMacs: raw.decommission?.releaseMacs ?? true,
      deleteInterfaces: raw.decommission?.deleteInterfaces ?? false,
      final: raw.decommission?.final ?? "offline",
    },
  };
}

export async function loadNetboxConfig(file: string): Promise<NetboxConfig> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "unreadable";
    throw new NetboxConfigError([{ path: [], message: `cannot read the NetBox config ${file} (${code})` }]);
  }
  return parseNetboxConfig(text, file);
}
