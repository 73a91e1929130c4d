// What every kind reads the same way from a guest's listing and config: identity, run state,
// lock, template flag, digest, tags, pending keys and pool. Each kind adds its own devices and
// options (qemu/read.ts, lxc/read.ts).
import type { ConfigValue } from "../api/endpoints/index.js";
import { parseTags } from "./formats.js";
import type { GuestMeta, HaState, PowerState } from "./kind.js";

export interface LiveGuestFields {
  vmid: number;
  node: string;
  name?: string;
  status: PowerState;
  lock?: string;
  template: boolean;
  digest?: string;
  tags: string[];
  pendingKeys: string[];
  pool?: string;
  /** Its HA resource (from /cluster/resources `hastate`); undefined: not one. */
  ha?: HaState;
  /** The guest has snapshots (its config names the one it runs from, `parent`); undefined: none. */
  snapshotted?: true;
}

/** `nameKey`: the config key that holds the guest's name (`name` for VMs, `hostname` for containers). */
export function liveGuestFields(
  meta: GuestMeta,
  config: Record<string, ConfigValue | undefined>,
  nameKey: "name" | "hostname",
  pendingKeys: string[],
): LiveGuestFields {
  const text = (key: string) => (config[key] !== undefined ? String(config[key]) : undefined);
  const name = text(nameKey);
  const digest = text("digest");
  const lock = meta.lock ?? text("lock");
  return {
    vmid: meta.vmid,
    node: meta.node,
    ...(name !== undefined ? { name } : {}),
    status: meta.status,
    ...(lock !== undefined ? { lock } : {}),
    template: meta.template ?? Number(config.template) === 1,
    ...(digest !== undefined ? { digest } : {}),
    tags: parseTags(text("tags")),
    pendingKeys: [...pendingKeys].sort(),
    ...(meta.pool !== undefined ? { pool: meta.pool } : {}),
    ...(meta.ha !== undefined ? { ha: meta.ha } : {}),
    ...(config.parent !== undefined ? { snapshotted: true as const } : {}),
  };
}
