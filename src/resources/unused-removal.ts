// How an operator destroys a volume a guest keeps as `unusedN` (the source of a move made
// without --allow-data-loss, a detached disk): PVE destroys the volume of an unusedN key it
// deletes. pvectl never plans that on its own for a volume the spec does not name (it keeps
// no record of which unusedN a move of its own left), so plans and reports say the command.
import { isAllocatedVmid } from "../plan/call.js";
import type { VmidRef } from "./api-paths.js";

export function unusedRemoval(noun: "VM" | "container", node: string, vmid: VmidRef, key: string): string {
  // A vmid apply allocates is not known when the plan says this: `{vmid}` stands for it.
  const id = isAllocatedVmid(vmid) ? "{vmid}" : vmid;
  return `\`${noun === "VM" ? "qm" : "pct"} set ${id} --delete ${key}\` on node ${node}`;
}
