// Storage reads: the volumes a storage holds on a node, and its space.
import type { ApiParams, ApiReturns } from "../../schema/index.js";
import { type ApiReader, get } from "./call.js";

export type StorageVolume = ApiReturns<"/nodes/{node}/storage/{storage}/content", "GET">[number];

/** Volumes on `storage` as seen from `node`, optionally of one content type (`iso`, `images`, `import` ...). */
export async function getStorageContent(
  api: ApiReader,
  node: string,
  storage: string,
  params: Omit<ApiParams<"/nodes/{node}/storage/{storage}/content", "GET">, "node" | "storage"> = {},
): Promise<StorageVolume[]> {
  return get(api, "/nodes/{node}/storage/{storage}/content", { node, storage, ...params });
}

export type NodeStorageStatus = ApiReturns<"/nodes/{node}/storage", "GET">[number];

/** Each storage `node` sees, with its space (total/used/avail, bytes) when PVE could read it; only those visible to the caller. */
export async function getNodeStorages(api: ApiReader, node: string): Promise<NodeStorageStatus[]> {
  return get(api, "/nodes/{node}/storage", { node });
}
