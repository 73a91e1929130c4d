// NICs keyed by slot: add, change (the MAC is kept unless the spec names one), remove.
import type { FieldChange, StepDraft } from "../../plan/types.js";
import { printNet } from "../../pve/index.js";
import { qemuCalls } from "./calls.js";
import type { DesiredNic, LiveNic } from "./model.js";

export interface NicContext {
  vmid: number;
  node: string;
  running: boolean;
  hotplug: string[];
  /** The spec has no `nics:` section: live NICs it does not list are kept, not removed. */
  keepUnlisted?: boolean;
}

/** The model a new NIC gets when the spec leaves it out. */
export const DEFAULT_NIC_MODEL = "virtio";

/**
 * The NIC string to write, printed by PVE's rules (`model=MAC` first, the rest sorted). The
 * live MAC (`keepMac`), model (`keepModel`) and sub-options are kept unless the spec sets
 * them. Without any MAC PVE generates one; the model is then written as `model=virtio`, not bare.
 */
export function printDesiredNic(nic: DesiredNic, keepMac?: string, liveOptions: Record<string, string> = {}, keepModel?: string): string {
  const macaddr = nic.macaddr ?? keepMac;
  const model = nic.model ?? keepModel ?? DEFAULT_NIC_MODEL;
  const text = printNet({ ...liveOptions, ...nic.options, model, bridge: nic.bridge, ...(macaddr !== undefined ? { macaddr } : {}) });
  return macaddr !== undefined ? text : `model=${text}`;
}

export const NIC_OPTION_DEFAULTS: Record<string, string> = { firewall: "0", link_down: "0" };

export function describeNic(nic: { model?: string; bridge?: string; macaddr?: string; options: Record<string, string> }): string {
  const opts = Object.entries(nic.options).map(([k, v]) => `${k}=${v}`);
  return [`${nic.model ?? DEFAULT_NIC_MODEL}`, nic.bridge ? `on ${nic.bridge}` : "", nic.macaddr ? `mac ${nic.macaddr}` : "", ...opts]
    .filter((s) => s !== "")
    .join(" ");
}

export function nicChanges(wanted: DesiredNic, live: LiveNic): FieldChange[] {
  const changes: FieldChange[] = [];
  const f = (field: string, before: string | undefined, after: string) => {
    if (before !== after) changes.push({ field: `${wanted.slot}.${field}`, ...(before !== undefined ? { before } : {}), after });
  };
  // A model the spec leaves out is not managed: the live one stays.
  if (wanted.model !== undefined) f("model", live.model, wanted.model);
  f("bridge", live.bridge, wanted.bridge);
  if (wanted.macaddr !== undefined) f("macaddr", live.macaddr, wanted.macaddr.toUpperCase());
  for (const [key, value] of Object.entries(wanted.options)) f(key, live.options[key] ?? NIC_OPTION_DEFAULTS[key], value);
  return changes;
}

/**
 * What a NIC change does to a running guest, as qemu-server's vmconfig_update_net decides it:
 * a change of model, MAC, queues or MTU (or a NIC without a bridge) replaces the device, so it
 * is hot-unplugged and plugged again when `hotplug` has `network` and waits for a reboot
 * otherwise; bridge, VLAN tag, trunks, firewall, rate and link state are applied to the
 * running NIC in place, whatever `hotplug` says.
 */
export type NicChangeEffect = "in-place" | "replug" | "pending";

const IN_PLACE_FIELDS = new Set(["bridge", "tag", "trunks", "firewall", "rate", "link_down"]);

export function nicChangeEffect(changes: FieldChange[], live: LiveNic, hotplug: string[]): NicChangeEffect {
  const fields = changes.map((c) => c.field.slice(c.field.indexOf(".") + 1));
  // Any other field (model, macaddr, queues, mtu), or a NIC in NAT mode (no bridge), replaces the device.
  const replaces = live.bridge === undefined || fields.some((f) => !IN_PLACE_FIELDS.has(f));
  if (!replaces) return "in-place";
  return hotplug.includes("network") ? "replug" : "pending";
}

const PENDING_SUFFIX = " (pending until reboot)";

export function diffNics(desired: DesiredNic[], live: Record<string, LiveNic>, ctx: NicContext): StepDraft[] {
  const steps: StepDraft[] = [];
  // Adding or removing a NIC of a running guest is a hot(un)plug: only with `hotplug: network`.
  const plugs = !ctx.running || ctx.hotplug.includes("network");
  const pending = plugs ? {} : { pendingUntilReboot: true as const };
  const suffix = plugs ? "" : PENDING_SUFFIX;
  const wanted = new Set(desired.map((n) => n.slot));
  for (const nic of desired) {
    const current = live[nic.slot];
    if (!current) {
      steps.push({
        action: "nic-add",
        severity: plugs ? "configuration" : "service-impact",
        summary: `add ${nic.slot}: ${describeNic(nic)}${suffix}`,
        changes: [{ field: nic.slot, after: describeNic(nic) }],
        calls: [qemuCalls.config(ctx.node, ctx.vmid, { [nic.slot]: printDesiredNic(nic) }, { allocates: true })],
        ...pending,
      });
      continue;
    }
    const changes = nicChanges(nic, current);
    if (changes.length === 0) continue;
    steps.push(nicChangeStep(nic, current, changes, ctx));
  }
  for (const current of Object.values(live)) {
    if (wanted.has(current.slot) || ctx.keepUnlisted) continue;
    steps.push({
      action: "nic-remove",
      // A running guest loses this network (at once, or at the reboot); a stopped one loses nothing yet.
      severity: ctx.running ? "service-impact" : "configuration",
      summary: `remove ${current.slot} (${describeNic(current)})${ctx.running && plugs ? " (hot-unplugged from the running guest)" : suffix}`,
      changes: [{ field: current.slot, before: describeNic(current) }],
      calls: [qemuCalls.config(ctx.node, ctx.vmid, { delete: current.slot })],
      ...pending,
    });
  }
  return steps;
}

function nicChangeStep(nic: DesiredNic, current: LiveNic, changes: FieldChange[], ctx: NicContext): StepDraft {
  const effect = ctx.running ? nicChangeEffect(changes, current, ctx.hotplug) : "in-place";
  const keptMac = nic.macaddr === undefined && current.macaddr ? ` (MAC ${current.macaddr} kept)` : "";
  const how =
    effect === "replug" ? " (the running guest's NIC is hot-unplugged and plugged again)" : effect === "pending" ? PENDING_SUFFIX : "";
  return {
    action: "nic-change",
    severity: effect === "in-place" ? "configuration" : "service-impact",
    summary: `change ${nic.slot}${keptMac}${how}`,
    changes,
    calls: [qemuCalls.config(ctx.node, ctx.vmid, { [nic.slot]: printDesiredNic(nic, current.macaddr, current.options, current.model) })],
    ...(effect === "pending" ? { pendingUntilReboot: true as const } : {}),
  };
}
