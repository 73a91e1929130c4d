// A NetBox virtual machine record whose platform maps to a container -> a ContainerSpec. The
// record's fields mean what they mean for a VM (mapping.ts: cluster, vmid, node, storage,
// vcpus, memory, tags); the rest:
//
//   platforms.<slug>.container -> ostemplate, unprivileged, features, ostype, swap, DNS
//   first virtual disk (or disk, or container.size) -> rootfs on the storage
//   further virtual disks      -> mount points mp0.., mounted where the disk's name says (/data);
//                                 a built container keeps each in the slot recorded for it
//                                 (tag netbox-disk-<id>-<slot>, disk-slots.ts), never by position
//   interfaces                 -> net0.. named as in NetBox (eth0), VLANs and MTU as for VMs,
//                                 MAC kept when NetBox has one; net0's address is the record's
//                                 primary IPv4 (static, with container.gw), else container.ip (dhcp)
import { tryParseSize } from "../../pve/size.js";
import { canonical } from "../../resources/formats.js";
import type { ClusterMapping, ContainerMapping, NetboxConfig } from "./config.js";
import type { CtTemplate } from "./ct-template.js";
import type { ContainerSpec, CtMountSpec, CtNicSpec } from "../spec/model.js";
import { checkCtDevice } from "../../resources/lxc/spec-devices.js";
import { printCtFeatures } from "../../resources/lxc/spec-values.js";
import type { DiskPlacement } from "./disk-slots.js";
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
import type { MappingResult, NicBinding } from "./mapping.js";
import { applyCtTemplate } from "./mapping-template.js";
import type { NetboxVmRecord } from "./records.js";

export interface ContainerInputs {
  /** Problems found so far (shared with the VM fields); more are added here. */
  errors: string[];
  platform: ContainerMapping;
  /** The platform's `ct:` template: what else the container gets (mapping-template.ts). */
  template?: CtTemplate;
  cluster?: ClusterMapping & { name: string };
  vmid?: number;
  node?: string;
  storage?: string;
  cores?: number;
  memory?: number;
  tags?: string[];
  /** The container the record already has (disk-slots.ts); absent: one to build. */
  layout?: DiskLayout;
}

const MIB = 2 ** 20;
const INTERFACE_NAME = /^[-_.\w\d]{1,15}$/;
/** rootfs first, then mp0 .. mp255 (PVE's mount point keys). */
const MOUNT_SLOTS = ["rootfs", ...Array.from({ length: 256 }, (_, i) => `mp${i}`)];

/** rootfs and mount points from the record's disks; undefined entries after reporting. */
function volumes(
  record: NetboxVmRecord,
  config: NetboxConfig,
  inputs: ContainerInputs,
): { rootfs?: CtMountSpec; mounts: Record<string, CtMountSpec>; placement: DiskPlacement } {
  const { errors, platform } = inputs;
  const storage = inputs.storage ?? "";
  const unit = config.defaults.diskUnit;
  const sizes = diskSizes(record, config).map((s) => ({
    ...s,
    bytes: Number.isInteger(s.size) && s.size > 0 ? s.size * UNIT_BYTES[unit] : undefined,
  }));
  if (sizes.length === 0 && platform.size !== undefined)
    sizes.push({ label: "container.size", size: 0, bytes: tryParseSize(platform.size) });
  if (sizes.length === 0)
    errors.push(
      "has no virtual disks and no disk size; add a virtual disk in NetBox, or set `container.size` on the platform (or `defaults.diskSize`)",
    );
  const mounts: Record<string, CtMountSpec> = {};
  let rootfs: CtMountSpec | undefined;
  const valid = sizes.map((disk) => disk.bytes !== undefined && disk.bytes >= MIB);
  sizes.forEach((disk, i) => {
    if (!valid[i]) errors.push(`${disk.label} has size ${disk.size} ${unit}; a volume needs a positive size of at least 1 MiB`);
  });
  const placement = placeRecordDisks(sizes, config, { candidates: MOUNT_SLOTS, fixed: "rootfs" }, inputs.layout);
  for (const { slot, disk: i } of placement.slots) {
    const disk = sizes[i]!;
    if (!valid[i] || disk.bytes === undefined) continue;
    if (slot === "rootfs") {
      rootfs = { storage, sizeBytes: disk.bytes, options: {} };
      continue;
    }
    if (!disk.name?.startsWith("/")) {
      errors.push(
        `${disk.label}: a container's further disks are mount points; name the virtual disk after where it is mounted (e.g. /data)`,
      );
      continue;
    }
    mounts[slot] = { storage, sizeBytes: disk.bytes, mountpoint: disk.name, options: {} };
  }
  return { ...(rootfs ? { rootfs } : {}), mounts, placement };
}

