// Container values the spec writes in its own shape, printed the way PVE stores them.
import { PropertyStringError, printPropertyString } from "../../pve/property-string.js";
import { canonical } from "../formats.js";
import type { IssueSink, SpecPath } from "../spec-section/issues.js";
import { lxcSubSchema } from "./spec-facts.js";

type CtFeatures = Record<string, boolean | string[] | undefined>;

/** `{ nesting: true, mount: [nfs, cifs] }` -> `mount=nfs;cifs,nesting=1` (PVE's features string). */
export function printCtFeatures(features: CtFeatures): string {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(features)) {
    if (value === undefined) continue;
    values[name] = Array.isArray(value) ? value.join(";") : canonical(value);
  }
  return printPropertyString(values, lxcSubSchema("features"), { key: "features" });
}

/** What to write instead, for the flags whose value people get wrong. */
const FEATURE_HINTS: Record<string, string> = {
  // `mount: []` prints as `mount=`, which the flag's pattern refuses: it needs one type at least.
  mount: "list at least one file system type, e.g. [nfs], or leave `mount` out",
};

/**
 * The features string the plan sends, or undefined after reporting at each flag what PVE's
 * check of the string would refuse (the spec's own schema lets an empty `mount: []` through).
 */
export function ctFeaturesValue(features: CtFeatures, path: SpecPath, sink: IssueSink): string | undefined {
  try {
    return printCtFeatures(features);
  } catch (err) {
    if (!(err instanceof PropertyStringError)) throw err;
    const entries = Object.entries(err.errors);
    if (entries.length === 0) sink.add(path, `PVE would refuse this: ${err.message}`);
    for (const [where, message] of entries) {
      const flag = where.split(".").slice(1).join(".");
      const hint = Object.hasOwn(FEATURE_HINTS, flag) ? ` (${FEATURE_HINTS[flag]})` : "";
      sink.add(flag === "" ? path : [...path, flag], `PVE would refuse this: ${message.trim().replace(/\n/g, "; ")}${hint}`);
    }
    return undefined;
  }
}
