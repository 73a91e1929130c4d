// Reads the snapshot commands need: a guest's snapshots, and the storages of a node with their
// type and space (one listing per node tells which volumes can be snapshotted and how full the
// pools holding them are).
import type { ApiReturns } from "../../schema/index.js";
import { type ApiReader, get } from "./call.js";

/** One entry of GET …/snapshot; PVE adds a `current` entry (the live state) that is not a snapshot. */
export interface ListedSnapshot {
  name: string;
  description?: string;
  parent?: string;
  /** Seconds since the epoch; absent on `current`. */
  snaptime?: number;
  /** A VM snapshot that saved the RAM (PVE sends 0/1). */
  vmstate?: boolean | number;
}

/** The snapshots of a guest by its type, as PVE lists them (with `current`). */
export async function getGuestSnapshots(api: ApiReader, type: "qemu" | "lxc", node: string, vmid: number): Promise<ListedSnapshot[]> {
  if (type === "lxc") return (await get(api, "/nodes/{node}/lxc/{vmid}/snapshot", { node, vmid })) as ListedSnapshot[];
  return (await get(api, "/nodes/{node}/qemu/{vmid}/snapshot", { node, vmid })) as ListedSnapshot[];
}

export type NodeStorage = ApiReturns<"/nodes/{node}/storage", "GET">[number];

/** The storages a node sees (those this user may audit), with their type, `total` and `avail` bytes. */
export async function getNodeStorages(api: ApiReader, node: string): Promise<NodeStorage[]> {
  return get(api, "/nodes/{node}/storage", { node });
}