function nics(
  record: NetboxVmRecord,
  config: NetboxConfig,
  inputs: ContainerInputs,
): { nics: Record<string, CtNicSpec>; bindings: NicBinding[] } {
  const { errors, platform, cluster } = inputs;
  const bridge = platform.bridge ?? cluster?.bridge ?? config.defaults.bridge;
  if (record.interfaces.length > MAX_NICS)
    errors.push(`has ${record.interfaces.length} interfaces; a container holds at most ${MAX_NICS} NICs`);
  if (record.interfaces.length > 0 && bridge === undefined && cluster)
    errors.push(
      `no bridge for the NICs: set \`container.bridge\` on the platform, \`clusters.${cluster.name}.bridge\` or \`defaults.bridge\``,
    );
  const out: Record<string, CtNicSpec> = {};
  const bindings: NicBinding[] = [];
  record.interfaces.slice(0, MAX_NICS).forEach((iface, i) => {
    const slot = `net${i}`;
    const options: Record<string, string> = {};
    for (const [key, value] of Object.entries(vlansOf(iface))) options[key] = canonical(value);
    // The interface's NetBox addresses (gateway: the platform's, else the prefix's).
    const a = addressesOn(record, iface.id, i);
    options.ip = a.ip4 ?? platform.ip ?? "dhcp";
    const platformKey = `platforms.${record.vm.platform?.slug ?? config.defaults.platform ?? ""}.container.gw`;
    const gateway = ipv4GatewayOf(a, platform.gw, platformKey);
    const clash = gatewayProblem(iface.name, a, gateway, platformKey);
    if (clash) errors.push(clash);
    if (a.ip4 !== undefined && gateway !== undefined) options.gw = gateway.address;
    if (a.ip6 !== undefined) {
      options.ip6 = a.ip6;
      if (a.gw6 !== undefined) options.gw6 = a.gw6;
    }
    if (iface.mtu !== null && iface.mtu !== undefined) options.mtu = String(iface.mtu);
    if (iface.enabled === false) options.link_down = "1";
    const nic: CtNicSpec = { name: INTERFACE_NAME.test(iface.name) ? iface.name : `eth${i}`, options };
    if (bridge !== undefined) nic.bridge = bridge;
    if (iface.mac_address) nic.hwaddr = iface.mac_address.toUpperCase();
    const problems: string[] = [];
    checkCtDevice(slot, nic, [], {
      add: (path, message) => problems.push(`interface ${iface.name}${path.length ? ` (${path.join(".")})` : ""}: ${message}`),
    });
    errors.push(...problems);
    out[slot] = nic;
    bindings.push({ slot, interfaceId: iface.id, interfaceName: iface.name });
  });
  return { nics: out, bindings };
}

/** Plain config keys: the record's size, the platform's container settings. */
function options(inputs: ContainerInputs): Record<string, string> {
  const { platform } = inputs;
  const out: Record<string, string> = {};
  if (inputs.cores !== undefined) out.cores = String(inputs.cores);
  if (inputs.memory !== undefined) out.memory = String(inputs.memory);
  if (platform.swap !== undefined) out.swap = String(platform.swap);
  if (platform.unprivileged !== undefined) out.unprivileged = canonical(platform.unprivileged);
  if (platform.ostype !== undefined) out.ostype = platform.ostype;
  if (platform.features !== undefined) out.features = printCtFeatures(platform.features);
  if (platform.nameserver?.length) out.nameserver = platform.nameserver.join(" ");
  if (platform.searchdomain?.length) out.searchdomain = platform.searchdomain.join(" ");
  return out;
}

export function mapContainer(record: NetboxVmRecord, config: NetboxConfig, inputs: ContainerInputs): MappingResult {
  const { errors, cluster, node } = inputs;
  const { rootfs, mounts, placement } = volumes(record, config, inputs);
  const { nics: ctNics, bindings } = nics(record, config, inputs);
  if (errors.length > 0 || !cluster || node === undefined || inputs.cores === undefined || inputs.memory === undefined)
    return { ok: false, record, errors };
  const mapped: ContainerSpec = {
    kind: "container",
    ...(inputs.vmid !== undefined ? { vmid: inputs.vmid } : {}),
    name: record.vm.name,
    node,
    ...(cluster.connection !== undefined ? { connection: cluster.connection } : {}),
    state: "present",
    ...(config.defaults.power !== undefined ? { power: config.defaults.power } : {}),
    ostemplate: inputs.platform.ostemplate,
    options: options(inputs),
    ...(inputs.tags !== undefined ? { tags: [...inputs.tags, ...placement.tags].sort() } : {}),
    ...(rootfs ? { rootfs } : {}),
    mounts,
    // Volumes that cannot be matched to virtual disks are left as they are (the plan carries the error).
    ...(placement.errors.length > 0 ? { unmanaged: ["mounts" as const] } : {}),
    nics: ctNics,
    source: { file: `netbox:virtualization/virtual-machines/${record.vm.id}`, line: 1, column: 1 },
  };
  const spec = inputs.template ? applyCtTemplate(mapped, inputs.template) : mapped;
  return { ok: true, record, spec, cluster: cluster.name, nics: bindings, diskNotes: placement.notes, diskErrors: placement.errors };
}
