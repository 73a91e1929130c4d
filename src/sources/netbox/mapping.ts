// A NetBox virtual machine record -> a pvectl VmSpec, by the rules of the NetBox config.
// Pure: no I/O. A record that cannot be built (no cluster, unknown platform, sizes that make
// no sense ...) gives every problem at once and no spec, so nothing is sent for it.
//
//   name                    -> name (must be a valid PVE VM name)
//   cluster                 -> clusters.<name>: connection, node, storage, bridge
//   custom fields           -> vmid / node / storage overrides (names in customFields:)
//   vcpus                   -> cores (whole numbers only)
//   memory                  -> memory in MiB (defaults.memoryUnit says what NetBox's number means)
//   virtual disks or disk   -> scsi0.. (defaults.diskBus) on the storage, sizes by defaults.diskUnit;
//                              a built guest keeps each virtual disk in the slot recorded for it
//                              (tag netbox-disk-<id>-<slot>, disk-slots.ts), never by position
//   platform (slug)         -> platforms.<slug>: ostype, ISO (ide2) or image (first disk), bios ...
//                              or clone (the template's first disk, grown; its storage kept);
//                              cloudInit: ipconfig0 from the primary IPv4 (else dhcp);
//                              diskBus, nicModel, diskOptions and the guest template `vm:`
//                              (everything else a spec VM can say: mapping-template.ts)
//   interfaces              -> net0.. in NetBox's name order; untagged VLAN -> tag, tagged -> trunks,
//                              disabled -> link_down, MTU (virtio), MAC kept when NetBox has one
//   tags                    -> PVE tags (tags.passThrough), plus tags.add
//
// A platform with `container:` makes the record an LXC container instead (mapping-ct.ts).
import { isValidTag } from "../../pve/tags.js";
import type { CdromSpec, CloudInitSpec, ContainerSpec, DeviceSection, DiskSpec, IpConfigSpec, NicSpec, VmSpec } from "../spec/model.js";
import type { NetboxConfig, PlatformMapping } from "./config.js";
import { DISK_TAG_PREFIX, isDiskTag } from "./disk-slots.js";
import {
  addressesOn,
  type DiskLayout,
  diskSizes,
  gatewayProblem,
  ipv4GatewayOf,
  MAX_NICS,
  placeRecordDisks,
  UNIT_BYTES,
  vlansOf,
} from "./mapping-common.js";
import { mapContainer } from "./mapping-ct.js";
import { applyVmTemplate } from "./mapping-template.js";
import { isRecordTag, RECORD_TAG_PREFIX, recordTagOf } from "./record-tag.js";
import type { NetboxVmRecord } from "./records.js";

export interface NicBinding {
  slot: string;
  interfaceId: number;
  interfaceName: string;
}

export interface MappedVm {
  ok: true;
  record: NetboxVmRecord;
  /** A VM, or a container when the record's platform maps to one. */
  spec: VmSpec | ContainerSpec;
  /** NetBox cluster name (the key under `clusters:`). */
  cluster: string;
  /** Which NetBox interface each NIC slot came from, for writing MACs back. */
  nics: NicBinding[];
  /** What the plan should say about the disks' slots (adopted by position, a slot removed). */
  diskNotes: string[];
  /** Disk slots that cannot be matched to virtual disks: the guest must be left alone (disk-slots.ts). */
  diskErrors: string[];
}

export interface UnmappableVm {
  ok: false;
  record: NetboxVmRecord;
  errors: string[];
}

export type MappingResult = MappedVm | UnmappableVm;

const MIN_MEMORY_MIB = 16;
const MAX_DISKS: Record<string, number> = { scsi: 31, virtio: 16, sata: 6 };
const VM_NAME = /^(?=.{1,63}$)[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)*$/;

function customField(record: NetboxVmRecord, key: string): unknown {
  const v = record.vm.custom_fields?.[key];
  return v === "" ? null : (v ?? null);
}

const known = (keys: string[]): string => (keys.length ? keys.sort().join(", ") : "none");

/** The vmid a record names in its vmid custom field (undefined when unset). */
export function recordVmid(record: NetboxVmRecord, config: NetboxConfig): number | undefined | string {
  const raw = customField(record, config.customFields.vmid);
  if (raw === null) return undefined;
  const n = typeof raw === "number" ? raw : typeof raw === "string" && /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 100 || n > 999_999_999)
    return `custom field ${config.customFields.vmid} is ${JSON.stringify(raw)}; a Proxmox VE vmid is a whole number from 100 to 999999999`;
  return n;
}

/**
 * The record's PVE tags: NetBox's (when passed through), tags.add, and the record tag that
 * binds the guest to this record (record-tag.ts). A NetBox tag or tags.add entry shaped like a
 * record tag is refused: it would bind the guest to another record.
 */
