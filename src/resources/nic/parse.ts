// NIC property strings: `virtio=BC:24:11:AB:CD:EF,bridge=vmbr0,firewall=1` (model=MAC first,
// PVE's usual form) or `model=virtio,macaddr=...`.
import { guestSubSchema } from "../../pve/index.js";
import { canonical, joinPropertyString, splitPropertyString } from "../formats.js";
import type { DesiredNic, LiveNic } from "../vm/model.js";

/** NIC models from PVE's schema (net[n] `model` enum): `virtio=MAC` names the model and the MAC at once. */
export const NIC_MODELS: ReadonlySet<string> = new Set(guestSubSchema("qemu", "net0")?.model?.enum ?? []);

export function parseNicString(slot: string, text: string): LiveNic {
  const parts = splitPropertyString(text, "model");
  let model = parts.model ?? "";
  let macaddr = parts.macaddr;
  const options: Record<string, string> = {};
  let bridge: string | undefined;
  for (const [key, value] of Object.entries(parts)) {
    if (NIC_MODELS.has(key)) {
      model = key;
      macaddr = value;
    } else if (key === "bridge") bridge = value;
    else if (key !== "model" && key !== "macaddr") options[key] = canonical(value);
  }
  return {
    slot,
    model,
    ...(macaddr !== undefined ? { macaddr: macaddr.toUpperCase() } : {}),
    ...(bridge !== undefined ? { bridge } : {}),
    options,
  };
}

/**
 * The NIC string to write: model=MAC first (MAC omitted lets PVE generate one), then the
 * remaining keys sorted, as PVE prints it.
 */
export function printNic(model: string, macaddr: string | undefined, bridge: string, options: Record<string, string>): string {
  const leading = macaddr ? `${model}=${macaddr}` : `model=${model}`;
  return joinPropertyString(leading, { bridge, ...options });
}

/** The string for a desired NIC, keeping `keepMac` (the live MAC) unless the spec names one. */
export function printDesiredNic(nic: DesiredNic, keepMac?: string, liveOptions: Record<string, string> = {}): string {
  return printNic(nic.model, nic.macaddr ?? keepMac, nic.bridge, { ...liveOptions, ...nic.options });
}
