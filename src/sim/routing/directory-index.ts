// PVE's directory indexes (GET /cluster, GET /nodes/{node}, GET /nodes/{node}/qemu/{vmid} ...)
// only list the literal sub-paths below them. For such endpoints without a handler of their
// own, the list is derived from the schema: `[{subdir: "x"}]` when the schema says the items
// carry `subdir`, `[{name: "x"}]` otherwise (as pve-manager's index methods do).
import { allEndpoints } from "../../schema/index.js";
import type { EndpointSchema } from "../../schema/types.js";

/** GET /api2/json/ (not in the schema: pve-manager's API2.pm root index). */
export const ROOT_INDEX = ["version", "cluster", "nodes", "storage", "access", "pools"].map((subdir) => ({ subdir }));

let children: Map<string, string[]> | undefined;

function childMap(): Map<string, string[]> {
  if (children) return children;
  children = new Map();
  for (const e of allEndpoints()) {
    const cut = e.path.lastIndexOf("/");
    const parent = cut <= 0 ? "/" : e.path.slice(0, cut);
    const last = e.path.slice(cut + 1);
    if (!last || last.startsWith("{")) continue;
    const list = children.get(parent) ?? [];
    if (!list.includes(last)) list.push(last);
    children.set(parent, list);
  }
  return children;
}

/** The index entries of a GET endpoint that is a plain directory listing, or undefined. */
export function directoryIndex(endpoint: EndpointSchema): Array<Record<string, string>> | undefined {
  if (endpoint.method !== "GET" || endpoint.returns.type !== "array") return undefined;
  const props = Object.keys(endpoint.returns.items?.properties ?? {});
  if (props.some((p) => p !== "subdir" && p !== "name")) return undefined;
  const names = childMap().get(endpoint.path);
  if (!names || names.length === 0) return undefined;
  const key = props.includes("subdir") ? "subdir" : "name";
  return [...names].sort().map((n) => ({ [key]: n }));
}
