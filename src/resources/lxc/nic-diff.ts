// Container NICs keyed by slot: add, change (the MAC is kept unless the spec names one),
// remove. PVE hot-plugs container NICs: every NIC change applies to a running container at
// once (pve-container's vmconfig_hotplug_pending), none waits for a restart.
import type { FieldChange, StepDraft } from "../../plan/types.js";
import { printNet } from "../../pve/index.js";
import { lxcCalls } from "./calls.js";
import type { DesiredCtNic, LiveCtNic } from "./model.js";

export interface CtNicContext {
  vmid: number;
  node: string;
  running: boolean;
  /** The spec has no `nics:` section: live NICs it does not list are kept, not removed. */
  keepUnlisted?: boolean;
}

/** PVE's value for a NIC sub-option that is not written. */
export const CT_NIC_OPTION_DEFAULTS: Record<string, string> = { firewall: "0", link_down: "0", type: "veth" };

/**
 * What a NIC change does to a running container, as pve-container's update_net does it: a new
 * name or MAC removes the veth pair and creates it again (the interface goes down for a
 * moment); bridge, VLAN, firewall, link state, rate and addresses are changed on the running
 * interface; MTU, trunks and type are written to the config but reach the interface only at
 * the next start (PVE keeps nothing pending for them).
 */
const REPLUG_FIELDS = new Set(["name", "hwaddr"]);
const AT_START_FIELDS = new Set(["mtu", "trunks", "type"]);

/**
 * The NIC string to write: the live NIC's MAC, bridge and sub-options kept unless the spec
 * sets them; a new NIC without a MAC lets PVE generate one.
 */
export function printCtNic(nic: DesiredCtNic, current?: LiveCtNic): string {
  const hwaddr = nic.hwaddr ?? current?.hwaddr;
  const bridge = nic.bridge ?? current?.bridge;
  return printNet(
    {
      ...current?.options,
      ...nic.options,
      name: nic.name,
      ...(bridge !== undefined ? { bridge } : {}),
      ...(hwaddr !== undefined ? { hwaddr } : {}),
    },
    "lxc",
    nic.slot,
  );
}

export function describeCtNic(nic: { name?: string; bridge?: string; hwaddr?: string; options: Record<string, string> }): string {
  const opts = Object.entries(nic.options).map(([k, v]) => `${k}=${v}`);
  return [nic.name ?? "", nic.bridge ? `on ${nic.bridge}` : "", nic.hwaddr ? `mac ${nic.hwaddr}` : "", ...opts]
    .filter((s) => s !== "")
    .join(" ");
}

export function ctNicChanges(wanted: DesiredCtNic, live: LiveCtNic): FieldChange[] {
  const changes: FieldChange[] = [];
  const f = (field: string, before: string | undefined, after: string) => {
    if (before !== after) changes.push({ field: `${wanted.slot}.${field}`, ...(before !== undefined ? { before } : {}), after });
  };
  f("name", live.name, wanted.name);
  if (wanted.bridge !== undefined) f("bridge", live.bridge, wanted.bridge);
  if (wanted.hwaddr !== undefined) f("hwaddr", live.hwaddr, wanted.hwaddr.toUpperCase());
  for (const [key, value] of Object.entries(wanted.options)) f(key, live.options[key] ?? CT_NIC_OPTION_DEFAULTS[key], value);
  return changes;
}

export function diffCtNics(desired: DesiredCtNic[], live: Record<string, LiveCtNic>, ctx: CtNicContext): StepDraft[] {
  const steps: StepDraft[] = [];
  const wanted = new Set(desired.map((n) => n.slot));
  for (const nic of desired) {
    const current = live[nic.slot];
    if (!current) {
      steps.push({
        action: "nic-add",
        severity: "configuration",
        summary: `add ${nic.slot}: ${describeCtNic(nic)}`,
        changes: [{ field: nic.slot, after: describeCtNic(nic) }],
        // Without a MAC in the spec PVE generates one: a second landing would give another.
        calls: [lxcCalls.config(ctx.node, ctx.vmid, { [nic.slot]: printCtNic(nic) }, { allocates: nic.hwaddr === undefined })],
      });
      continue;
    }
    const changes = ctNicChanges(nic, current);
    if (changes.length > 0) steps.push(changeStep(nic, current, changes, ctx));
  }
  for (const current of Object.values(live)) {
    if (wanted.has(current.slot) || ctx.keepUnlisted) continue;
    steps.push({
      action: "nic-remove",
      // A running container loses this network at once; a stopped one loses nothing yet.
      severity: ctx.running ? "service-impact" : "configuration",
      summary: `remove ${current.slot} (${describeCtNic(current)})${ctx.running ? " (unplugged from the running container)" : ""}`,
      changes: [{ field: current.slot, before: describeCtNic(current) }],
      calls: [lxcCalls.config(ctx.node, ctx.vmid, { delete: current.slot })],
    });
  }
  return steps;
}

function changeStep(nic: DesiredCtNic, current: LiveCtNic, changes: FieldChange[], ctx: CtNicContext): StepDraft {
  const fields = changes.map((c) => c.field.slice(c.field.indexOf(".") + 1));
  const replug = ctx.running && fields.some((f) => REPLUG_FIELDS.has(f));
  const atStart = ctx.running ? fields.filter((f) => AT_START_FIELDS.has(f)) : [];
  const keptMac = nic.hwaddr === undefined && current.hwaddr ? ` (MAC ${current.hwaddr} kept)` : "";
  const notes = [
    ...(replug ? ["the running container's interface is recreated"] : []),
    ...(atStart.length > 0 ? [`${atStart.join(", ")} reach the running interface only at the next start`] : []),
  ];
  return {
    action: "nic-change",
    severity: replug ? "service-impact" : "configuration",
    summary: `change ${nic.slot}${keptMac}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`,
    changes,
    calls: [lxcCalls.config(ctx.node, ctx.vmid, { [nic.slot]: printCtNic(nic, current) })],
  };
}
