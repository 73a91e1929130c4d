// What the placement tests do to the simulator behind pvectl's back: where the cluster lists a
// guest, a migration an operator (or HA) makes, an HA resource.
import type { ClusterResource } from "../../src/api/endpoints/index.js";
import type { Lab } from "./engine-lab.js";

/** The guest as GET /cluster/resources lists it (node, status, tags, hastate). */
export async function listedGuest(lab: Lab, vmid: number): Promise<ClusterResource | undefined> {
  const all = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as ClusterResource[];
  return all.find((g) => Number(g.vmid) === vmid);
}

/** Someone else moves the guest (POST …/migrate as an operator would), and the task ends. */
export async function migrateBehindOurBack(lab: Lab, type: "qemu" | "lxc", vmid: number, from: string, to: string): Promise<void> {
  const listed = await listedGuest(lab, vmid);
  const online = listed?.status === "running" ? (type === "qemu" ? { online: 1, "with-local-disks": 1 } : { restart: 1 }) : {};
  await lab.client.request("POST", `/nodes/${from}/${type}/${vmid}/migrate`, { target: to, ...online });
  await lab.sim.admin.waitForTasks();
  const after = await listedGuest(lab, vmid);
  if (after?.node !== to) throw new Error(`test set-up: vmid ${vmid} did not move to ${to} (it is on ${after?.node})`);
}

/** Makes the guest an HA resource (`vm:N` / `ct:N`) in `state`. */
export async function addHaResource(lab: Lab, sid: string, state = "started"): Promise<void> {
  await lab.client.request("POST", "/cluster/ha/resources", { sid, state });
  await lab.sim.admin.waitForTasks();
}
