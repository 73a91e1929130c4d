// A VM platform's guest template, `platforms.<slug>.vm`: any key a spec file's `vms:` entry
// takes, checked by the spec's own schema, normalisation and value checks (sources/spec), so a
// platform can say everything a spec can (tpm, a second ISO, rng0, onboot ...). What NetBox
// holds is the record's: a template key that would set it (name, vmid, a disk's size, an
// interface's VLAN ...) is refused, naming where the value comes from.
//
// The template is checked once, at config load, as the VM a record of the platform would be
// (the platform's own keys, `diskOptions` and `nicModel` on every disk and NIC slot the
// record's disks and interfaces may take, stand-ins for what the record fills in), and each
// problem is placed back on the config key that caused it, with its line and column.
import type { SpecIssue, SpecPath } from "../spec/errors.js";
import { specIssuesFromZod } from "../spec/issues.js";
import type { CdromSpec, CloudInitSpec, DiskOptions, DiskSpec, EfiDiskSpec, NicSpec, TpmSpec, VmSpec } from "../spec/model.js";
import type { IssueSink } from "../../resources/spec-section/issues.js";
import { normalizeVm } from "../../resources/qemu/spec-normalize.js";
import { planValueProblems } from "../../resources/qemu/spec-plan-values.js";
import { slotNames } from "../../resources/qemu/spec-facts.js";
import { vmEntrySchema } from "../../resources/qemu/spec-entry.js";
import { vmDeviceKeyMessage } from "../../resources/qemu/spec-issues.js";
import type { YamlDocument } from "../spec/yaml-source.js";
import { isDiskTag } from "./disk-slots.js";
import { isRecordTag } from "./record-tag.js";

/** The checked template, as the mapping applies it to each record (mapping-template.ts). */
export interface VmTemplate {
  /** Plain VM fields as a spec VM holds them (onboot, sockets, balloon, boot, pool, power, tags, description ...). */
  fields: Partial<VmSpec>;
  /** Per slot of the platform's disk bus: the format and options a record disk placed there gets. */
  disks: Record<string, { format?: DiskSpec["format"]; options: DiskOptions }>;
  /** Per NIC slot: what the template writes for it (model, bridge, firewall, queues, rate). */
  nics: Record<string, Partial<NicSpec>>;
  /** The template's CD-ROMs (the platform's `iso` stays on ide2, as before). */
  cdroms: Record<string, CdromSpec>;
  /** Cloud-init keys the template writes (user, sshKeys, upgrade, type, slot ...); never ipconfig. */
  cloudInit?: Partial<CloudInitSpec>;
  /** EFI and TPM disks; storage absent: the record's storage. */
  efidisk?: Partial<EfiDiskSpec>;
  tpm?: Partial<TpmSpec>;
  extraConfig: Record<string, string | number>;
  /** Drive slots the CD-ROMs and the cloud-init drive take: the record's disks go to the others. */
  reserved: string[];
}

/** The platform keys the template check reads (config.ts's platform entry). */
export interface PlatformKeys {
  ostype?: string;
  iso?: string;
  bios?: string;
  machine?: string;
  cpu?: string;
  agent?: boolean;
  scsihw?: string;
  cloudInit?: { slot?: string; storage?: string; gw?: string; nameservers?: string[]; searchDomains?: string[] };
  vm?: Record<string, unknown>;
  diskBus?: "scsi" | "virtio" | "sata";
  nicModel?: string;
  diskOptions?: Record<string, unknown>;
}

/** Where each value the record owns comes from, for the message refusing it in a template. */
const RECORD_OWNED: Record<string, string> = {
  name: "the record's name",
  vmid: "the record's vmid custom field (else the cluster's `vmidRange`, else the next free vmid)",
  node: "the record's node custom field, else `clusters.<name>.node` or `defaults.node`",
  connection: "the cluster's `connection`",
  cores: "the record's vCPUs (else `defaults.cores`); `sockets` in the template splits them",
  memory: "the record's memory (else `defaults.memory`)",
  state: "the record's status: sync builds selected records, `decommission:` removes them",
  template: "nowhere: a record's guest is never turned into a template",
  adopt: "the config's top-level `adopt:`",
  clone: "`platforms.<slug>.clone`, beside `vm:`",
  detach: "the record's virtual disks",
  "disks.*.storage": "the record's storage custom field, else the cluster's `storage`",
  "disks.*.size": "the record's virtual disk",
  "disks.*.importFrom": "`platforms.<slug>.image` (the first disk)",
  "nics.*.tag": "the interface's untagged VLAN",
  "nics.*.trunks": "the interface's tagged VLANs",
  "nics.*.mtu": "the interface's MTU",
  "nics.*.linkDown": "the interface's `enabled`",
  "nics.*.macaddr": "the interface's MAC address",
  "cloudInit.ipconfig": "the addresses NetBox assigns to the record's interfaces",
};

