// Per-node reads: network interfaces.
import type { ApiParams, ApiReturns } from "../../schema/index.js";
import { type ApiReader, get } from "./call.js";

export type NodeInterface = ApiReturns<"/nodes/{node}/network", "GET">[number];

/** The node's interfaces; `type: "any_bridge"` lists the bridges a NIC can use (Linux, OVS and SDN vnets). */
export async function getNodeNetwork(
  api: ApiReader,
  node: string,
  params: Omit<ApiParams<"/nodes/{node}/network", "GET">, "node"> = {},
): Promise<NodeInterface[]> {
  return get(api, "/nodes/{node}/network", { node, ...params });
}
