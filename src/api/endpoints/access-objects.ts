// Access control objects: roles, groups, users with their tokens, the ACL (user.cfg, token.cfg).
import type { ApiReturns } from "../../schema/index.js";
import { type ApiReader, get, wireShape } from "./call.js";

export type RoleEntry = ApiReturns<"/access/roles", "GET">[number];
export type GroupEntry = ApiReturns<"/access/groups", "GET">[number];
export type AclEntry = ApiReturns<"/access/acl", "GET">[number];

export type UserEntry = ApiReturns<"/access/users", "GET">[number];
/** A token as GET /access/users?full=1 lists it under its user. */
export type TokenEntry = NonNullable<UserEntry["tokens"]>[number];

/** Built-in and custom roles (`special` 1: built-in); `privs` comma-separated. */
export async function getRoles(api: ApiReader): Promise<RoleEntry[]> {
  return get(api, "/access/roles");
}

export async function getGroups(api: ApiReader): Promise<GroupEntry[]> {
  return get(api, "/access/groups");
}

/** Every user the caller may see, with groups (comma-separated) and tokens. */
export async function getUsersFull(api: ApiReader): Promise<UserEntry[]> {
  return get(api, "/access/users", { full: 1 });
}

export async function getAcl(api: ApiReader): Promise<AclEntry[]> {
  return get(api, "/access/acl");
}

/** How many guests and storages pool `poolid` holds (GET /pools?poolid=, PVE ≥ 8). */
export async function getPoolMemberCount(api: ApiReader, poolid: string): Promise<number> {
  const [pool] = await get(api, "/pools", { poolid });
  return (pool?.members ?? []).length;
}

/** The one-time secret in a call's answer (a new token's `value`), when the answer holds one. */
export function revealedSecret(answer: unknown, field: string): string | undefined {
  const value = wireShape<Record<string, unknown> | null>(answer)?.[field];
  return typeof value === "string" && value !== "" ? value : undefined;
}
