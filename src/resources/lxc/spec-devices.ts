// A container's rootfs, mount point or NIC, checked the way PVE's API checks the property
// string the plan will send (formats of ip/gw/hwaddr, mount paths, option values), with each
// of PVE's complaints put at the spec field it comes from.
import { PropertyStringError, printPropertyString } from "../../pve/property-string.js";
import type { CtMountSpec, CtNicSpec } from "./spec-model.js";
import { lxcSubSchema } from "./spec-facts.js";
import type { SpecPath } from "../spec-section/issues.js";
import type { IssueSink } from "../spec-section/issues.js";

/** What to write instead, for the sub-keys whose format people get wrong. */
const HINTS: Record<string, string> = {
  ip: "write dhcp, manual or an IPv4 address in CIDR form, e.g. 10.0.0.5/24",
  ip6: "write dhcp, auto, manual or an IPv6 address in CIDR form, e.g. fd00::5/64",
  gw: "write an IPv4 address, e.g. 10.0.0.1",
  gw6: "write an IPv6 address, e.g. fd00::1",
  hwaddr: "a NIC needs a unicast MAC: the first octet must be even, e.g. BC:24:11:2A:3B:4C",
  // pve-container's $valid_mount_option_re: PVE's schema says no more than its pattern.
  mountoptions: "write PVE's mount options joined with ;, from discard, lazytime, noatime, nodev, noexec, nosuid, e.g. noatime;nodev",
};

/** PVE's sub-keys under other names in the spec. */
function fieldOf(subKey: string, device: CtMountSpec | CtNicSpec): string {
  if (subKey === "mp") return "mountpoint";
  if (subKey === "volume") return "bindPath" in device && device.bindPath !== undefined ? "volume" : "storage";
  return subKey;
}

function valuesOf(device: CtMountSpec | CtNicSpec): Record<string, string> {
  if ("name" in device) {
    return {
      name: device.name,
      ...(device.bridge !== undefined ? { bridge: device.bridge } : {}),
      ...(device.hwaddr !== undefined ? { hwaddr: device.hwaddr } : {}),
      ...device.options,
    };
  }
  // A new volume is checked with a stand-in for the name PVE will give it.
  const volume = device.bindPath ?? `${device.storage ?? "local"}:1`;
  return { volume, ...(device.mountpoint !== undefined ? { mp: device.mountpoint } : {}), ...device.options };
}

/** True when PVE would accept the device; otherwise its problems are reported. */
export function checkCtDevice(slot: string, device: CtMountSpec | CtNicSpec, path: SpecPath, sink: IssueSink): boolean {
  const schemaKey = slot === "rootfs" ? "rootfs" : slot.startsWith("mp") ? "mp0" : "net0";
  try {
    printPropertyString(valuesOf(device), lxcSubSchema(schemaKey), { key: slot });
    return true;
  } catch (err) {
    if (!(err instanceof PropertyStringError)) throw err;
    const entries = Object.entries(err.errors);
    if (entries.length === 0) sink.add(path, `PVE would refuse this: ${err.message}`);
    for (const [where, message] of entries) {
      const subKey = where.split(".").slice(1).join(".");
      const at = subKey === "" ? path : [...path, fieldOf(subKey, device)];
      const hint = Object.hasOwn(HINTS, subKey) ? ` (${HINTS[subKey]})` : "";
      sink.add(at, `PVE would refuse this: ${message.trim().replace(/\n/g, "; ")}${hint}`);
    }
    return false;
  }
}
