// A container platform's guest template, `platforms.<slug>.ct`: any key a spec file's
// `containers:` entry takes, checked by the spec's own schema and normalisation (the same as
// platform-template.ts does for VMs). What NetBox holds is the record's (hostname, vmid, size,
// the disks' sizes and mount points, the interfaces' names, addresses, VLANs, MTU, MAC ...) and
// refused here; the platform's `container:` keys are said there only.
import type { SpecIssue, SpecPath } from "../spec/errors.js";
import { specIssuesFromZod } from "../spec/issues.js";
import type { ContainerSpec } from "../spec/model.js";
import type { IssueSink } from "../../resources/spec-section/issues.js";
import { normalizeCt } from "../../resources/lxc/spec-normalize.js";
import { ctEntrySchema } from "../../resources/lxc/spec-entry.js";
import { ctNicSlotMessage } from "../../resources/lxc/spec-issues.js";
import type { YamlDocument } from "../spec/yaml-source.js";
import { isDiskTag } from "./disk-slots.js";
import { has, isMap, ownedMessage, STAND_IN } from "./platform-template.js";
import { isRecordTag } from "./record-tag.js";

/** The checked template, as mapping-ct.ts applies it to each record's container. */
export interface CtTemplate {
  /** Plain config keys (onboot, startup, protection, timezone, description, extraConfig ...), PVE names. */
  options: Record<string, string>;
  /** Top-level fields of a spec container (pool, power, snapshots, tags, sshPublicKeys, password). */
  fields: Partial<Pick<ContainerSpec, "pool" | "power" | "snapshots" | "tags" | "sshPublicKeys" | "password">>;
  /** Options of the record's rootfs and of its mount point in each slot (acl, backup, quota ...). */
  rootfs: Record<string, string>;
  mounts: Record<string, Record<string, string>>;
  /** Per NIC slot: the bridge and options (firewall, rate ...) the template writes. */
  nics: Record<string, { bridge?: string; options: Record<string, string> }>;
}

/** Where each value the record owns comes from. */
const RECORD_OWNED: Record<string, string> = {
  hostname: "the record's name",
  name: "the record's name",
  vmid: "the record's vmid custom field (else the cluster's `vmidRange`, else the next free vmid)",
  node: "the record's node custom field, else `clusters.<name>.node` or `defaults.node`",
  connection: "the cluster's `connection`",
  cores: "the record's vCPUs (else `defaults.cores`)",
  memory: "the record's memory (else `defaults.memory`)",
  state: "the record's status: sync builds selected records, `decommission:` removes them",
  template: "nowhere: a record's guest is never turned into a template",
  adopt: "the config's top-level `adopt:`",
  clone: "nowhere: a container platform creates from `container.ostemplate`",
  detach: "the record's virtual disks",
  ostemplate: "`container.ostemplate`",
};
const VOLUME_OWNED: Record<string, string> = {
  storage: "the record's storage custom field, else `container.storage` or the cluster's `storage`",
  size: "the record's virtual disk",
  volume: "the record's virtual disk",
  mountpoint: "the virtual disk's name",
};
const NIC_OWNED: Record<string, string> = {
  name: "the interface's name",
  ip: "the interface's address (else `container.ip`)",
  gw: "the prefix's gateway or `container.gw`",
  ip6: "the interface's address",
  gw6: "the prefix's gateway",
  tag: "the interface's untagged VLAN",
  trunks: "the interface's tagged VLANs",
  mtu: "the interface's MTU",
  link_down: "the interface's `enabled`",
  hwaddr: "the interface's MAC address",
};
/** Keys `container:` says already. */
const CONTAINER_KEYS = ["unprivileged", "features", "ostype", "swap", "nameserver", "searchdomain"] as const;

type Map = Record<string, unknown>;

