// The checks a plan makes on spec values, made while the spec is loaded. Planning turns a VM
// into PVE config values (desiredVmFromSpec) and prints every NIC and drive with PVE's schema
// (printDesiredNic, newVolumeString, cdromString); PVE then checks each parameter
// (validateValue, which the simulator shares). None of that needs a cluster, so the same
// functions run here: a value PVE would refuse (a multicast MAC, an IPv4 address with an octet
// above 255, an over-long description) fails `validate` at its position instead of failing
// `plan` with no position.
import { PveFormatError } from "../../pve/errors.js";
import { PropertyStringError } from "../../pve/property-string.js";
import { validateValue } from "../../pve/validate.js";
import { cdromString, newVolumeString } from "./disk-values.js";
import type { DesiredDisk } from "./model.js";
import { printDesiredNic } from "./nic-diff.js";
import { writeValue } from "./options.js";
import { qemuOption, specFieldOf } from "./options-table.js";
import { AcceptedInputs } from "../spec-section/accepted-memo.js";
import type { SpecPath } from "../spec-section/issues.js";
import type { VmSpec } from "./spec-model.js";
import { ownEntry } from "../spec-section/own.js";
import { configKeySchema } from "./spec-facts.js";
import { desiredVmFromSpec } from "./spec-desired.js";

export interface PlanValueProblem {
  /** Relative to the VM. */
  path: SpecPath;
  message: string;
}

/** Drives with a section of their own. */
const FIELD_OF_KEY: Record<string, SpecPath> = {
  efidisk0: ["efidisk"],
  tpmstate0: ["tpm"],
};

/** The spec field the options table gives config key `key` (`ciuser` -> cloudInit.user); not `own` ones. */
function optionFieldPath(key: string): SpecPath | undefined {
  const row = qemuOption(key);
  const spec = row && specFieldOf(row);
  if (!spec || spec.kind === "own") return undefined;
  return spec.section !== undefined ? [spec.section, spec.field] : [spec.field];
}

/** Why a MAC PVE refuses is usually refused: its first octet is odd. */
const MAC_HINT = " (a NIC needs a unicast MAC: the first octet must be even, e.g. BC:24:11:...)";

/** Spec NIC fields under other names in PVE's net property string. */
const NIC_FIELD_OF: Record<string, string> = { link_down: "linkDown", virtio: "macaddr", e1000: "macaddr" };

/** Where the spec wrote PVE config key `key` (`net0.macaddr`, `ipconfig1.ip`, `scsi0.serial` ...). */
function specPathOf(vm: VmSpec, key: string): SpecPath {
  const [top = "", sub] = key.split(".");
  if (top === "") return [];
  const mapped = optionFieldPath(top) ?? ownEntry(FIELD_OF_KEY, top);
  if (mapped) return mapped;
  if (/^ipconfig\d+$/.test(top)) return ["cloudInit", "ipconfig", top, ...(sub ? [sub] : [])];
  if (/^net\d+$/.test(top)) return ["nics", top, ...(sub ? [ownEntry(NIC_FIELD_OF, sub) ?? sub] : [])];
  if (Object.hasOwn(vm.cdroms, top)) return ["cdroms", top, ...(sub === "file" ? ["iso"] : [])];
  if (vm.cloudInit?.slot === top) return ["cloudInit"];
  if (Object.hasOwn(vm.disks, top)) {
    const field = sub === "file" ? "storage" : sub === "import-from" ? "importFrom" : sub;
    return ["disks", top, ...(field ? [field] : [])];
  }
  if (Object.hasOwn(vm.extraConfig, top)) return ["extraConfig", top];
  return [top];
}

/** One problem per PVE error key, or one for the whole value when PVE gives no keys. */
function problemsOf(vm: VmSpec, key: string, err: unknown): PlanValueProblem[] {
  if (err instanceof PropertyStringError && Object.keys(err.errors).length > 0) {
    // printNet names every NIC `net0` in its errors: the slot being printed is `key`.
    const under = (where: string): string => (key === "" ? where : `${key}.${where.split(".").slice(1).join(".")}`);
    return Object.entries(err.errors).map(([where, message]) => {
      const path = specPathOf(vm, under(where));
      const hint = path[path.length - 1] === "macaddr" ? MAC_HINT : "";
      return { path, message: `PVE would refuse this: ${message.trim().replace(/\n/g, "; ")}${hint}` };
    });
  }
  if (err instanceof PveFormatError)
    return [{ path: specPathOf(vm, key), message: `PVE would refuse this: ${err.pveMessage.replace(/\n/g, "; ")}` }];
  throw err;
}

