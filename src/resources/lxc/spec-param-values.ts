// The container values the plan sends as API parameters of their own, outside the options
// table (whose fields spec-normalize checks row by row): `hostname` (create and config) and
// `ostemplate` (create). The spec's patterns already hold them to a DNS name and a volume id;
// PVE's parameter check also caps each at 255 characters (pve-container: confdesc `hostname`,
// the create endpoint's `ostemplate`), which only that check knows. The VM counterpart runs
// the same check on `name` (qemu/spec-plan-values.ts).
import { validateValue } from "../../pve/validate.js";
import type { IssueSink, SpecPath } from "../spec-section/issues.js";
import { requireLxcParam } from "./spec-facts.js";

/** Reports at `path` what PVE's parameter check would refuse in `value` for `key`; true when it accepts it. */
export function checkCtParam(key: "hostname" | "ostemplate", value: string, path: SpecPath, sink: IssueSink): boolean {
  const error = validateValue(requireLxcParam(key), value, key).error;
  if (error === undefined) return true;
  sink.add(path, `PVE would refuse this: ${error.trim().replace(/\n/g, "; ")}`);
  return false;
}