/** What the template writes that the record or `container:` owns, each refused and left out of the check. */
function refusals(ct: Map, container: Map): { issues: Array<{ path: SpecPath; message: string }>; rest: Map } {
  const issues: Array<{ path: SpecPath; message: string }> = [];
  const rest: Map = { ...ct };
  for (const key of Object.keys(ct)) {
    if (Object.hasOwn(RECORD_OWNED, key)) {
      issues.push({ path: [key], message: ownedMessage([key], RECORD_OWNED[key]!) });
      delete rest[key];
    }
    if ((CONTAINER_KEYS as readonly string[]).includes(key) && container[key] !== undefined)
      issues.push({ path: [key], message: `\`container.${key}\` says this already; say it in one place` });
  }
  const strip = (entry: unknown, owned: Record<string, string>, path: SpecPath): unknown => {
    if (!isMap(entry)) return entry;
    const kept: Map = { ...entry };
    for (const key of Object.keys(entry).filter((k) => Object.hasOwn(owned, k))) {
      issues.push({ path: [...path, key], message: ownedMessage([...path, key], owned[key]!) });
      delete kept[key];
    }
    return kept;
  };
  if (isMap(ct.rootfs)) rest.rootfs = strip(ct.rootfs, VOLUME_OWNED, ["rootfs"]);
  for (const [section, owned] of [
    ["mounts", VOLUME_OWNED],
    ["nics", NIC_OWNED],
  ] as const) {
    const slots = ct[section];
    if (isMap(slots))
      rest[section] = Object.fromEntries(Object.entries(slots).map(([slot, entry]) => [slot, strip(entry, owned, [section, slot])]));
  }
  return { issues, rest };
}

/** The container a record of the platform would be, as a spec entry, with stand-ins for what the record fills in. */
function probeOf(ct: Map, ostemplate: unknown): Map {
  const probe: Map = { hostname: STAND_IN.name, node: STAND_IN.node, ostemplate, ...ct };
  const volume = { storage: STAND_IN.storage, size: STAND_IN.size };
  if (isMap(ct.rootfs)) probe.rootfs = { ...volume, ...ct.rootfs };
  if (isMap(ct.mounts))
    probe.mounts = Object.fromEntries(
      Object.entries(ct.mounts).map(([slot, entry]) => [slot, isMap(entry) ? { ...volume, mountpoint: `/${slot}`, ...entry } : entry]),
    );
  return probe;
}

function templateOf(c: ContainerSpec, written: Map): CtTemplate {
  const fields: CtTemplate["fields"] = {};
  for (const key of ["pool", "power", "snapshots", "tags", "sshPublicKeys", "password"] as const)
    if (c[key] !== undefined) Object.assign(fields, { [key]: c[key] });
  const nics: CtTemplate["nics"] = {};
  for (const [slot, entry] of Object.entries(isMap(written.nics) ? written.nics : {})) {
    const nic = c.nics[slot];
    if (nic)
      nics[slot] = {
        ...(isMap(entry) && entry.bridge !== undefined && nic.bridge !== undefined ? { bridge: nic.bridge } : {}),
        options: { ...nic.options },
      };
  }
  const mounts: CtTemplate["mounts"] = {};
  for (const [slot, m] of Object.entries(c.mounts)) mounts[slot] = { ...m.options };
  return { options: { ...c.options }, fields, rootfs: { ...c.rootfs?.options }, mounts, nics };
}

/**
 * Checks a container platform's `ct:` as the spec checks a container; every problem at its
 * config key. Undefined template: none written, or it has problems.
 */
export function checkCtTemplate(
  slug: string,
  ct: Map | undefined,
  container: Map,
  doc: YamlDocument,
): { template?: CtTemplate; issues: SpecIssue[] } {
  if (ct === undefined) return { issues: [] };
  const base: SpecPath = ["platforms", slug, "ct"];
  const issues: SpecIssue[] = [];
  const place = (path: SpecPath): SpecPath =>
    has(ct, path) ? [...base, ...path] : path[0] === "ostemplate" ? ["platforms", slug, "container", "ostemplate"] : base;
  const report = (path: SpecPath, message: string, part?: "key" | "value"): void => {
    const at = place(path);
    issues.push({ location: doc.locate(at, part), path: at, message });
  };
  const refused = refusals(ct, container);
  for (const r of refused.issues) report(r.path, r.message, "key");
  const probe = probeOf(refused.rest, container.ostemplate);
  const schema = ctEntrySchema();
  const parsed = schema.safeParse(probe, { jitless: true });
  const placed: YamlDocument = { value: probe, locate: (path, part) => doc.locate(place(path), part) };
  if (!parsed.success) {
    for (const issue of specIssuesFromZod(parsed.error.issues, schema, probe, placed, ctNicSlotMessage))
      issues.push({ ...issue, path: place(issue.path) });
    return { issues };
  }
  const sink: IssueSink = { add: report };
  const normalized = normalizeCt(parsed.data, [], doc.locate(base), sink);
  for (const tag of normalized?.tags ?? [])
    if (isRecordTag(tag) || isDiskTag(tag))
      report(["tags"], `tag \`${tag}\` has the shape of the tags pvectl binds a guest to its record and disks with; rename it`);
  if (issues.length > 0 || !normalized) return { issues };
  return { template: templateOf(normalized, refused.rest), issues };
}
