// The facts of PVE's container schema the `containers:` spec builds on: the create
// parameters, the config keys, and the sub-keys of rootfs, mount points, NICs and features.
// Read from the generated schema (src/schema), so the spec accepts what the targeted PVE does.
import { guestKeySchema, subSchemaOf } from "../../pve/guest-schema.js";
import { getEndpoint, paramSchema } from "../../schema/index.js";
import type { EndpointSchema, ParamSchema, SubSchema } from "../../schema/types.js";

/** POST /nodes/{node}/lxc: the parameters a container is created with. */
export function lxcCreateEndpoint(): EndpointSchema {
  const found = getEndpoint("POST", "/nodes/{node}/lxc");
  if (!found) throw new Error("PVE schema facts lack POST /nodes/{node}/lxc; regenerate src/schema/generated");
  return found;
}

/** The schema of a container parameter (create first: `unprivileged` is create-only, then config). */
export function lxcParam(key: string): ParamSchema | undefined {
  return paramSchema(lxcCreateEndpoint(), key) ?? guestKeySchema("lxc", key);
}

export function requireLxcParam(key: string): ParamSchema {
  const schema = lxcParam(key);
  if (!schema) throw new Error(`PVE schema facts lack the container parameter ${key}`);
  return schema;
}

/** The property-string keys of `rootfs`, `mp0`, `net0`, `features`. */
export function lxcSubSchema(key: string): SubSchema {
  const sub = subSchemaOf(requireLxcParam(key));
  if (!sub) throw new Error(`PVE schema facts: container ${key} is not a property string`);
  return sub;
}

/** `mp0`..`mp255`, `net0`..`net31`: from the schema's index range. */
export function lxcSlotNames(base: "mp" | "net"): string[] {
  const range = requireLxcParam(`${base}0`).index ?? { min: 0, max: 0 };
  const names: string[] = [];
  for (let i = range.min; i <= range.max; i++) names.push(`${base}${i}`);
  return names;
}

/** Sub-keys of a mount value the spec writes as fields of their own (or not at all). */
export const MOUNT_OWNED_KEYS = new Set(["volume", "size", "mp"]);

/** The options a rootfs or mount point may set besides storage/size/volume/mountpoint. */
export function mountOptionNames(slot: "rootfs" | "mp0"): string[] {
  return Object.keys(lxcSubSchema(slot))
    .filter((key) => !MOUNT_OWNED_KEYS.has(key))
    .sort();
}
