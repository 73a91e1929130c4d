// The facts of PVE's VM schema that the spec format builds on: enums, slot ranges, drive
// options and the set of config keys. Read from the generated schema facts (src/schema), so
// the spec accepts exactly what the PVE version we target accepts.
import { type DriveBus, driveBusOf } from "../../pve/index.js";
import { getEndpoint, paramSchema } from "../../schema/index.js";
import type { EndpointSchema, ParamSchema, SubSchema } from "../../schema/types.js";

export type Bus = DriveBus;
export const BUSES: readonly Bus[] = ["scsi", "virtio", "sata", "ide"];

function endpoint(method: "POST" | "PUT", path: string): EndpointSchema {
  const found = getEndpoint(method, path);
  if (!found) throw new Error(`PVE schema facts lack ${method} ${path}; regenerate src/schema/generated`);
  return found;
}

/** POST /nodes/{node}/qemu: the parameters a VM is created with. */
export function qemuCreateEndpoint(): EndpointSchema {
  return endpoint("POST", "/nodes/{node}/qemu");
}

/** PUT /nodes/{node}/qemu/{vmid}/config: the parameters a VM's config is changed with. */
export function qemuConfigEndpoint(): EndpointSchema {
  return endpoint("PUT", "/nodes/{node}/qemu/{vmid}/config");
}

/** The schema of a VM config key (e.g. "ostype", "scsi3", "rng0"), as accepted on update. */
export function configKeySchema(key: string): ParamSchema | undefined {
  return paramSchema(qemuConfigEndpoint(), key);
}

/** The schema of a VM create parameter; throws when the generated facts lack it. */
export function requireParam(name: string): ParamSchema {
  const schema = paramSchema(qemuCreateEndpoint(), name);
  if (!schema) throw new Error(`PVE schema facts lack the VM parameter ${name}`);
  return schema;
}

type NonEmpty = [string, ...string[]];

function asEnum(values: string[] | undefined, what: string): NonEmpty {
  if (!values || values.length === 0) throw new Error(`PVE schema facts give no values for ${what}`);
  return values as NonEmpty;
}

/** The allowed values of a top-level VM parameter (bios, ostype, scsihw ...). */
export function paramEnum(name: string): NonEmpty {
  return asEnum(requireParam(name).enum, name);
}

/** The sub-schema (property-string keys) of a VM parameter, e.g. "net0", "efidisk0", "agent". */
export function paramSubSchema(name: string): SubSchema {
  const format = requireParam(name).format;
  if (typeof format !== "object") throw new Error(`PVE schema facts: ${name} is not a property string`);
  return format;
}

/** The allowed values of one key of a property-string parameter (e.g. net0 model). */
export function subKeyEnum(param: string, key: string): NonEmpty {
  return asEnum(paramSubSchema(param)[key]?.enum, `${param} ${key}`);
}

/** Slot names of an indexed parameter: ("scsi") -> scsi0 .. scsi30, from the schema's index range. */
export function slotNames(base: string): string[] {
  const schema = requireParam(`${base}0`);
  const range = schema.index ?? { min: 0, max: 0 };
  const names: string[] = [];
  for (let i = range.min; i <= range.max; i++) names.push(`${base}${i}`);
  return names;
}

/** The drive property-string schema of a bus (what `scsi0`, `virtio0` ... accept). */
export function driveSubSchema(bus: Bus): SubSchema {
  return paramSubSchema(`${bus}0`);
}

/** The bus of a drive slot ("scsi3" -> "scsi"). */
export function busOf(slot: string): Bus | undefined {
  return driveBusOf(slot);
}
