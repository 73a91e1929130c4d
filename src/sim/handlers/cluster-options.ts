// GET/PUT /cluster/options: datacenter.cfg. PVE answers GET with the file's settings as written
// (an option never set is absent, not its default); PUT sets the given options and removes the
// ones named in `delete`, under the file's lock. The schema check already asked Sys.Audit
// (GET) or Sys.Modify (PUT) on `/` and typed the values. mac_prefix is the model's MAC prefix,
// which new NICs use.
import { splitList } from "../../pve/index.js";
import type { ClusterState } from "../cluster/types.js";
import type { HandlerContext, Router } from "../contract.js";
import { sim } from "./context.js";

const DEFAULT_MAC_PREFIX = "BC:24:11";

function getOptions(ctx: HandlerContext): Record<string, string | number> {
  const state = sim(ctx).state;
  return { ...(state.datacenterOptions ?? {}), ...(state.macPrefix !== DEFAULT_MAC_PREFIX ? { mac_prefix: state.macPrefix } : {}) };
}

function setOption(state: ClusterState, key: string, value: string | number | undefined): void {
  if (key === "mac_prefix") {
    state.macPrefix = value === undefined ? DEFAULT_MAC_PREFIX : String(value);
    return;
  }
  const options = { ...(state.datacenterOptions ?? {}) };
  if (value === undefined) delete options[key];
  else options[key] = value;
  state.datacenterOptions = options;
}

function setOptions(ctx: HandlerContext): null {
  const state = sim(ctx).state;
  for (const [key, value] of Object.entries(ctx.params)) {
    if (key !== "delete" && value !== undefined) setOption(state, key, value);
  }
  for (const key of splitList(String(ctx.params.delete ?? ""))) setOption(state, key, undefined);
  return null;
}

export function registerClusterOptionsHandlers(router: Router): void {
  router.add("GET", "/cluster/options", getOptions);
  router.add("PUT", "/cluster/options", setOptions);
}
