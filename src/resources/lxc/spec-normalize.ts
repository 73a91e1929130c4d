// From a container as written (already shape-checked by zod) to the normalized ContainerSpec:
// hostname and its alias, values into PVE's text (MiB, feature flags, lists), the checks PVE's
// API would make on each value, rootfs and mount points, NICs, and the escape hatch.
import { normalizeClone } from "../spec-section/clone.js";
import { dirname, resolve } from "node:path";
import { normaliseTags } from "../../pve/tags.js";
import { validateValue } from "../../pve/validate.js";
import { volumeIdProblem } from "../../pve/volume-id.js";
import { canonical } from "../formats.js";
import { type LxcOption, type LxcSpecKind, lxcSpecFieldRows } from "./options-table.js";
import type { ContainerSpec, CtMountSpec, CtNicSpec } from "./spec-model.js";
import { checkCtExtraConfig } from "./spec-extra-config.js";
import { lxcParam } from "./spec-facts.js";
import { checkCtDevice } from "./spec-devices.js";
import { checkCtParam } from "./spec-param-values.js";
import type { SpecPath } from "../spec-section/issues.js";
import type { SourceLocation } from "../spec-section/issues.js";
import type { IssueSink } from "../spec-section/issues.js";
import { sizeBytes, toMiB } from "../spec-section/sizes.js";
import type { RawCt } from "./spec-schema.js";
import { ctFeaturesValue } from "./spec-values.js";
import { checkSshKeys } from "../spec-section/ssh-key-checks.js";
import { checkTemplatePower } from "../spec-section/template-power.js";

type RawMount = Record<string, unknown> & { storage?: string; size?: string; volume?: string; mountpoint?: string };
type RawNic = Record<string, unknown>;

interface At {
  path: SpecPath;
  sink: IssueSink;
}

/** Each container spec kind's value as written -> PVE's text; undefined after reporting. */
const KIND_VALUES: Record<Exclude<LxcSpecKind, "own">, (value: unknown, row: LxcOption, at: At) => string | undefined> = {
  pve: (value) => canonical(value as string | number | boolean),
  MiB: (value, _row, at) => {
    const mib = toMiB(value as number | string, at.path, at.sink);
    return mib === undefined ? undefined : String(mib);
  },
  features: (value, _row, at) => ctFeaturesValue(value as Record<string, boolean | string[] | undefined>, at.path, at.sink),
  addresses: (value) => (value as string[]).join(" "),
  words: (value) => (value as string[]).join(" "),
};

function oneLine(text: string): string {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .join("; ");
}

/** The options table's fields, in PVE's names and text, each checked as PVE's API would. */
function tableOptions(raw: Record<string, unknown>, path: SpecPath, sink: IssueSink): Record<string, string> {
  const options: Record<string, string> = {};
  for (const { row, spec } of lxcSpecFieldRows()) {
    const value = raw[spec.field];
    if (spec.kind === "own" || value === undefined) continue;
    const at = { path: [...path, spec.field], sink };
    const text = KIND_VALUES[spec.kind](value, row, at);
    if (text === undefined) continue;
    const schema = lxcParam(row.key);
    const error = schema ? validateValue(schema, text, row.key).error : undefined;
    if (error !== undefined) sink.add(at.path, `PVE would refuse this: ${oneLine(error)}`);
    else options[row.key] = text;
  }
  return options;
}

/** Mount options as canonical text (booleans 1/0). */
function mountOptions(raw: RawMount): Record<string, string> {
  const options: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (["storage", "size", "volume", "mountpoint"].includes(key) || value === undefined) continue;
    options[key] = canonical(value as string | number | boolean);
  }
  return options;
}

