// HA reads: the resources the HA manager protects and PVE 9's HA rules (pve-ha-manager's API),
// both readable with Sys.Audit on `/`.
import type { ApiReturns } from "../../schema/index.js";
import { type ApiReader, get, wireShape } from "./call.js";

/** An HA resource as GET /cluster/ha/resources lists it: `sid` (`vm:100`), `state`, its options. */
export type HaResourceEntry = ApiReturns<"/cluster/ha/resources/{sid}", "GET">;

/**
 * An HA rule as GET /cluster/ha/rules lists it: the schema types only `rule`; PVE adds the rule's
 * keys (`type`, `resources` and `nodes` as comma lists, `strict`, `affinity`, `disable`,
 * `comment`), its `order`, the config's `digest` and, for a rule the HA manager cannot honour,
 * `errors`.
 */
export type HaRuleEntry = Record<string, unknown> & { rule: string; type?: string };

export async function getHaResources(api: ApiReader): Promise<HaResourceEntry[]> {
  return wireShape<HaResourceEntry[]>(await get(api, "/cluster/ha/resources"));
}

export async function getHaRules(api: ApiReader): Promise<HaRuleEntry[]> {
  return wireShape<HaRuleEntry[]>(await get(api, "/cluster/ha/rules"));
}
