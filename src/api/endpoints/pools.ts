// Resource pools.
import type { ApiReturns } from "../../schema/index.js";
import { type ApiReader, get } from "./call.js";

export type Pool = ApiReturns<"/pools", "GET">[number];

/** The pools this user may audit (PVE leaves the others out of the list). */
export async function getPools(api: ApiReader): Promise<Pool[]> {
  return get(api, "/pools");
}
