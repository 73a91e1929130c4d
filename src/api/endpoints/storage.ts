// Storage reads: the volumes a storage holds on a node.
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
