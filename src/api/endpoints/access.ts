// Access control reads: the effective permissions of the calling user or token.
import type { ApiParams } from "../../schema/index.js";
import { type ApiReader, get, wireShape } from "./call.js";

/**
 * ACL path -> privilege -> 1 when it propagates to the paths below, else 0. The schema says
 * only `object`; this is the map PVE answers with (one entry per path the caller has a role on).
 */
export type PermissionMap = Record<string, Record<string, number>>;

/** What the caller may do, per ACL path; an empty map for a caller with no privilege at all. */
export async function getPermissions(api: ApiReader, params?: ApiParams<"/access/permissions", "GET">): Promise<PermissionMap> {
  return wireShape<PermissionMap | null>(await get(api, "/access/permissions", params)) ?? {};
}
