// Backup reads: which archives PVE's own retention logic would keep or remove, and which
// guests no backup job covers.
import type { ApiParams, ApiReturns } from "../../schema/index.js";
import { type ApiReader, get } from "./call.js";

/** One archive with PVE's verdict: `keep`, `remove`, `protected`, or `renamed` (not PVE's naming scheme: never removed). */
export type PruneMark = ApiReturns<"/nodes/{node}/storage/{storage}/prunebackups", "GET">[number];

/**
 * PVE's prune dry run (GET …/prunebackups): the marks its retention logic gives each archive
 * of `storage` for the keep options (`keep-last=3,keep-daily=7`), optionally of one guest.
 */
export async function getPruneMarks(
  api: ApiReader,
  node: string,
  storage: string,
  params: Omit<ApiParams<"/nodes/{node}/storage/{storage}/prunebackups", "GET">, "node" | "storage">,
): Promise<PruneMark[]> {
  return get(api, "/nodes/{node}/storage/{storage}/prunebackups", { node, storage, ...params });
}

export type NotBackedUp = ApiReturns<"/cluster/backup-info/not-backed-up", "GET">[number];

/** Guests that no backup job covers, as PVE counts them: a disabled job counts too, and templates are listed. */
export async function getNotBackedUp(api: ApiReader): Promise<NotBackedUp[]> {
  return get(api, "/cluster/backup-info/not-backed-up");
}

/** The guest config a vzdump archive holds, as its config file's text (GET …/vzdump/extractconfig). */
export async function getArchiveConfig(api: ApiReader, node: string, volume: string): Promise<string> {
  return String(await get(api, "/nodes/{node}/vzdump/extractconfig", { node, volume }));
}
