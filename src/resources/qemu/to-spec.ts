// LiveVm -> a VM in the spec file's own shape (what a person writes in YAML), for `pvectl show`
// and `pvectl import`. Planning a spec written this way against the same guest finds nothing
// to change.
import { getEndpoint, paramSchema } from "../../schema/index.js";
import type { SubSchema } from "../../schema/types.js";
import { driveBusOf, formatSize, storageOfVolume } from "../../pve/index.js";
import { canonical, configParts } from "../formats.js";
import { type LiveVm, OWNERSHIP_TAG } from "./model.js";

export type RawValue = string | number | boolean | string[] | RawObject | undefined;
export interface RawObject {
  [key: string]: RawValue;
}

/** Config keys PVE writes for itself: never part of a desired state. */
const NOISE = new Set(["meta", "smbios1", "vmgenid", "digest", "lock", "parent", "snaptime", "vmstate", "runningmachine", "runningcpu", "template", "bootdisk"]);
const STRUCTURED = new Set([
  "cores",
  "sockets",
  "cpu",
  "memory",
  "balloon",
  "machine",
  "bios",
  "ostype",
  "scsihw",
  "onboot",
  "description",
  "boot",
  "agent",
  "efidisk0",
  "tpmstate0",
  "ciuser",
  "sshkeys",
  "nameserver",
  "searchdomain",
  "ciupgrade",
  "citype",
  "cipassword",
]);

function num(value: string | undefined): number | undefined {
  if (value === undefined || !/^-?\d+(\.\d+)?$/.test(value)) return undefined;
  return Number(value);
}

function bool(value: string | undefined): boolean | undefined {
  return value === undefined ? undefined : value === "1";
}

function drop<T extends RawObject>(object: T): T {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}

/** The drive property-string keys of a slot's bus, from PVE's schema (for their types). */
function driveSchema(slot: string): SubSchema {
  const bus = driveBusOf(slot);
  const endpoint = getEndpoint("PUT", "/nodes/{node}/qemu/{vmid}/config");
  const format = bus && endpoint ? paramSchema(endpoint, `${bus}0`)?.format : undefined;
  return typeof format === "object" ? format : {};
}

function driveOptions(slot: string, options: Record<string, string>): RawObject {
  const schema = driveSchema(slot);
  const out: RawObject = {};
  for (const [key, value] of Object.entries(options)) {
    if (key === "format" || key === "import-from") continue;
    const type = schema[key]?.type;
    out[key] = type === "boolean" ? value === "1" : type === "integer" || type === "number" ? Number(value) : value;
  }
  return out;
}

