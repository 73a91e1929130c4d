// Where the schema of a guest config key comes from: the config-update endpoint of that
// guest type (same key schemas as create), with named property-string formats resolved.
import { getEndpoint, getFormat, paramSchema } from "../schema/index.js";
import type { EndpointSchema, ParamSchema, SubSchema } from "../schema/types.js";

export type GuestKind = "qemu" | "lxc";

const CONFIG_PATHS: Record<GuestKind, string> = {
  qemu: "/nodes/{node}/qemu/{vmid}/config",
  lxc: "/nodes/{node}/lxc/{vmid}/config",
};

/** The PUT config endpoint of a guest type (its parameters are the guest's config keys). */
export function guestConfigEndpoint(kind: GuestKind): EndpointSchema {
  const endpoint = getEndpoint("PUT", CONFIG_PATHS[kind]);
  if (!endpoint) throw new Error(`schema has no PUT ${CONFIG_PATHS[kind]}`);
  return endpoint;
}

/** The schema of a concrete config key (`scsi0`, `net3`, `onboot`), if PVE knows it. */
export function guestKeySchema(kind: GuestKind, key: string): ParamSchema | undefined {
  return paramSchema(guestConfigEndpoint(kind), key);
}

/** The property-string sub-schema of a key's format (inline or named), if it has one. */
export function subSchemaOf(schema: ParamSchema | undefined): SubSchema | undefined {
  const format = schema?.format;
  if (format === undefined) return undefined;
  return typeof format === "string" ? getFormat(format) : format;
}

/** The property-string sub-schema of a guest config key, if its value is a property string. */
export function guestSubSchema(kind: GuestKind, key: string): SubSchema | undefined {
  return subSchemaOf(guestKeySchema(kind, key));
}
