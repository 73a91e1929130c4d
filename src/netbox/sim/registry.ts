// Every resource the simulator serves, for one NetBox version.
import type { ResourceDef, SimVersion } from "./resource.js";
import { macAddresses, platforms, sites } from "./resources/dcim.js";
import { eventRules, webhooks } from "./resources/events.js";
import { customFields, journalEntries, tags } from "./resources/extras.js";
import { ipAddresses, prefixes, vlans } from "./resources/ipam.js";
import { clusters, clusterTypes, virtualDisks, virtualMachines, vmInterfaces } from "./resources/virtualization.js";

export function buildRegistry(version: SimVersion): Map<string, ResourceDef> {
  const all = [
    sites,
    platforms,
    macAddresses,
    tags,
    customFields,
    journalEntries,
    webhooks,
    eventRules,
    ipAddresses,
    prefixes,
    vlans,
    clusterTypes,
    clusters,
    virtualMachines(version),
    vmInterfaces(version),
    virtualDisks,
  ];
  return new Map(all.filter((d) => (d.since ?? 0) <= version.n).map((d) => [d.path, d]));
}

export function parseVersion(full: string): SimVersion {
  const [major = "4", minor = "0"] = full.split(".");
  return { full, n: Number(major) * 100 + Number(minor) };
}
