// From a VM as written (already shape-checked by zod) to the normalized VmSpec the engine
// consumes, with the checks that need more than one field at a time: sizes and units,
// drive options per bus, slots used twice, boot order, cloud-init against NICs, and the
// escape hatch against PVE's schema.
import { tryParseSize } from "../../pve/size.js";
import { normaliseTags } from "../../pve/tags.js";
import { validateValue } from "../../pve/validate.js";
import { type SpecField, type SpecKind, specFieldRows } from "../../resources/qemu/options-table.js";
import type { SpecPath } from "./errors.js";
import { checkExtraConfig } from "./extra-config.js";
import { normalizeClone } from "./clone.js";
import type {
  AgentSpec,
  CdromSpec,
  CloudInitSpec,
  DiskOptions,
  DiskSpec,
  DriveOptionValue,
  EfiDiskSpec,
  IpConfigSpec,
  NicSpec,
  SourceLocation,
  TpmSpec,
  VmSpec,
} from "./model.js";
import { busOf, configKeySchema, driveSubSchema } from "./pve-facts.js";
import type { RawAgent, RawVm } from "./raw-schema.js";
import { checkSshKeys } from "./ssh-key-checks.js";
import { didYouMean } from "./suggest.js";
import { checkTemplatePower } from "./template-power.js";

const MIB = 1024 * 1024;

/** Collects problems of one VM; positions come from the YAML document. */
import type { IssueSink } from "../../resources/spec-section/issues.js";
export type { IssueSink };

type RawDisk = NonNullable<NonNullable<RawVm["disks"]>[string]>;
type RawNic = NonNullable<NonNullable<RawVm["nics"]>[string]>;
type RawCloudInit = NonNullable<RawVm["cloudInit"]>;

/** Largest size pvectl can hold exactly (2^53 - 1 bytes), as written in a spec. */
const MAX_SIZE_TEXT = "8192T (8 PiB)";

/** Bytes of a shape-checked size (`32G`, `1.5 GiB`); undefined after reporting one too large to hold. */
function bytesOf(value: string, what: string, path: SpecPath, sink: IssueSink, note = ""): number | undefined {
  const bytes = tryParseSize(value.replace(/\s+/g, "").replace(/iB$/, ""));
  if (bytes === undefined) sink.add(path, `\`${value}\` is too large for ${what}: at most ${MAX_SIZE_TEXT} can be written${note}`);
  return bytes;
}

/** MiB from `2048` (MiB already) or `2G`; undefined after reporting when it is not whole MiB. */
export function toMiB(value: number | string, path: SpecPath, sink: IssueSink): number | undefined {
  if (typeof value === "number") return value;
  const what = String(path[path.length - 1]);
  const bytes = bytesOf(value, what, path, sink, ", and PVE further limits memory to what the host CPU can address");
  if (bytes === undefined) return undefined;
  if (bytes % MIB !== 0) {
    sink.add(path, `\`${value}\` is not a whole number of MiB; PVE sets ${what} in MiB (e.g. 1536M or 2G)`);
    return undefined;
  }
  return bytes / MIB;
}

export function sizeBytes(value: string, path: SpecPath, sink: IssueSink): number | undefined {
  const bytes = bytesOf(value, "a disk", path, sink);
  if (bytes === undefined) return undefined;
  if (bytes < MIB) {
    sink.add(path, `\`${value}\` is too small: a disk has at least 1M (sizes are written with a unit, e.g. 32G)`);
    return undefined;
  }
  return bytes;
}