/** The refusal of a template key whose value is the record's. */
export function ownedMessage(path: SpecPath, from: string): string {
  return `\`${String(path[path.length - 1])}\` is the record's: it comes from ${from}; leave it out of the platform's template`;
}

/** Platform keys that are VM fields too: written in one place only. */
const PLATFORM_FIELDS = ["ostype", "bios", "machine", "cpu", "agent", "scsihw"] as const;
const CLOUD_INIT_KEYS = ["slot", "storage", "nameservers", "searchDomains"] as const;
const STRUCTURED = new Set(["disks", "nics", "cdroms", "cloudInit", "efidisk", "tpm", "extraConfig"]);

/** Stand-ins for what each record fills in, valid wherever the spec takes them. */
export const STAND_IN = {
  name: "netbox-record",
  node: "netbox-node",
  storage: "netbox-storage",
  size: "1G",
  bridge: "netbox-bridge",
} as const;

type Map = Record<string, unknown>;
export const isMap = (v: unknown): v is Map => v !== null && typeof v === "object" && !Array.isArray(v);

/** Whether `root` holds a value at `path`. */
export function has(root: unknown, path: SpecPath): boolean {
  let at = root;
  for (const step of path) {
    if (!isMap(at) || !Object.hasOwn(at, String(step))) return Array.isArray(at) && typeof step === "number" && step < at.length;
    at = at[String(step)];
  }
  return true;
}

/** What a template writes that the record owns, or the platform says already: each refused, and left out of the check. */
function refusals(slug: string, p: PlatformKeys, vm: Map): { issues: Array<{ path: SpecPath; message: string }>; rest: Map } {
  const issues: Array<{ path: SpecPath; message: string }> = [];
  const rest: Map = { ...vm };
  const refuse = (path: SpecPath, message: string): void => void issues.push({ path, message });
  const owned = (path: SpecPath, key: string): void => refuse(path, ownedMessage(path, RECORD_OWNED[key]!.replace("<slug>", slug)));
  for (const key of Object.keys(vm)) {
    if (Object.hasOwn(RECORD_OWNED, key)) {
      owned([key], key);
      delete rest[key];
    }
  }
  for (const [section, keys] of [
    ["disks", ["storage", "size", "importFrom"]],
    ["nics", ["tag", "trunks", "mtu", "linkDown", "macaddr"]],
  ] as const) {
    const slots = vm[section];
    if (!isMap(slots)) continue;
    const kept: Map = {};
    for (const [slot, entry] of Object.entries(slots)) {
      if (!isMap(entry)) {
        kept[slot] = entry;
        continue;
      }
      const entryRest: Map = { ...entry };
      for (const key of keys.filter((k) => Object.hasOwn(entry, k))) {
        owned([section, slot, key], `${section}.*.${key}`);
        delete entryRest[key];
      }
      kept[slot] = entryRest;
    }
    rest[section] = kept;
  }
  if (isMap(vm.cloudInit) && Object.hasOwn(vm.cloudInit, "ipconfig")) {
    owned(["cloudInit", "ipconfig"], "cloudInit.ipconfig");
    const { ipconfig: _, ...ci } = vm.cloudInit;
    rest.cloudInit = ci;
  }
  const once = (path: SpecPath, platformKey: string): void =>
    refuse(path, `\`platforms.${slug}.${platformKey}\` says this already; say it in one place`);
  for (const key of PLATFORM_FIELDS) {
    if (p[key] !== undefined && Object.hasOwn(vm, key)) once([key], key);
  }
  if (p.iso !== undefined && isMap(vm.cdroms) && Object.hasOwn(vm.cdroms, "ide2")) once(["cdroms", "ide2"], "iso");
  for (const key of CLOUD_INIT_KEYS) {
    if (p.cloudInit?.[key] !== undefined && isMap(vm.cloudInit) && Object.hasOwn(vm.cloudInit, key))
      once(["cloudInit", key], `cloudInit.${key}`);
  }
  return { issues, rest };
}

