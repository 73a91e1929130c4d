// VmSpec (the validated spec model) -> DesiredVm (the engine's normalized view).
// Every value is put in the same canonical form the live side is read into.

import { guestSubSchema, printBoot, printDrive, printIpconfig, printPropertyString } from "../../pve/index.js";
import { canonical } from "../formats.js";
import type { DesiredDisk, DesiredNic, DesiredVm } from "./model.js";
import { normalizeOption } from "./options.js";
import { type SpecField, type SpecKind, specFieldRowsInWritingOrder } from "./options-table.js";
import { PureResults } from "../spec-section/accepted-memo.js";
import type { AgentSpec, DiskSpec, NicSpec, VmSpec } from "./spec-model.js";

function diskOptions(spec: DiskSpec): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(spec.options)) {
    if (value === undefined) continue;
    // `discard: true` in a spec is PVE's `discard=on`.
    if (key === "discard" && typeof value === "boolean") out.discard = value ? "on" : "ignore";
    else out[key] = canonical(value);
  }
  return out;
}

function nicOptions(nic: NicSpec): Record<string, string> {
  const out: Record<string, string> = {};
  const set = (key: string, value: string | number | boolean | undefined) => {
    if (value !== undefined) out[key] = canonical(value);
  };
  set("tag", nic.tag);
  set("mtu", nic.mtu);
  set("queues", nic.queues);
  set("firewall", nic.firewall);
  set("rate", nic.rate);
  set("link_down", nic.linkDown);
  set("trunks", nic.trunks);
  return out;
}

type PveValue = string | number | boolean;

// Printing an option, the boot order, the agent or the EFI disk depends on nothing but its
// input, and a large spec repeats the same few values on every VM: each distinct one is printed once.
const normalizedOptions = new PureResults<string>();
const agentValues = new PureResults<string | null>();
const efidiskValues = new PureResults<string>();
const bootValues = new PureResults<string>();

function agentValue(agent: AgentSpec): string | undefined {
  return agentValues.get(JSON.stringify(agent), () => printAgent(agent) ?? null) ?? undefined;
}

function printAgent(agent: AgentSpec): string | undefined {
  const rest: Record<string, string> = {};
  if (agent.freezeFs !== undefined) rest["freeze-fs"] = canonical(agent.freezeFs);
  if (agent.fstrimClonedDisks !== undefined) rest.fstrim_cloned_disks = canonical(agent.fstrimClonedDisks);
  if (agent.type !== undefined) rest.type = agent.type;
  const schema = guestSubSchema("qemu", "agent");
  return schema ? printPropertyString({ enabled: canonical(agent.enabled), ...rest }, schema, { key: "agent" }) : undefined;
}

/** Kinds whose normalized value is already what PVE is given. */
const asIs = (value: unknown) => value as PveValue;

/** Each spec kind's normalized value (SpecKind) -> the value PVE is given; undefined: not written. */
const KIND_VALUES: Record<Exclude<SpecKind, "own">, (value: unknown) => PveValue | undefined> = {
  pve: asIs,
  "pve-string": asIs,
  MiB: asIs,
  "default-key": asIs,
  "boot-order": (value) => bootValues.get(JSON.stringify(value), () => printBoot(value as string[])),
  agent: (value) => agentValue(value as AgentSpec),
  "ssh-keys": (value) => `${(value as string[]).join("\n")}\n`,
  addresses: (value) => (value as string[]).join(" "),
  words: (value) => (value as string[]).join(" "),
};

/** The options table's fields the spec sets on the VM or in a section, by PVE key. */
function tableOptions(section: SpecField["section"], from: object, set: (key: string, value: PveValue | undefined) => void): void {
  // Own fields only (as a copy would hold), without copying the VM for each section.
  const values = from as Record<string, unknown>;
  for (const { row, spec } of specFieldRowsInWritingOrder(section)) {
    const value = Object.hasOwn(values, spec.field) ? values[spec.field] : undefined;
    if (spec.kind !== "own" && value !== undefined) set(row.key, KIND_VALUES[spec.kind](value));
  }
}