function normalizeDisk(slot: string, raw: RawDisk, path: SpecPath, sink: IssueSink): DiskSpec | undefined {
  const bus = busOf(slot);
  const busSchema = bus ? driveSubSchema(bus) : {};
  const { storage, size, format, importFrom, ...rest } = raw as RawDisk & Record<string, unknown>;
  const options: DiskOptions = {};
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    if (!Object.hasOwn(busSchema, key)) {
      sink.add([...path, key], `PVE's ${bus} drives have no \`${key}\` option${didYouMean(key, Object.keys(busSchema))}`, "key");
      continue;
    }
    options[key] = key === "discard" && typeof value === "boolean" ? (value ? "on" : "ignore") : (value as DriveOptionValue);
  }
  if (size === undefined && importFrom === undefined) {
    sink.add(path, "a disk needs a `size` (e.g. 32G) or an `importFrom` image");
    return undefined;
  }
  const disk: DiskSpec = { storage, options };
  if (size !== undefined) {
    const bytes = sizeBytes(size, [...path, "size"], sink);
    if (bytes === undefined) return undefined;
    disk.sizeBytes = bytes;
  }
  if (format !== undefined) disk.format = format as DiskSpec["format"];
  if (importFrom !== undefined) disk.importFrom = importFrom;
  return disk;
}

function normalizeNic(raw: RawNic): NicSpec {
  const nic: NicSpec = { bridge: raw.bridge };
  if (raw.model !== undefined) nic.model = raw.model;
  if (raw.tag !== undefined) nic.tag = raw.tag as number;
  if (raw.mtu !== undefined) nic.mtu = raw.mtu as number;
  if (raw.queues !== undefined) nic.queues = raw.queues as number;
  if (raw.firewall !== undefined) nic.firewall = raw.firewall;
  if (raw.rate !== undefined) nic.rate = raw.rate as number;
  if (raw.linkDown !== undefined) nic.linkDown = raw.linkDown;
  if (raw.trunks !== undefined) nic.trunks = raw.trunks;
  if (raw.macaddr !== undefined) nic.macaddr = raw.macaddr.toUpperCase();
  return nic;
}

function normalizeAgent(raw: RawAgent): AgentSpec {
  if (typeof raw === "boolean") return { enabled: raw };
  const agent: AgentSpec = { enabled: raw.enabled };
  if (raw.fstrimClonedDisks !== undefined) agent.fstrimClonedDisks = raw.fstrimClonedDisks;
  if (raw.freezeFs !== undefined) agent.freezeFs = raw.freezeFs;
  if (raw.type !== undefined) agent.type = raw.type as AgentSpec["type"];
  return agent;
}

/**
 * `nicSlots`: the NICs under `nics:`, each ipconfigN's netN checked against them; undefined when
 * `nics:` is left out (a clone's NICs come from its source): the plan checks the live guest or
 * the clone's source then (resources/qemu/ipconfig-nics.ts).
 */
function normalizeCloudInit(raw: RawCloudInit, nicSlots: Set<string> | undefined, path: SpecPath, sink: IssueSink): CloudInitSpec {
  const cloudInit: CloudInitSpec = { slot: raw.slot ?? "ide2", storage: raw.storage };
  normalizeOptionFields("cloudInit", raw, cloudInit, path, sink);
  if (raw.ipconfig !== undefined) {
    const ipconfig: Record<string, IpConfigSpec> = {};
    for (const [key, value] of Object.entries(raw.ipconfig)) {
      if (value === undefined) continue;
      const nic = key.replace("ipconfig", "net");
      if (nicSlots !== undefined && !nicSlots.has(nic)) {
        sink.add([...path, "ipconfig", key], `${key} configures ${nic}, but this VM has no ${nic} under \`nics\``, "key");
      }
      if (value.gw !== undefined && value.ip === undefined) sink.add([...path, "ipconfig", key, "gw"], "`gw` needs `ip` (PVE requires it)");
      if (value.gw6 !== undefined && value.ip6 === undefined)
        sink.add([...path, "ipconfig", key, "gw6"], "`gw6` needs `ip6` (PVE requires it)");
      ipconfig[key] = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as IpConfigSpec;
    }
    cloudInit.ipconfig = ipconfig;
  }
  return cloudInit;
}

/** PVE's own check of a string-valued key (e.g. the `cpu` property string). */
function checkWithSchema(key: string, value: string, path: SpecPath, sink: IssueSink): void {
  const schema = configKeySchema(key);
  if (!schema) return;
  const result = validateValue(schema, value, key);
  if (result.error !== undefined) {
    sink.add(path, `PVE would refuse \`${value}\`: ${result.error.split("\n").filter(Boolean).join("; ")}`);
  }
}