function normalizeMount(slot: string, raw: RawMount, path: SpecPath, sink: IssueSink): CtMountSpec | undefined {
  const mount: CtMountSpec = { options: mountOptions(raw) };
  if (raw.volume !== undefined) {
    for (const field of ["storage", "size"] as const) {
      if (raw[field] !== undefined)
        sink.add(
          [...path, field],
          `a bind mount (\`volume: ${raw.volume}\`) has no \`${field}\`: leave it out, or drop \`volume\` for a new volume`,
          "key",
        );
    }
    mount.bindPath = raw.volume;
  } else {
    if (raw.storage === undefined || raw.size === undefined) {
      sink.add(
        path,
        `${slot} needs \`storage\` and \`size\` for a new volume (e.g. \`{ storage: local-lvm, size: 8G }\`), or \`volume: /host/path\` for a bind mount`,
        "key",
      );
      return undefined;
    }
    const bytes = sizeBytes(raw.size, [...path, "size"], sink);
    if (bytes === undefined) return undefined;
    mount.storage = raw.storage;
    mount.sizeBytes = bytes;
  }
  if (raw.mountpoint !== undefined) mount.mountpoint = raw.mountpoint;
  return checkCtDevice(slot, mount, path, sink) ? mount : undefined;
}

function normalizeNic(slot: string, raw: RawNic, path: SpecPath, sink: IssueSink): CtNicSpec | undefined {
  const { name, bridge, hwaddr, ...rest } = raw as RawNic & { name?: string; bridge?: string; hwaddr?: string };
  const nic: CtNicSpec = { name: name ?? `eth${slot.slice(3)}`, options: {} };
  if (bridge !== undefined) nic.bridge = bridge;
  if (hwaddr !== undefined) nic.hwaddr = hwaddr.toUpperCase();
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined) nic.options[key] = canonical(value as string | number | boolean);
  }
  if (!checkCtDevice(slot, nic, path, sink)) return undefined;
  return slaacOnHostManaged(nic, path, sink) ? undefined : nic;
}

/**
 * pve-container refuses SLAAC (`ip6: auto`) on a NIC whose addresses the host manages
 * (`host-managed`), unless its link is down (PVE::LXC::Config update_pct_config). Reported here
 * so the refusal comes with a position, not from the create call halfway through an apply.
 */
function slaacOnHostManaged(nic: CtNicSpec, path: SpecPath, sink: IssueSink): boolean {
  const { options } = nic;
  if (options["host-managed"] !== "1" || options.ip6 !== "auto" || options.link_down === "1") return false;
  sink.add(
    [...path, "ip6"],
    "PVE would refuse this: SLAAC (ip6: auto) is not supported for a host-managed NIC; give a static ip6, use dhcp, or leave host-managed out",
  );
  return true;
}

/** The root password's source: one of passwordEnv / passwordFile (a file relative to the spec). */
function passwordOf(raw: RawCt, specFile: string, path: SpecPath, sink: IssueSink): ContainerSpec["password"] {
  if (raw.passwordEnv !== undefined && raw.passwordFile !== undefined) {
    sink.add([...path, "passwordFile"], "give root's password either by `passwordEnv` or by `passwordFile`, not both", "key");
    return undefined;
  }
  if (raw.passwordEnv !== undefined) return { env: raw.passwordEnv };
  if (raw.passwordFile !== undefined) return { file: resolve(dirname(resolve(specFile)), raw.passwordFile) };
  return undefined;
}

function devices(raw: RawCt, ct: ContainerSpec, path: SpecPath, sink: IssueSink): void {
  if (raw.rootfs !== undefined) {
    const rootfs = normalizeMount("rootfs", raw.rootfs as RawMount, [...path, "rootfs"], sink);
    if (rootfs) ct.rootfs = rootfs;
  }
  for (const [slot, mount] of Object.entries(raw.mounts ?? {})) {
    if (mount === undefined) continue;
    const normalized = normalizeMount(slot, mount as RawMount, [...path, "mounts", slot], sink);
    if (normalized) ct.mounts[slot] = normalized;
  }
  if (raw.detach !== undefined) {
    raw.detach.forEach((slot, i) => {
      if (raw.mounts?.[slot] !== undefined)
        sink.add([...path, "detach", i], `${slot} is listed under \`mounts\` too; detach a mount point by removing it from \`mounts\``);
    });
    ct.detach = [...new Set(raw.detach)].sort();
  }
  const names = new Map<string, string>();
  for (const [slot, nic] of Object.entries(raw.nics ?? {})) {
    if (nic === undefined) continue;
    // Every NIC's name counts, even one with a problem of its own (no follow-on errors).
    const name = (nic as RawNic).name ?? `eth${slot.slice(3)}`;
    const other = names.get(String(name));
    if (other)
      sink.add(
        [...path, "nics", slot],
        `${slot} and ${other} both name the interface ${String(name)}; give each NIC its own \`name\``,
        "key",
      );
    names.set(String(name), slot);
    const normalized = normalizeNic(slot, nic as RawNic, [...path, "nics", slot], sink);
    if (normalized) ct.nics[slot] = normalized;
  }
  const unmanaged = (["mounts", "nics"] as const).filter((section) => raw[section] === undefined);
  if (unmanaged.length > 0) ct.unmanaged = [...unmanaged];
}

