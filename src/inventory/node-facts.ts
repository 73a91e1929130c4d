// Facts read once per node rather than once per guest: QEMU's run state (`qmpstatus`) of the
// running VMs, from one `GET /nodes/{node}/qemu?full=1` per node that has any, and the
// hypervisors' addresses for the nodes group, from one `GET /cluster/status`.
import type { ApiReader } from "../api/endpoints/call.js";
import { getClusterStatus } from "../api/endpoints/cluster.js";
import { getNodeQemuList } from "../api/endpoints/qemu.js";
import { describe } from "./guest-facts.js";
import type { InventoryGuest, InventoryNode } from "./model.js";

/** Sets `qmpstatus` on every QEMU guest given: `stopped` when it is not running, else what its node reports. */
export async function readQmpStatuses(api: ApiReader, guests: readonly InventoryGuest[]): Promise<void> {
  const running = new Map<string, InventoryGuest[]>();
  for (const guest of guests) {
    if (guest.type !== "qemu") continue;
    if (guest.status !== "running") {
      guest.qmpstatus = "stopped";
      continue;
    }
    const onNode = running.get(guest.node);
    if (onNode) onNode.push(guest);
    else running.set(guest.node, [guest]);
  }
  await Promise.all(
    [...running].map(async ([node, onNode]) => {
      try {
        const byVmid = new Map((await getNodeQemuList(api, node, true)).map((entry) => [entry.vmid, entry.qmpstatus]));
        for (const guest of onNode) {
          const status = byVmid.get(guest.vmid);
          if (status !== undefined) guest.qmpstatus = status;
        }
      } catch (err) {
        for (const guest of onNode) guest.factErrors = [...(guest.factErrors ?? []), `qmpstatus: ${describe(err)}`];
      }
    }),
  );
}

/** Adds each node's cluster address (`ip` of GET /cluster/status); a node PVE gives none for keeps none. */
export async function readNodeAddresses(api: ApiReader, nodes: InventoryNode[]): Promise<void> {
  const ips = new Map<string, string>();
  for (const entry of await getClusterStatus(api)) if (entry.type === "node" && entry.ip) ips.set(entry.name, entry.ip);
  for (const node of nodes) {
    const ip = ips.get(node.name);
    if (ip) node.address = ip;
  }
}
