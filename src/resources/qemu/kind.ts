// The qemu kind as the engine sees it (resources/kind.ts).
import { getQemuConfig, getQemuPending, getQemuStatus } from "../../api/endpoints/index.js";
import type { GuestKind } from "../kind.js";
import { type GuestTaskTypes, taskTypeOf } from "../task-types.js";
import { planClone } from "./clone.js";
import { qemuDesiredVolumes, qemuDevices, qemuDiskSizes, qemuLiveVolumes } from "./devices.js";
import { qemuEndpoints } from "./endpoints.js";
import { qemuCalls } from "./calls.js";
import { planCreate, planNewGuest, planUpdate } from "./diff.js";
import type { DesiredVm, LiveVm } from "./model.js";
import { qemuCallNeeds } from "./privileges.js";
import { liveVmFromConfig, liveVmFromPending } from "./read.js";
import { desiredVmFromSpec } from "./spec-desired.js";
import { normalizeVmEntry, vmEntrySchema } from "./spec-entry.js";
import { vmKeyMessage } from "./spec-issues.js";
import { describeVm, type VmSpec } from "./spec-model.js";
import { qemuDestroyedVolumes, volumeOwner } from "./steps.js";
import { liveToSpecVm } from "./to-spec.js";
import { qemuCallLanded } from "./verify.js";

/** qemu-server's worker types, by what a call does. */
const TASK_TYPES: GuestTaskTypes = {
  create: "qmcreate",
  clone: "qmclone",
  configPost: "qmconfig",
  resize: "resize",
  moveVolume: "qmmove",
  migrate: "qmigrate",
  destroy: "qmdestroy",
  template: "qmtemplate",
  restore: "qmrestore",
  power: { start: "qmstart", shutdown: "qmshutdown", stop: "qmstop", reboot: "qmreboot" },
  snapshot: { create: "qmsnapshot", delete: "qmdelsnapshot", rollback: "qmrollback" },
};

export const qemuKind: GuestKind<DesiredVm, LiveVm, VmSpec, "vms"> = {
  type: "qemu",
  // The object literals here name only functions of the folder (hoisted): this module is
  // evaluated inside the registry's import cycle, before some of the folder's constants.
  spec: {
    key: "vms",
    description: "QEMU virtual machines.",
    schema: vmEntrySchema,
    normalize: normalizeVmEntry,
    nameField: "name",
    describe: describeVm,
    unknownKeyMessage: vmKeyMessage,
    toDesired: desiredVmFromSpec,
  },
  specKind: "vm",
  noun: "VM",
  nameKey: "name",
  volumeContent: { type: "images", described: "VM disks (content images)" },
  haPrefix: "vm",
  rules: {
    fullCloneNeedsStoppedSource: false,
    linksFromSnapshot: false,
    linksOnFileStorages: true,
    templateRefusesOrdinaryVolumes: false,
    snapshotsSaveRam: true,
    configPost: true,
    recordsCreationTime: true,
    restoreReadsArchiveStorages: false,
  },
  endpoints: qemuEndpoints,
  restoreParams: (archive) => ({ archive }),
  absent: (identity) => ({ kind: "qemu", ...identity, options: {}, nics: [], absent: true, disks: [], special: {} }),
  powerCall: (node, vmid, action) => qemuCalls.power(node, vmid, action),
  desiredVolumes: qemuDesiredVolumes,
  liveVolumes: qemuLiveVolumes,
  diskSizes: qemuDiskSizes,
  read: { config: getQemuConfig, pending: getQemuPending, status: getQemuStatus },
  fromPending: liveVmFromPending,
  fromConfig: liveVmFromConfig,
  plan: {
    create: (vm, source) => (vm.clone !== undefined && source !== undefined ? planClone(vm, vm.clone, source) : planCreate(vm)),
    update: planUpdate,
    idle: (vm, errors) => planNewGuest(vm, [], errors),
  },
  destruction: {
    volumes: qemuDestroyedVolumes,
    volumeOwner,
    title: (live) => live.name ?? "guest",
    alsoDeletes: () => "",
    lockedNoun: "guest",
    call: (node, vmid) => qemuCalls.destroy(node, vmid),
    power: (node, vmid, action, params) => qemuCalls.power(node, vmid, action, params),
  },
  devices: qemuDevices,
  toSpec: liveToSpecVm,
  tasks: TASK_TYPES,
  taskType: (call) => taskTypeOf(TASK_TYPES, call),
  landed: (call, guest, pending) => qemuCallLanded(call, liveVmFromPending({ ...guest, status: "stopped" }, pending)),
  callNeeds: qemuCallNeeds,
};