function recordTags(record: NetboxVmRecord, config: NetboxConfig, errors: string[]): string[] {
  const all = [...(config.tags.passThrough ? (record.vm.tags ?? []).map((t) => t.slug) : []), ...config.tags.add].map((t) =>
    t.toLowerCase(),
  );
  for (const t of all)
    if (!isValidTag(t)) errors.push(`tag \`${t}\` is not a valid Proxmox VE tag (letters, digits, _ - + .; not starting with - + .)`);
  for (const t of all.filter(isRecordTag))
    errors.push(
      `tag \`${t}\` has the shape of the tag pvectl binds a guest to its NetBox record with (${RECORD_TAG_PREFIX}<id>); rename it in NetBox or in tags.add`,
    );
  for (const t of all.filter(isDiskTag))
    errors.push(
      `tag \`${t}\` has the shape of the tags pvectl records which virtual disk each slot holds with (${DISK_TAG_PREFIX}<id>-<slot>); rename it in NetBox or in tags.add`,
    );
  return [...new Set([...all, recordTagOf(record.vm.id)])].sort();
}

/**
 * Where a clone's first disk (its template's) lives: a full clone onto a storage puts it there;
 * otherwise it stays where PVE puts it (a linked clone on the template's storage), so its
 * storage is not managed and the plan never moves it right after the clone.
 */
function cloneDiskStorage(clone: NonNullable<PlatformMapping["clone"]>): string | undefined {
  return clone.full === true ? clone.storage : undefined;
}

/** Sections a clone leaves as its template made them: the CD-ROMs unless the platform names some, cloud-init unless configured. */
function cloneUnmanaged(platform: PlatformMapping): DeviceSection[] {
  const cdroms = platform.iso !== undefined || Object.keys(platform.template?.cdroms ?? {}).length > 0;
  return [
    ...(cdroms ? [] : (["cdroms"] as const)),
    ...(platform.cloudInit || platform.template?.cloudInit ? [] : (["cloudInit"] as const)),
  ];
}

/**
 * net0's address by cloud-init: the record's primary IPv4 when it has one before the sync
 * (static, with the platform's gateway), else DHCP. A clone's drive stays on its template's
 * storage unless the platform names one.
 */
function cloudInitOf(
  record: NetboxVmRecord,
  platform: PlatformMapping & { slug: string },
  storage: string | undefined,
  errors: string[],
): CloudInitSpec {
  const ci = platform.cloudInit ?? {};
  const onStorage = ci.storage ?? (platform.clone ? undefined : storage);
  return {
    slot: ci.slot ?? "ide2",
    ...(onStorage !== undefined ? { storage: onStorage } : {}),
    ...(ci.nameservers ? { nameservers: ci.nameservers } : {}),
    ...(ci.searchDomains ? { searchDomains: ci.searchDomains } : {}),
    ipconfig: ipconfigsOf(record, ci.gw, `platforms.${platform.slug}.cloudInit.gw`, errors),
  };
}

/**
 * ipconfigN per interface from the addresses NetBox assigns to it (the platform's `gw`, else
 * the prefix's gateway); net0 without an IPv4 takes DHCP, other interfaces without an address
 * are not managed.
 */
function ipconfigsOf(
  record: NetboxVmRecord,
  platformGw: string | undefined,
  platformKey: string,
  errors: string[],
): Record<string, IpConfigSpec> {
  const out: Record<string, IpConfigSpec> = {};
  record.interfaces.slice(0, MAX_NICS).forEach((iface, i) => {
    const a = addressesOn(record, iface.id, i);
    if (!a.ip4 && !a.ip6 && i > 0) return;
    const gateway = ipv4GatewayOf(a, platformGw, platformKey);
    const clash = gatewayProblem(iface.name, a, gateway, platformKey);
    if (clash) errors.push(clash);
    const gw = gateway?.address;
    out[`ipconfig${i}`] = {
      ...(a.ip4 ? { ip: a.ip4, ...(gw !== undefined ? { gw } : {}) } : i === 0 ? { ip: "dhcp" } : {}),
      ...(a.ip6 ? { ip6: a.ip6, ...(a.gw6 !== undefined ? { gw6: a.gw6 } : {}) } : {}),
    };
  });
  return out;
}

/**
 * `layout`: the guest the record already has (its tags and disks), so each virtual disk keeps
 * the slot recorded for it; without it the record is mapped as a guest to build.
 */
