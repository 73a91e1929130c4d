// Container values the spec writes in its own shape, printed the way PVE stores them.
import { printPropertyString } from "../../pve/property-string.js";
import { canonical } from "../formats.js";
import { lxcSubSchema } from "./spec-facts.js";

/** `{ nesting: true, mount: [nfs, cifs] }` -> `mount=nfs;cifs,nesting=1` (PVE's features string). */
export function printCtFeatures(features: Record<string, boolean | string[] | undefined>): string {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(features)) {
    if (value === undefined) continue;
    values[name] = Array.isArray(value) ? value.join(";") : canonical(value);
  }
  return printPropertyString(values, lxcSubSchema("features"), { key: "features" });
}