/** Returns false when `print` throws (its problems added to `out`). */
function attempt(vm: VmSpec, key: string, print: () => unknown, out: PlanValueProblem[]): boolean {
  try {
    print();
    return true;
  } catch (err) {
    out.push(...problemsOf(vm, key, err));
    return false;
  }
}

// Printing a NIC or a drive and PVE's parameter check depend on nothing but their input.
const printedNics = new AcceptedInputs();
const printedDrives = new AcceptedInputs();
const checkedValues = new AcceptedInputs();

function driveString(disk: DesiredDisk): string {
  return disk.kind === "cdrom" ? cdromString(disk) : newVolumeString(disk);
}

/** A copy of `vm` without the field at `path` (at most three levels: an ipconfig entry, boot ...). */
function withoutField(vm: VmSpec, path: SpecPath): VmSpec {
  const copy = structuredClone(vm);
  const steps = path.slice(0, 3);
  let parent: Record<string | number, unknown> = copy as unknown as Record<string, unknown>;
  for (const step of steps.slice(0, -1)) {
    const next = parent[step];
    if (next === null || typeof next !== "object") return copy;
    parent = next as Record<string | number, unknown>;
  }
  delete parent[steps[steps.length - 1] as string | number];
  return copy;
}

/**
 * The VM as planning sees it. desiredVmFromSpec stops at the first value it cannot print; the
 * field is reported, left out and the rest converted again, so every such field is reported.
 */
function desiredOf(vm: VmSpec, out: PlanValueProblem[]): ReturnType<typeof desiredVmFromSpec> | undefined {
  let current = vm;
  for (let round = 0; round < 32; round++) {
    const found: PlanValueProblem[] = [];
    try {
      return desiredVmFromSpec(current);
    } catch (err) {
      found.push(...problemsOf(current, "", err));
    }
    out.push(...found);
    if (found.some((problem) => problem.path.length === 0)) return undefined;
    const before = JSON.stringify(current);
    for (const problem of found) current = withoutField(current, problem.path);
    // Nothing left to take out: the same problem would only come back.
    if (JSON.stringify(current) === before) return undefined;
  }
  return undefined;
}

/** The field a reported path names, cut at a list index: a list (sshKeys, boot) goes out whole, never with a hole. */
function fieldOf(path: SpecPath): SpecPath {
  const index = path.findIndex((step) => typeof step === "number");
  return index > 0 ? path.slice(0, index) : path;
}

/** Whether one path is the other or lies under it. */
function overlaps(a: SpecPath, b: SpecPath): boolean {
  const n = Math.min(a.length, b.length);
  return a.slice(0, n).every((step, i) => step === b[i]);
}

/**
 * What planning this VM would refuse, each at the spec field it comes from. `reported`: the
 * fields already reported as problems (relative to the VM); they are left out of the check and
 * nothing more is said about them, while every other field is still checked in the same run.
 */
export function planValueProblems(vm: VmSpec, reported: readonly SpecPath[] = []): PlanValueProblem[] {
  if (reported.length === 0) return valueProblems(vm);
  const fields = reported.map(fieldOf);
  const rest = fields.reduce((copy, field) => withoutField(copy, field), vm);
  return valueProblems(rest).filter((problem) => !fields.some((field) => overlaps(field, problem.path)));
}

function valueProblems(vm: VmSpec): PlanValueProblem[] {
  const out: PlanValueProblem[] = [];
  const desired = desiredOf(vm, out);
  if (!desired) return out;
  for (const nic of desired.nics) printedNics.check(JSON.stringify(nic), () => attempt(vm, nic.slot, () => printDesiredNic(nic), out));
  for (const disk of desired.disks) printedDrives.check(JSON.stringify(disk), () => attempt(vm, disk.slot, () => driveString(disk), out));
  // The parameter check PVE runs on every value the plan sends.
  for (const [key, value] of Object.entries({ name: vm.name, ...desired.options })) {
    checkedValues.check(`${key}\u0000${value}`, () => {
      const schema = configKeySchema(key);
      const error = schema ? validateValue(schema, writeValue(key, value), key).error : undefined;
      if (error !== undefined)
        out.push({ path: specPathOf(vm, key), message: `PVE would refuse this: ${error.trim().replace(/\n/g, "; ")}` });
      return error === undefined;
    });
  }
  return out;
}
