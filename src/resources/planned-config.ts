// The config a guest will have once the steps of its plan ran, predicted from their calls: what
// a clone of a template this same plan creates is planned against (the clone runs after them).
// Each call's intent says what it writes; a new volume (`local-lvm:4`) is written as the volume
// PVE allocates for it, with its size, since the clone copies or links it. Calls whose effect is
// not predicted here (a clone, a restore, a move) give no prediction: the clone then waits for
// the next run.
import { plannedBody } from "../plan/call.js";
import type { CallIntent } from "../plan/intent.js";
import type { ApiCall, ParamValue, Step } from "../plan/types.js";
import { formatSize, parseNewVolume, volumeOf } from "../pve/index.js";
import type { PowerState } from "./kind.js";

/** Parameters of create and config calls that are not config keys (any kind). */
const NOT_CONFIG = new Set([
  "node",
  "vmid",
  "digest",
  "delete",
  "force",
  "revert",
  "skiplock",
  "start",
  "pool",
  "storage",
  "background_delay",
  "ostemplate",
  "password",
  "ssh-public-keys",
  "restore",
  "unique",
]);

export interface PlannedConfig {
  config: Record<string, string>;
  status: PowerState;
  template: boolean;
}

/** `local-lvm:4,iothread=1` -> `local-lvm:vm-9000-disk-scsi0,iothread=1,size=4G`; an imported image's size is not known. */
function allocated(slot: string, value: string, vmid: number): string {
  const volume = volumeOf(value) ?? "";
  const rest = value.split(",").filter((part) => part !== volume && !part.startsWith("file=") && !part.startsWith("import-from="));
  const cloudinit = /^([^:]+):cloudinit$/.exec(volume);
  if (cloudinit) return [`${cloudinit[1]}:vm-${vmid}-cloudinit`, ...rest].join(",");
  const fresh = parseNewVolume(volume);
  if (fresh?.storage === undefined) return value;
  const size = fresh.bytes > 0 ? [`size=${formatSize(fresh.bytes)}`] : [];
  return [`${fresh.storage}:vm-${vmid}-disk-${slot}`, ...rest.filter((p) => !p.startsWith("size=")), ...size].join(",");
}

/** The size part of a drive or mount value set to `bytes`. */
function resized(value: string, bytes: number): string {
  return [...value.split(",").filter((p) => !p.startsWith("size=")), `size=${formatSize(bytes)}`].join(",");
}

function writeConfig(config: Record<string, string>, intent: CallIntent, params: Record<string, ParamValue>, vmid: number): void {
  if (intent.op !== "create" && intent.op !== "configure") return;
  const newOn = new Set(intent.writes.flatMap((w) => (w.as === "drive" && w.newOn !== undefined ? [w.key] : [])));
  for (const [key, raw] of Object.entries(params)) {
    if (NOT_CONFIG.has(key)) continue;
    config[key] = newOn.has(key) ? allocated(key, String(raw), vmid) : String(raw);
  }
  if (intent.op === "configure") for (const key of intent.deletes) delete config[key];
}

/** Applies one call; false when its effect is not predicted here. */
function replay(state: PlannedConfig, call: ApiCall, vmid: number): boolean {
  const intent = call.intent;
  switch (intent.op) {
    case "create":
      writeConfig(state.config, intent, plannedBody(call), vmid);
      if (intent.start) state.status = "running";
      return true;
    case "configure":
      writeConfig(state.config, intent, plannedBody(call), vmid);
      return true;
    case "resize": {
      const value = state.config[intent.slot];
      if (value !== undefined) state.config[intent.slot] = resized(value, intent.sizeBytes);
      return true;
    }
    case "power":
      state.status = intent.action === "start" || intent.action === "reboot" ? "running" : "stopped";
      return true;
    case "template":
      state.template = true;
      state.status = "stopped";
      state.config.template = "1";
      return true;
    // A snapshot changes no key of the guest's own config; pool membership is not in the config.
    case "snapshot":
    case "pool-membership":
      return true;
    default:
      return false;
  }
}

/** The config after `steps`, started from `base` (an existing guest's, else nothing); undefined when a step's effect is not predicted. */
export function plannedConfig(steps: Step[], vmid: number, base?: PlannedConfig): PlannedConfig | undefined {
  const state: PlannedConfig = base ? { ...base, config: { ...base.config } } : { config: {}, status: "stopped", template: false };
  for (const call of steps.flatMap((s) => s.calls)) if (!replay(state, call, vmid)) return undefined;
  return state;
}