/** Where a value was written, for the kinds that check it. */
interface ValueContext {
  key: string;
  path: SpecPath;
  sink: IssueSink;
}

/** Each spec kind's value as written -> as VmSpec holds it (SpecKind); undefined after reporting a problem. */
const KIND_NORMALIZERS: Record<Exclude<SpecKind, "own">, (value: unknown, at: ValueContext) => unknown> = {
  pve: (value) => value,
  "pve-string": (value, at) => {
    checkWithSchema(at.key, value as string, at.path, at.sink);
    return value;
  },
  MiB: (value, at) => toMiB(value as number | string, at.path, at.sink),
  "default-key": (value) => value,
  "boot-order": (value) => [...(value as string[])],
  agent: (value) => normalizeAgent(value as RawAgent),
  "ssh-keys": (value, at) => {
    const keys = (value as string[]).map((key) => key.trim());
    checkSshKeys(keys, at.path, at.sink);
    return keys;
  },
  addresses: (value) => value,
  words: (value) => value,
};

/** The options table's fields of the VM (`section` undefined) or a section, from `raw` into `target`. */
function normalizeOptionFields(
  section: SpecField["section"],
  raw: Record<string, unknown>,
  target: object,
  path: SpecPath,
  sink: IssueSink,
): void {
  for (const { row, spec } of specFieldRows(section)) {
    const value = raw[spec.field];
    if (spec.kind === "own" || value === undefined) continue;
    // The kind decides the value's type (SpecKindValues in model.ts).
    (target as Record<string, unknown>)[spec.field] = KIND_NORMALIZERS[spec.kind](value, {
      key: row.key,
      path: [...path, spec.field],
      sink,
    });
  }
}

/**
 * The normalized VM, its problems reported to `sink`: a spec with any problem is refused as a
 * whole, and the loader still checks this VM against the others. `connection` is resolved later.
 */