export function mapRecord(record: NetboxVmRecord, config: NetboxConfig, layout?: DiskLayout): MappingResult {
  const errors: string[] = [];
  const { vm } = record;
  const d = config.defaults;

  if (!VM_NAME.test(vm.name))
    errors.push(
      `name \`${vm.name}\` is not a valid Proxmox VE VM name (letters, digits and hyphens, dot-separated, at most 63 characters)`,
    );

  const clusterName = vm.cluster?.name;
  const cluster = clusterName === undefined ? undefined : config.clusters[clusterName];
  if (clusterName === undefined)
    errors.push(`has no cluster; assign it to one of the configured clusters (${known(Object.keys(config.clusters))})`);
  else if (!cluster)
    errors.push(
      `cluster \`${clusterName}\` is not configured under \`clusters:\` in ${config.file} (configured: ${known(Object.keys(config.clusters))})`,
    );

  const vmid = recordVmid(record, config);
  if (typeof vmid === "string") errors.push(vmid);

  const nodeCf = customField(record, config.customFields.node);
  const node = (typeof nodeCf === "string" ? nodeCf : undefined) ?? cluster?.node ?? d.node;
  if (cluster && node === undefined)
    errors.push(`no Proxmox node: set custom field ${config.customFields.node} or \`clusters.${clusterName}.node\` (or \`defaults.node\`)`);
  const platformSlug = vm.platform?.slug ?? d.platform;
  const platform = platformSlug === undefined ? undefined : config.platforms[platformSlug];
  if (platformSlug === undefined)
    errors.push(`has no platform; set one in NetBox or \`defaults.platform\` (configured: ${known(Object.keys(config.platforms))})`);
  else if (!platform)
    errors.push(
      `platform \`${platformSlug}\` is not configured under \`platforms:\` in ${config.file} (configured: ${known(Object.keys(config.platforms))})`,
    );
  const storageCf = customField(record, config.customFields.storage);
  const storage = (typeof storageCf === "string" ? storageCf : undefined) ?? platform?.container?.storage ?? cluster?.storage ?? d.storage;
  if (cluster && storage === undefined)
    errors.push(
      `no storage for the disks: set custom field ${config.customFields.storage} or \`clusters.${clusterName}.storage\` (or \`defaults.storage\`)`,
    );

  const cores = vm.vcpus ?? d.cores;
  if (cores === undefined) errors.push("vcpus is not set; set it in NetBox or `defaults.cores`");
  else if (!Number.isInteger(cores) || cores < 1)
    errors.push(`vcpus ${cores} is not a whole number of at least 1 (Proxmox VE allocates whole cores)`);

  const memoryRaw = vm.memory ?? d.memory;
  let memory: number | undefined;
  if (memoryRaw === undefined) errors.push("memory is not set; set it in NetBox or `defaults.memory`");
  else {
    memory = Math.floor((memoryRaw * UNIT_BYTES[d.memoryUnit]) / 2 ** 20);
    if (memory < MIN_MEMORY_MIB) errors.push(`memory ${memoryRaw} ${d.memoryUnit} is below the ${MIN_MEMORY_MIB} MiB Proxmox VE needs`);
  }

  const tags = recordTags(record, config, errors);
  if (platform?.container) {
    return mapContainer(record, config, {
      errors,
      platform: platform.container,
      ...(platform.ctTemplate ? { template: platform.ctTemplate } : {}),
      ...(clusterName !== undefined && cluster ? { cluster: { name: clusterName, ...cluster } } : {}),
      ...(typeof vmid === "number" ? { vmid } : {}),
      ...(node !== undefined ? { node } : {}),
      ...(storage !== undefined ? { storage } : {}),
      ...(cores !== undefined ? { cores } : {}),
      ...(memory !== undefined ? { memory } : {}),
      tags,
      ...(layout ? { layout } : {}),
    });
  }

  const disks: Record<string, DiskSpec> = {};
  const sizes = diskSizes(record, config);
  const bus = platform?.diskBus ?? d.diskBus;
  // Slots the platform's CD-ROMs and cloud-init drive take are not the disks'.
  const candidates = Array.from({ length: MAX_DISKS[bus] ?? 0 }, (_, i) => `${bus}${i}`).filter(
    (slot) => !platform?.template?.reserved.includes(slot),
  );
  const maxDisks = candidates.length;
  if (sizes.length === 0) errors.push("has no virtual disks and no disk size; add a virtual disk in NetBox or set `defaults.diskSize`");
  if (sizes.length > maxDisks)
    errors.push(
      `has ${sizes.length} disks; the ${bus} bus holds at most ${maxDisks}${maxDisks < (MAX_DISKS[bus] ?? 0) ? " beside the platform's CD-ROMs" : ""}`,
    );
  for (const { label, size } of sizes)
    if (!Number.isInteger(size) || size <= 0) errors.push(`${label} has size ${size} ${d.diskUnit}; a disk needs a positive size`);
  const firstSlot = `${bus}0`;
  const placement = placeRecordDisks(sizes, config, { candidates }, layout);
  for (const { slot, disk: i, added } of placement.slots) {
    const size = sizes[i]!.size;
    if (!Number.isInteger(size) || size <= 0) continue;
    // The guest's original first disk (the template's, or imported from the image); a disk added later in that slot is a plain one.
    const first = slot === firstSlot && !added;
    const onStorage = first && platform?.clone ? cloneDiskStorage(platform.clone) : storage;
    const disk: DiskSpec = {
      ...(onStorage !== undefined ? { storage: onStorage } : {}),
      sizeBytes: size * UNIT_BYTES[d.diskUnit],
      options: {},
    };
    if (first && platform?.image) disk.importFrom = platform.image;
    disks[slot] = disk;
  }

  const bridge = cluster?.bridge ?? d.bridge;
  const nics: Record<string, NicSpec> = {};
  const bindings: NicBinding[] = [];
  if (record.interfaces.length > MAX_NICS) errors.push(`has ${record.interfaces.length} interfaces; a VM holds at most ${MAX_NICS} NICs`);
  if (record.interfaces.length > 0 && bridge === undefined && cluster)
    errors.push(`no bridge for the NICs: set \`clusters.${clusterName}.bridge\` (or \`defaults.bridge\`)`);
  const nicModel = platform?.nicModel ?? d.nicModel;
  record.interfaces.slice(0, MAX_NICS).forEach((iface, i) => {
    const slot = `net${i}`;
    const nic: NicSpec = { model: platform?.template?.nics[slot]?.model ?? nicModel, bridge: bridge ?? "", ...vlansOf(iface) };
    if (iface.mtu !== null && iface.mtu !== undefined && nic.model === "virtio") nic.mtu = iface.mtu;
    if (iface.enabled === false) nic.linkDown = true;
    if (iface.mac_address) nic.macaddr = iface.mac_address.toUpperCase();
    nics[slot] = nic;
    bindings.push({ slot, interfaceId: iface.id, interfaceName: iface.name });
  });

  const cdroms: Record<string, CdromSpec> = platform?.iso ? { ide2: { iso: platform.iso } } : {};
  const cloudInit =
    (platform?.cloudInit || platform?.template?.cloudInit) && record.interfaces.length > 0
      ? cloudInitOf(record, { ...platform, slug: platformSlug ?? "" }, storage, errors)
      : undefined;

  if (
    errors.length > 0 ||
    !cluster ||
    clusterName === undefined ||
    node === undefined ||
    cores === undefined ||
    memory === undefined ||
    !platform
  ) {
    return { ok: false, record, errors };
  }

  const bios = platform.bios ?? platform.template?.fields.bios;
  const spec: VmSpec = {
    kind: "vm",
    ...(typeof vmid === "number" ? { vmid } : {}),
    name: vm.name,
    node,
    ...(cluster.connection !== undefined ? { connection: cluster.connection } : {}),
    state: "present",
    ...(d.power !== undefined ? { power: d.power } : {}),
    cores,
    memory,
    ...(platform.ostype !== undefined ? { ostype: platform.ostype } : {}),
    ...(platform.clone ? { clone: { ...platform.clone } } : {}),
    ...(platform.bios !== undefined ? { bios: platform.bios } : {}),
    // UEFI needs somewhere to keep its variables (a clone has its template's).
    ...(bios === "ovmf" && !platform.clone ? { efidisk: { storage: storage ?? "", efitype: "4m" as const } } : {}),
    ...(platform.machine !== undefined ? { machine: platform.machine } : {}),
    ...(platform.cpu !== undefined ? { cpu: platform.cpu } : {}),
    ...((platform.scsihw ?? d.scsihw) !== undefined ? { scsihw: platform.scsihw ?? d.scsihw } : {}),
    ...(platform.agent !== undefined ? { agent: { enabled: platform.agent } } : {}),
    tags: [...tags, ...placement.tags].sort(),
    disks,
    cdroms,
    nics,
    ...(cloudInit ? { cloudInit } : {}),
    // A clone keeps the CD-ROM and cloud-init drives of its template unless the platform says otherwise.
    // Disks that cannot be matched to virtual disks are left as they are (the plan carries the error).
    ...(platform.clone || placement.errors.length > 0
      ? { unmanaged: [...(platform.clone ? cloneUnmanaged(platform) : []), ...(placement.errors.length > 0 ? (["disks"] as const) : [])] }
      : {}),
    extraConfig: {},
    source: { file: `netbox:virtualization/virtual-machines/${vm.id}`, line: 1, column: 1 },
  };
  const built = platform.template
    ? applyVmTemplate(spec, platform.template, { storage, key: `platforms.${platformSlug}.vm` }, errors)
    : spec;
  if (errors.length > 0) return { ok: false, record, errors };
  return { ok: true, record, spec: built, cluster: clusterName, nics: bindings, diskNotes: placement.notes, diskErrors: placement.errors };
}