/** The drive slots CD-ROMs and the cloud-init drive take, as the template and the platform write them. */
function reservedSlots(p: PlatformKeys, vm: Map): string[] {
  const cdroms = isMap(vm.cdroms) ? Object.keys(vm.cdroms) : [];
  const ci = isMap(vm.cloudInit) ? vm.cloudInit : undefined;
  const ciSlot = p.cloudInit?.slot ?? (typeof ci?.slot === "string" ? ci.slot : undefined) ?? (p.cloudInit || ci ? "ide2" : undefined);
  return [...new Set([...(p.iso !== undefined ? ["ide2"] : []), ...cdroms, ...(ciSlot !== undefined ? [ciSlot] : [])])];
}

/**
 * The VM a record of the platform would be, as a spec entry: the platform's keys, the
 * template, and stand-ins for what the record fills in, on every slot its disks and NICs may take.
 */
function probeOf(p: PlatformKeys, vm: Map, bus: string, reserved: string[]): Map {
  const probe: Map = { name: STAND_IN.name, node: STAND_IN.node };
  for (const key of PLATFORM_FIELDS) if (p[key] !== undefined) probe[key] = p[key];
  Object.assign(probe, vm);
  const written = (section: string): Map | undefined => (isMap(vm[section]) ? (vm[section] as Map) : undefined);
  if (vm.disks === undefined || isMap(vm.disks)) {
    const disks: Map = {};
    for (const slot of slotNames(bus).filter((s) => !reserved.includes(s)))
      disks[slot] = { storage: STAND_IN.storage, size: STAND_IN.size, ...p.diskOptions };
    for (const [slot, entry] of Object.entries(written("disks") ?? {}))
      disks[slot] = isMap(entry) ? { storage: STAND_IN.storage, size: STAND_IN.size, ...p.diskOptions, ...entry } : entry;
    probe.disks = disks;
  }
  if (vm.nics === undefined || isMap(vm.nics)) {
    const nics: Map = {};
    for (const slot of slotNames("net")) {
      const entry = written("nics")?.[slot];
      nics[slot] =
        entry === undefined || isMap(entry)
          ? { bridge: STAND_IN.bridge, ...(p.nicModel !== undefined ? { model: p.nicModel } : {}), ...entry }
          : entry;
    }
    for (const [slot, entry] of Object.entries(written("nics") ?? {})) if (!(slot in nics)) nics[slot] = entry;
    probe.nics = nics;
  }
  if (p.iso !== undefined && (vm.cdroms === undefined || isMap(vm.cdroms))) probe.cdroms = { ide2: { iso: p.iso }, ...written("cdroms") };
  if (p.cloudInit || vm.cloudInit !== undefined) {
    const { gw: _, ...platformCi } = p.cloudInit ?? {};
    probe.cloudInit =
      isMap(vm.cloudInit) || vm.cloudInit === undefined
        ? { storage: STAND_IN.storage, ...platformCi, ...written("cloudInit") }
        : vm.cloudInit;
  }
  for (const drive of ["efidisk", "tpm"]) if (isMap(vm[drive])) probe[drive] = { storage: STAND_IN.storage, ...(vm[drive] as Map) };
  return probe;
}

/** Only the keys `written` has, of `from`. */
function writtenPart<T extends object>(from: T | undefined, written: unknown): Partial<T> {
  if (!from || !isMap(written)) return {};
  return Object.fromEntries(Object.entries(from).filter(([key]) => Object.hasOwn(written, key))) as Partial<T>;
}

/** The normalised probe, cut back to what the template and the platform's slot keys say. */
function templateOf(vm: VmSpec, written: Map, bus: string, reserved: string[]): VmTemplate {
  const fields: Map = {};
  for (const key of Object.keys(written))
    if (!STRUCTURED.has(key) && (vm as unknown as Map)[key] !== undefined) fields[key] = (vm as unknown as Map)[key];
  const disks: VmTemplate["disks"] = {};
  for (const slot of slotNames(bus).filter((s) => !reserved.includes(s) || has(written, ["disks", s]))) {
    const disk = vm.disks[slot];
    if (disk) disks[slot] = { ...(disk.format !== undefined ? { format: disk.format } : {}), options: { ...disk.options } };
  }
  const nics: VmTemplate["nics"] = {};
  for (const [slot, entry] of Object.entries(isMap(written.nics) ? written.nics : {})) nics[slot] = writtenPart(vm.nics[slot], entry);
  const cloudInit = isMap(written.cloudInit) ? writtenPart(vm.cloudInit, written.cloudInit) : undefined;
  return {
    fields: fields as Partial<VmSpec>,
    disks,
    nics,
    cdroms: writtenPart(vm.cdroms, written.cdroms) as Record<string, CdromSpec>,
    ...(cloudInit ? { cloudInit } : {}),
    ...(vm.efidisk ? { efidisk: writtenPart(vm.efidisk, written.efidisk) } : {}),
    ...(vm.tpm ? { tpm: writtenPart(vm.tpm, written.tpm) } : {}),
    extraConfig: { ...vm.extraConfig },
    reserved,
  };
}