export function normalizeVm(raw: RawVm, path: SpecPath, source: SourceLocation, sink: IssueSink): VmSpec {
  const vm: VmSpec = {
    kind: "vm",
    name: raw.name,
    node: raw.node,
    state: raw.state ?? "present",
    disks: {},
    cdroms: {},
    nics: {},
    extraConfig: {},
    source,
  };
  if (raw.vmid !== undefined) vm.vmid = raw.vmid;
  if (raw.connection !== undefined) vm.connection = raw.connection;
  if (raw.pool !== undefined) vm.pool = raw.pool;
  if (raw.adopt !== undefined) vm.adopt = raw.adopt;
  if (raw.snapshots !== undefined) vm.snapshots = { ...raw.snapshots };
  if (raw.clone !== undefined) vm.clone = normalizeClone(raw.clone, [...path, "clone"], sink);
  if (raw.power !== undefined) vm.power = raw.power;
  if (raw.template !== undefined) vm.template = raw.template;
  checkTemplatePower(raw, path, sink);
  normalizeOptionFields(undefined, raw, vm, path, sink);
  if (vm.memory !== undefined && vm.balloon !== undefined && vm.balloon > vm.memory) {
    sink.add([...path, "balloon"], `balloon (${vm.balloon} MiB) is more than memory (${vm.memory} MiB); PVE refuses that`);
  }
  if (raw.efidisk !== undefined) {
    if (vm.bios !== "ovmf") sink.add([...path, "efidisk"], "an EFI disk needs `bios: ovmf`", "key");
    const efidisk: EfiDiskSpec = { storage: raw.efidisk.storage };
    if (raw.efidisk.format !== undefined) efidisk.format = raw.efidisk.format as EfiDiskSpec["format"];
    if (raw.efidisk.efitype !== undefined) efidisk.efitype = raw.efidisk.efitype as EfiDiskSpec["efitype"];
    if (raw.efidisk.preEnrolledKeys !== undefined) efidisk.preEnrolledKeys = raw.efidisk.preEnrolledKeys;
    vm.efidisk = efidisk;
  }
  if (raw.tpm !== undefined) {
    vm.tpm = { storage: raw.tpm.storage };
    if (raw.tpm.version !== undefined) vm.tpm.version = raw.tpm.version as TpmSpec["version"];
  }
  if (raw.tags !== undefined) vm.tags = normaliseTags(raw.tags);

  const unmanaged = (["disks", "cdroms", "nics", "cloudInit"] as const).filter((section) => raw[section] === undefined);
  if (unmanaged.length > 0) vm.unmanaged = [...unmanaged];

  // Drives share one namespace: a slot holds a disk, a CD-ROM or the cloud-init drive.
  const slotOwner = new Map<string, string>();
  const claim = (slot: string, owner: string, where: SpecPath): void => {
    const previous = slotOwner.get(slot);
    if (previous) sink.add(where, `slot ${slot} is already used by ${previous}; one slot holds one drive`, "key");
    else slotOwner.set(slot, owner);
  };
  for (const [slot, disk] of Object.entries(raw.disks ?? {})) {
    if (disk === undefined) continue;
    claim(slot, "`disks`", [...path, "disks", slot]);
    const normalized = normalizeDisk(slot, disk, [...path, "disks", slot], sink);
    if (normalized) vm.disks[slot] = normalized;
  }
  if (raw.detach !== undefined) {
    raw.detach.forEach((slot, i) => {
      if (raw.disks?.[slot] !== undefined) {
        sink.add([...path, "detach", i], `${slot} is listed under \`disks\` too; detach a disk by removing it from \`disks\``);
      }
    });
    vm.detach = [...new Set(raw.detach)].sort();
  }
  for (const [slot, cdrom] of Object.entries(raw.cdroms ?? {})) {
    if (cdrom === undefined) continue;
    claim(slot, "`cdroms`", [...path, "cdroms", slot]);
    const normalized: CdromSpec = {};
    if (cdrom.iso !== undefined) normalized.iso = cdrom.iso;
    vm.cdroms[slot] = normalized;
  }
  for (const [slot, nic] of Object.entries(raw.nics ?? {})) {
    if (nic !== undefined) vm.nics[slot] = normalizeNic(nic);
  }
  if (raw.cloudInit !== undefined) {
    const cloudInitPath = [...path, "cloudInit"];
    vm.cloudInit = normalizeCloudInit(
      raw.cloudInit,
      raw.nics !== undefined ? new Set(Object.keys(vm.nics)) : undefined,
      cloudInitPath,
      sink,
    );
    claim(vm.cloudInit.slot, "`cloudInit`", raw.cloudInit.slot ? [...cloudInitPath, "slot"] : cloudInitPath);
  }

  if (vm.boot !== undefined) {
    // Every slot the spec declares counts, even one with a problem of its own (no follow-on errors).
    const declared = (slots: Record<string, unknown> | undefined): string[] => Object.keys(slots ?? {});
    // The cloud-init drive is a CD-ROM to PVE, in its default boot order (import writes it so).
    const cloudInitSlot = vm.cloudInit !== undefined ? [vm.cloudInit.slot] : [];
    const bootable = [...declared(raw.disks), ...declared(raw.cdroms), ...declared(raw.nics), ...cloudInitSlot];
    const seen = new Set<string>();
    vm.boot.forEach((device, i) => {
      if (seen.has(device)) sink.add([...path, "boot", i], `${device} is listed twice`);
      seen.add(device);
      // A clone has its source's devices too, which the spec need not list.
      if (!bootable.includes(device) && raw.clone === undefined) {
        sink.add(
          [...path, "boot", i],
          `\`${device}\` is not a disk, CD-ROM or NIC of this VM${didYouMean(device, bootable) || (bootable.length > 0 ? ` (it has ${bootable.join(", ")})` : "")}`,
        );
      }
    });
  }

  for (const [key, value] of Object.entries(raw.extraConfig ?? {})) {
    const checked = checkExtraConfig(key, value);
    if (checked.ok) vm.extraConfig[key] = checked.value;
    else sink.add([...path, "extraConfig", key], checked.message, checked.part);
  }
  return vm;
}