/** Plain config keys the spec sets, in PVE's names and canonical form. */
function specOptions(vm: VmSpec): Record<string, string> {
  const options: Record<string, string> = {};
  const set = (key: string, value: PveValue | undefined) => {
    if (value !== undefined)
      options[key] = normalizedOptions.get(`${key}\u0000${typeof value}\u0000${value}`, () => normalizeOption(key, value));
  };
  tableOptions(undefined, vm, set);
  const ci = vm.cloudInit;
  if (ci) {
    tableOptions("cloudInit", ci, set);
    for (const [key, ip] of Object.entries(ci.ipconfig ?? {})) {
      const parts: Record<string, string> = {};
      if (ip.ip !== undefined) parts.ip = ip.ip;
      if (ip.gw !== undefined) parts.gw = ip.gw;
      if (ip.ip6 !== undefined) parts.ip6 = ip.ip6;
      if (ip.gw6 !== undefined) parts.gw6 = ip.gw6;
      set(key, printIpconfig(parts, key));
    }
  }
  for (const [key, value] of Object.entries(vm.extraConfig)) set(key, value);
  return options;
}

export function desiredVmFromSpec(vm: VmSpec): DesiredVm {
  const disks: DesiredDisk[] = [];
  for (const [slot, disk] of Object.entries(vm.disks)) {
    const options = diskOptions(disk);
    disks.push({
      slot,
      kind: "disk",
      ...(disk.storage !== undefined ? { storage: disk.storage } : {}),
      ...(disk.sizeBytes !== undefined ? { sizeBytes: disk.sizeBytes } : {}),
      options,
      ...(disk.format !== undefined ? { format: disk.format } : {}),
      ...(disk.importFrom !== undefined ? { importFrom: disk.importFrom } : {}),
    });
  }
  for (const [slot, cdrom] of Object.entries(vm.cdroms)) {
    disks.push({ slot, kind: "cdrom", ...(cdrom.iso !== undefined ? { iso: cdrom.iso } : {}), options: {} });
  }
  if (vm.cloudInit) {
    const { slot, storage } = vm.cloudInit;
    disks.push({ slot, kind: "cloudinit", ...(storage !== undefined ? { storage } : {}), options: {} });
  }
  const nics: DesiredNic[] = Object.entries(vm.nics).map(([slot, nic]) => ({
    slot,
    ...(nic.model !== undefined ? { model: nic.model } : {}),
    bridge: nic.bridge,
    ...(nic.macaddr !== undefined ? { macaddr: nic.macaddr.toUpperCase() } : {}),
    options: nicOptions(nic),
  }));
  const special: Record<string, string> = {};
  if (vm.efidisk) {
    const rest: Record<string, string> = {};
    if (vm.efidisk.efitype !== undefined) rest.efitype = vm.efidisk.efitype;
    if (vm.efidisk.format !== undefined) rest.format = vm.efidisk.format;
    if (vm.efidisk.preEnrolledKeys !== undefined) rest["pre-enrolled-keys"] = canonical(vm.efidisk.preEnrolledKeys);
    const parts = { ...rest, file: `${vm.efidisk.storage}:1` };
    special.efidisk0 = efidiskValues.get(JSON.stringify(parts), () => printDrive("efidisk0", parts));
  }
  if (vm.tpm) {
    special.tpmstate0 = printDrive("tpmstate0", { file: `${vm.tpm.storage}:1`, ...(vm.tpm.version ? { version: vm.tpm.version } : {}) });
  }
  return {
    kind: "qemu",
    key: vm.name,
    name: vm.name,
    ...(vm.vmid !== undefined ? { vmid: vm.vmid } : {}),
    node: vm.node,
    options: specOptions(vm),
    // Left out: tags are not managed (the guest keeps its own); only a create adds the ownership tag.
    ...(vm.tags !== undefined ? { tags: [...vm.tags].sort() } : {}),
    disks,
    nics,
    special,
    ...(vm.detach !== undefined ? { detach: [...vm.detach] } : {}),
    ...(vm.unmanaged !== undefined && vm.unmanaged.length > 0 ? { unmanaged: [...vm.unmanaged] } : {}),
    ...(vm.power !== undefined ? { power: vm.power } : {}),
    ...(vm.template !== undefined ? { template: vm.template } : {}),
    ...(vm.state === "absent" ? { absent: true } : {}),
    ...(vm.pool !== undefined ? { pool: vm.pool } : {}),
    ...(vm.adopt === true ? { adopt: true } : {}),
    ...(vm.snapshots !== undefined ? { snapshots: { ...vm.snapshots } } : {}),
    ...(vm.clone !== undefined ? { clone: { ...vm.clone } } : {}),
  };
}