/**
 * Where a problem found on the probe goes in the config: on the template key that holds the
 * value, else on the platform key that put it there (`diskOptions`, `nicModel`, `iso`, `bios` ...).
 */
function placeOf(path: SpecPath, p: PlatformKeys, vm: Map): SpecPath {
  if (has(vm, path)) return ["vm", ...path];
  const section = path[0];
  const platformPath: SpecPath =
    section === "disks" ? ["diskOptions", ...path.slice(2)] : section === "nics" ? ["nicModel"] : section === "cdroms" ? ["iso"] : path;
  if (has(p, platformPath)) return platformPath;
  if (section !== undefined && has(vm, [section])) return ["vm", ...path];
  return has(p, [platformPath[0] ?? ""]) ? platformPath : ["vm"];
}

/**
 * Checks a VM platform's template, `diskOptions`, `nicModel` and `diskBus` as the spec checks a
 * VM: the template the mapping applies, and every problem at its config key. Undefined
 * template: the platform has none of those keys, or has problems.
 */
export function checkPlatformTemplate(
  slug: string,
  p: PlatformKeys,
  defaultBus: string,
  doc: YamlDocument,
): { template?: VmTemplate; issues: SpecIssue[] } {
  if (p.vm === undefined && p.diskOptions === undefined && p.nicModel === undefined && p.diskBus === undefined) return { issues: [] };
  const base: SpecPath = ["platforms", slug];
  const vm = p.vm ?? {};
  const bus = p.diskBus ?? defaultBus;
  const issues: SpecIssue[] = [];
  const seen = new Set<string>();
  const report = (path: SpecPath, message: string, part?: "key" | "value", location = doc.locate([...base, ...path], part)): void => {
    const at = [...base, ...path];
    const key = `${at.join(".")}\u0000${message}`;
    if (seen.has(key)) return; // one platform key (diskOptions ...) lands on many slots
    seen.add(key);
    issues.push({ location, path: at, message });
  };
  const refused = refusals(slug, p, vm);
  for (const r of refused.issues) report(["vm", ...r.path], r.message, "key");
  const reserved = reservedSlots(p, refused.rest);
  for (const slot of Object.keys(isMap(refused.rest.disks) ? refused.rest.disks : {}))
    if (!slotNames(bus).includes(slot))
      report(
        ["vm", "disks", slot],
        `the record's disks are on the ${bus} bus (\`diskBus\`), so no record disk is ever in ${slot}; write its options under a ${bus} slot`,
        "key",
      );
  const probe = probeOf(p, refused.rest, bus, reserved);
  const placed: YamlDocument = { value: probe, locate: (path, part) => doc.locate([...base, ...placeOf(path, p, refused.rest)], part) };
  const schema = vmEntrySchema();
  const parsed = schema.safeParse(probe, { jitless: true });
  if (!parsed.success) {
    for (const issue of specIssuesFromZod(parsed.error.issues, schema, probe, placed, vmDeviceKeyMessage))
      report(placeOf(issue.path, p, refused.rest), issue.message, undefined, issue.location);
    return { issues };
  }
  // The probe's stand-in slots are not the operator's: a list of them would only confuse.
  const devices = `the record's disks are ${bus}0, ${bus}1 …, its NICs net0, net1 …${reserved.length ? `, the platform's drives ${reserved.join(", ")}` : ""}`;
  const sink: IssueSink = {
    add: (path, message, part) => report(placeOf(path, p, refused.rest), message.replace(/ \(it has [^)]*\)$/, ` (${devices})`), part),
  };
  const normalized = normalizeVm(parsed.data, [], { file: "", line: 1, column: 1 }, sink);
  for (const problem of planValueProblems(normalized)) sink.add(problem.path, problem.message);
  for (const tag of normalized.tags ?? [])
    if (isRecordTag(tag) || isDiskTag(tag))
      report(["vm", "tags"], `tag \`${tag}\` has the shape of the tags pvectl binds a guest to its record and disks with; rename it`);
  if (issues.length > 0) return { issues };
  return { template: templateOf(normalized, refused.rest, bus, reserved), issues };
}
