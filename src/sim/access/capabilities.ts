// The `cap` object of a login response (POST /access/ticket), computed the way PVE's
// RPCEnvironment compute_api_permission does: which privileges the user holds anywhere in
// each area, so a GUI can decide which buttons to show.
//
// Facts from pve-access-control (PVE/RPCEnvironment.pm):
// - the paths looked at are a fixed set plus every path of the ACL tree (each node, so also the
//   parents of an ACL path); pool member paths are not looked at;
// - an area is a path's first component, "/" is `dc`; a privilege counts for an area only when
//   it matches that area's family (so `access` holds only User.*, Group.* and
//   Permissions.Modify, never Realm.* or Sys.Audit);
// - a /pool path feeds `vms` (VM.*) and `storage` (Datastore.*), and Permissions.Modify to both;
// - every area is present, empty when nothing matched.
import type { AuthIdentity } from "../contract.js";
import { normalizePath } from "./evaluate.js";
import type { AccessControl } from "./service.js";

const AREA_PRIVILEGES: Record<string, RegExp> = {
  vms: /^(VM\.|Permissions\.Modify)/,
  access: /^((User|Group)\.|Permissions\.Modify)/,
  storage: /^(Datastore\.|Permissions\.Modify)/,
  nodes: /^(Sys\.|Permissions\.Modify)/,
  sdn: /^(SDN\.|Permissions\.Modify)/,
  dc: /^(Sys\.Audit|Sys\.Modify|SDN\.)/,
  mapping: /^(Mapping\.|Permissions\.Modify)/,
};

const REQUIRED_PATHS = ["/", "/nodes", "/access/groups", "/vms", "/storage", "/sdn", "/mapping"];

/** Every node of the ACL tree: each ACL path and the paths above it. */
function aclTreePaths(access: AccessControl): string[] {
  const paths = new Set<string>(["/"]);
  for (const entry of access.state.acl) {
    const parts = normalizePath(entry.path).split("/").filter(Boolean);
    for (let i = 1; i <= parts.length; i++) paths.add(`/${parts.slice(0, i).join("/")}`);
  }
  return [...paths];
}

function areaOf(path: string): string {
  return /^\/(\w+)/.exec(path)?.[1] ?? "dc";
}

/** What a privilege held on a /pool path adds to which areas. */
function poolAreas(priv: string): string[] {
  if (priv.startsWith("VM.")) return ["vms"];
  if (priv.startsWith("Datastore.")) return ["storage"];
  if (priv === "Permissions.Modify") return ["storage", "vms"];
  return [];
}

export function capabilities(access: AccessControl, auth: AuthIdentity): Record<string, Record<string, number>> {
  const cap: Record<string, Record<string, number>> = {};
  for (const area of Object.keys(AREA_PRIVILEGES)) cap[area] = {};
  for (const path of new Set([...REQUIRED_PATHS, ...aclTreePaths(access)])) {
    const area = areaOf(path);
    const family = AREA_PRIVILEGES[area];
    for (const priv of access.privileges(auth, path).keys()) {
      if (area === "pool") {
        for (const target of poolAreas(priv)) (cap[target] as Record<string, number>)[priv] = 1;
      } else if (family?.test(priv)) {
        (cap[area] as Record<string, number>)[priv] = 1;
      }
    }
  }
  return cap;
}
