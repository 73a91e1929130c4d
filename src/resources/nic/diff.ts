// NICs keyed by slot: add, change (the MAC is kept unless the spec names one), remove.
import type { FieldChange } from "../../engine/types.js";
import { qemuPaths } from "../api-paths.js";
import type { StepDraft } from "../disk/diff.js";
import { printNet } from "../../pve/index.js";
import type { DesiredNic, LiveNic } from "../vm/model.js";

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

export function diffNics(desired: DesiredNic[], live: Record<string, LiveNic>, ctx: NicContext): StepDraft[] {
  const steps: StepDraft[] = [];
  const config = qemuPaths.config(ctx.node, ctx.vmid);
  const liveChange = !ctx.running || ctx.hotplug.includes("network");
  const pending = liveChange ? {} : { pendingUntilReboot: true as const };
  const suffix = liveChange ? "" : " (pending until reboot)";
  const wanted = new Set(desired.map((n) => n.slot));
  for (const nic of desired) {
    const current = live[nic.slot];
    if (!current) {
      steps.push({
        action: "nic-add",
        severity: liveChange ? "configuration" : "service-impact",
        summary: `add ${nic.slot}: ${describeNic(nic)}${suffix}`,
        changes: [{ field: nic.slot, after: describeNic(nic) }],
        calls: [{ method: "PUT", path: config, params: { [nic.slot]: printDesiredNic(nic) } }],
        ...pending,
      });
      continue;
    }
    const changes = nicChanges(nic, current);
    if (changes.length === 0) continue;
    const keptMac = nic.macaddr === undefined && current.macaddr ? ` (MAC ${current.macaddr} kept)` : "";
    steps.push({
      action: "nic-change",
      severity: liveChange ? "configuration" : "service-impact",
      summary: `change ${nic.slot}${keptMac}${suffix}`,
      changes,
      calls: [{ method: "PUT", path: config, params: { [nic.slot]: printDesiredNic(nic, current.macaddr, current.options, current.model) } }],
      ...pending,
    });
  }
  for (const current of Object.values(live)) {
    if (wanted.has(current.slot) || ctx.keepUnlisted) continue;
    steps.push({
      action: "nic-remove",
      // A running guest loses this network at once; a stopped one loses nothing yet.
      severity: ctx.running ? "service-impact" : "configuration",
      summary: `remove ${current.slot} (${describeNic(current)})${suffix}`,
      changes: [{ field: current.slot, before: describeNic(current) }],
      calls: [{ method: "PUT", path: config, params: { delete: current.slot } }],
      ...pending,
    });
  }
  return steps;
}