export function liveToSpecVm(live: LiveVm): RawObject {
  const o = live.options;
  const vm: RawObject = {
    vmid: live.vmid,
    name: live.name ?? `vm${live.vmid}`,
    node: live.node,
    // Importing a guest pvectl did not create is the operator's choice to manage it: the spec
    // says so in writing (and its plan shows the adoption step) rather than being refused.
    adopt: live.tags.includes(OWNERSHIP_TAG) ? undefined : true,
    pool: live.pool,
    power: live.status,
    cores: num(o.cores),
    sockets: num(o.sockets),
    cpu: o.cpu,
    memory: num(configParts("memory", o.memory ?? "")?.current),
    balloon: num(o.balloon),
    machine: o.machine,
    bios: o.bios as string | undefined,
    ostype: o.ostype,
    scsihw: o.scsihw,
    onboot: bool(o.onboot),
    description: o.description,
  };
  if (o.boot !== undefined) {
    const order = configParts("boot", o.boot)?.order;
    if (order) vm.boot = order.split(";");
  }
  if (o.agent !== undefined) {
    const agent = configParts("agent", o.agent) ?? {};
    const rest = drop({
      fstrimClonedDisks: bool(agent.fstrim_cloned_disks),
      // PVE's schema reads the older spellings (guest-fsfreeze, freeze-fs-on-backup) as `freeze-fs`.
      freezeFs: bool(agent["freeze-fs"]),
      type: agent.type,
    });
    vm.agent = Object.keys(rest).length === 0 ? agent.enabled === "1" : { enabled: agent.enabled === "1", ...rest };
  }
  const tags = live.tags.filter((t) => t !== OWNERSHIP_TAG);
  if (tags.length > 0) vm.tags = tags;
  if (o.efidisk0 !== undefined) {
    const efi = configParts("efidisk0", o.efidisk0) ?? {};
    vm.efidisk = drop({
      storage: storageOfVolume(efi.file ?? "") ?? "",
      efitype: efi.efitype,
      preEnrolledKeys: bool(efi["pre-enrolled-keys"]),
    });
  }
  if (o.tpmstate0 !== undefined) {
    const tpm = configParts("tpmstate0", o.tpmstate0) ?? {};
    vm.tpm = drop({ storage: storageOfVolume(tpm.file ?? "") ?? "", version: tpm.version });
  }
  const disks: RawObject = {};
  const cdroms: RawObject = {};
  let cloudInit: RawObject | undefined;
  for (const disk of Object.values(live.disks).sort((a, b) => a.slot.localeCompare(b.slot, "en", { numeric: true }))) {
    if (disk.kind === "cdrom") cdroms[disk.slot] = disk.volume === "none" ? {} : { iso: disk.volume };
    else if (disk.kind === "cloudinit") cloudInit = { slot: disk.slot, storage: disk.storage ?? "" };
    else {
      disks[disk.slot] = drop({
        storage: disk.storage ?? "",
        size: disk.sizeBytes !== undefined ? formatSize(disk.sizeBytes) : undefined,
        ...driveOptions(disk.slot, disk.options),
      });
    }
  }
  if (Object.keys(disks).length) vm.disks = disks;
  if (Object.keys(cdroms).length) vm.cdroms = cdroms;
  const nics: RawObject = {};
  for (const nic of Object.values(live.nics).sort((a, b) => a.slot.localeCompare(b.slot, "en", { numeric: true }))) {
    nics[nic.slot] = drop({
      model: nic.model,
      bridge: nic.bridge ?? "",
      tag: num(nic.options.tag),
      mtu: num(nic.options.mtu),
      queues: num(nic.options.queues),
      firewall: bool(nic.options.firewall),
      rate: num(nic.options.rate),
      linkDown: bool(nic.options.link_down),
      trunks: nic.options.trunks,
      macaddr: nic.macaddr,
    });
  }
  if (Object.keys(nics).length) vm.nics = nics;
  if (cloudInit) {
    const ipconfig: RawObject = {};
    for (const [key, value] of Object.entries(o)) {
      if (!/^ipconfig\d+$/.test(key)) continue;
      const parts = configParts(key, value) ?? {};
      ipconfig[key] = drop({ ip: parts.ip, gw: parts.gw, ip6: parts.ip6, gw6: parts.gw6 });
    }
    Object.assign(
      cloudInit,
      drop({
        user: o.ciuser,
        sshKeys: o.sshkeys !== undefined ? o.sshkeys.split("\n").filter((k) => k.trim() !== "") : undefined,
        ipconfig: Object.keys(ipconfig).length ? ipconfig : undefined,
        nameservers: o.nameserver !== undefined ? o.nameserver.split(/\s+/) : undefined,
        searchDomains: o.searchdomain !== undefined ? o.searchdomain.split(/\s+/) : undefined,
        upgrade: bool(o.ciupgrade),
        type: o.citype,
      }),
    );
    vm.cloudInit = cloudInit;
  }
  const extra: RawObject = {};
  for (const [key, value] of Object.entries(o)) {
    if (NOISE.has(key) || STRUCTURED.has(key) || /^(ipconfig|unused)\d+$/.test(key)) continue;
    extra[key] = /^-?\d+(\.\d+)?$/.test(value) ? Number(canonical(value)) : value;
  }
  if (Object.keys(extra).length) vm.extraConfig = extra;
  return drop(vm);
}
