// The text of /etc/network/interfaces as PVE's writer lays it out, and the `diff -u` between
// the file and interfaces.new that GET /nodes/{node}/network returns as `changes`.
import { orderedNames } from "./node-network.js";
import type { NetIface } from "./types.js";

/** ifupdown2 option lines of one stanza (API keys are written with dashes). */
function optionLines(iface: NetIface, family: string): string[] {
  const lines: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value !== undefined && value !== "") lines.push(`\t${key} ${value}`);
  };
  if (family === "inet") {
    add("address", iface.cidr ?? iface.address);
    add("gateway", iface.gateway);
  } else {
    add("address", iface.cidr6 ?? (iface.address6 !== undefined ? `${iface.address6}/${iface.netmask6}` : undefined));
    add("gateway", iface.gateway6);
  }
  if (family !== "inet" && (iface.families as string[]).includes("inet")) return lines;
  if (iface.type === "bridge") {
    add("bridge-ports", iface.bridge_ports || "none");
    add("bridge-stp", iface.bridge_stp ?? "off");
    add("bridge-fd", iface.bridge_fd ?? "0");
    if (iface.bridge_vlan_aware) add("bridge-vlan-aware", "yes");
    if (iface.bridge_vlan_aware) add("bridge-vids", iface.bridge_vids ?? "2-4094");
  }
  if (iface.type === "bond") {
    add("bond-slaves", iface.slaves || "none");
    add("bond-miimon", "100");
    add("bond-mode", iface.bond_mode);
    add("bond-xmit-hash-policy", iface.bond_xmit_hash_policy);
  }
  if (iface.type === "vlan") {
    add("vlan-id", iface["vlan-id"]);
    add("vlan-raw-device", iface["vlan-raw-device"]);
  }
  add("mtu", iface.mtu);
  if (iface.comments !== undefined) for (const c of String(iface.comments).split("\n")) if (c) lines.push(`#${c}`);
  return lines;
}

export function renderInterfaces(ifaces: Record<string, NetIface>): string {
  const out = ["auto lo", "iface lo inet loopback", ""];
  for (const name of orderedNames(ifaces)) {
    const iface = ifaces[name] as NetIface;
    if (iface.autostart) out.push(`auto ${name}`);
    const families = Array.isArray(iface.families) && iface.families.length ? iface.families : ["inet"];
    for (const family of families) {
      out.push(`iface ${name} ${family} ${family === "inet" ? iface.method : iface.method6}`);
      out.push(...optionLines({ ...iface, families }, family));
    }
    out.push("");
  }
  out.push("source /etc/network/interfaces.d/*");
  return `${out.join("\n")}\n`;
}

/** A unified diff of two small texts with the whole file as context (one hunk, LCS-based). */
export function unifiedDiff(oldText: string, newText: string, oldName: string, newName: string): string {
  const a = oldText.replace(/\n$/, "").split("\n");
  const b = newText.replace(/\n$/, "").split("\n");
  // lcs[i][j]: common-subsequence length of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    const row = lcs[i] as number[];
    const below = lcs[i + 1] as number[];
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] = a[i] === b[j] ? (below[j + 1] ?? 0) + 1 : Math.max(below[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const body: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      body.push(` ${a[i++]}`);
      j++;
    } else if (j < b.length && (i >= a.length || (lcs[i]?.[j + 1] ?? 0) > (lcs[i + 1]?.[j] ?? 0))) body.push(`+${b[j++]}`);
    else body.push(`-${a[i++]}`);
  }
  return [`--- ${oldName}`, `+++ ${newName}`, `@@ -1,${a.length} +1,${b.length} @@`, ...body, ""].join("\n");
}