/**
 * The normalized container, its problems reported to `sink`: a spec with any problem is refused
 * as a whole, and the loader still checks this container against the others. Undefined when it
 * has no name to check it by. `connection` is resolved later.
 */
export function normalizeCt(raw: RawCt, path: SpecPath, source: SourceLocation, sink: IssueSink): ContainerSpec | undefined {
  if (raw.hostname !== undefined && raw.name !== undefined) {
    sink.add([...path, "name"], "`name` is an alias of `hostname`: give one of them, not both", "key");
  }
  const name = raw.hostname ?? raw.name;
  if (name === undefined) {
    sink.add(path, "a container needs `hostname` (or its alias `name`), e.g. `hostname: web1`", "key");
    return undefined;
  }
  checkCtParam("hostname", name, [...path, raw.hostname !== undefined ? "hostname" : "name"], sink);
  const ct: ContainerSpec = {
    kind: "container",
    name,
    node: raw.node,
    state: raw.state ?? "present",
    options: {},
    mounts: {},
    nics: {},
    source,
  };
  if (raw.vmid !== undefined) ct.vmid = raw.vmid;
  if (raw.connection !== undefined) ct.connection = raw.connection;
  if (raw.pool !== undefined) ct.pool = raw.pool;
  if (raw.adopt !== undefined) ct.adopt = raw.adopt;
  if (raw.snapshots !== undefined) ct.snapshots = { ...raw.snapshots };
  if (raw.power !== undefined) ct.power = raw.power;
  if (raw.template !== undefined) ct.template = raw.template;
  checkTemplatePower(raw, path, sink);
  if (raw.clone !== undefined) {
    ct.clone = normalizeClone(raw.clone, [...path, "clone"], sink);
    // What only a create from a template writes: a clone keeps its source's.
    for (const key of ["ostemplate", "sshPublicKeys", "passwordEnv", "passwordFile"] as const) {
      if (raw[key] !== undefined)
        sink.add(
          [...path, key],
          `${key} is used only to create a container from a template; a clone keeps its source's: remove it, or clone:`,
          "key",
        );
    }
  }
  if (raw.ostemplate !== undefined) {
    const problem = volumeIdProblem(raw.ostemplate, "vztmpl");
    if (problem) sink.add([...path, "ostemplate"], `\`${raw.ostemplate}\` ${problem}`);
    else if (checkCtParam("ostemplate", raw.ostemplate, [...path, "ostemplate"], sink)) ct.ostemplate = raw.ostemplate;
  }
  ct.options = tableOptions(raw as Record<string, unknown>, path, sink);
  if (raw.tags !== undefined) ct.tags = normaliseTags(raw.tags);
  if (raw.sshPublicKeys !== undefined) {
    ct.sshPublicKeys = raw.sshPublicKeys.map((key) => key.trim());
    checkSshKeys(ct.sshPublicKeys, [...path, "sshPublicKeys"], sink);
  }
  const password = passwordOf(raw, source.file, path, sink);
  if (password) ct.password = password;
  devices(raw, ct, path, sink);
  for (const [key, value] of Object.entries(raw.extraConfig ?? {})) {
    const checked = checkCtExtraConfig(key, value);
    if (checked.ok) ct.options[key] = canonical(checked.value);
    else sink.add([...path, "extraConfig", key], checked.message, checked.part);
  }
  return ct;
}
