// LiveVm -> a VM in the spec file's own shape (what a person writes in YAML), for `pvectl show`
// and `pvectl import`. Planning a spec written this way against the same guest finds nothing
// to change.

import { userTags } from "../placement-record.js";
import { driveBusOf, formatSize, isUnusedKey, isVmDriveKey, storageOfVolume } from "../../pve/index.js";
import { getEndpoint, paramSchema } from "../../schema/index.js";
import type { SubSchema } from "../../schema/types.js";
import { canonical, configParts } from "../formats.js";
import { type LiveVm, OWNERSHIP_TAG } from "./model.js";
import { bool, drop, importRuleOf, num, type RawObject, specFields } from "./to-spec-options.js";

export type { RawObject, RawValue } from "./to-spec-options.js";

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
    // A template is never started: `template: true` says all there is about its power.
    ...(live.template ? { template: true } : { power: live.status }),
    ...specFields(undefined, o),
  };
  // pvectl's own tags (ownership, placement record) are not the spec's.
  const tags = userTags(live.tags);
  if (tags.length > 0) vm.tags = tags;
  if (o.efidisk0 !== undefined) {
    const efi = configParts("efidisk0", o.efidisk0, "qemu") ?? {};
    vm.efidisk = drop({
      storage: storageOfVolume(efi.file ?? "") ?? "",
      efitype: efi.efitype,
      preEnrolledKeys: bool(efi["pre-enrolled-keys"]),
    });
  }
  if (o.tpmstate0 !== undefined) {
    const tpm = configParts("tpmstate0", o.tpmstate0, "qemu") ?? {};
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
    Object.assign(cloudInit, specFields("cloudInit", o));
    vm.cloudInit = cloudInit;
  }
  const extra: RawObject = {};
  for (const [key, value] of Object.entries(o)) {
    if (isVmDriveKey(key) || isUnusedKey(key) || importRuleOf(key) !== "extraConfig") continue;
    extra[key] = /^-?\d+(\.\d+)?$/.test(value) ? Number(canonical(value)) : value;
  }
  if (Object.keys(extra).length) vm.extraConfig = extra;
  return drop(vm);
}
