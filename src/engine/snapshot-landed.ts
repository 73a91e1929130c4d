// Whether a snapshot call whose answer was lost took effect, read back from the guest's
// snapshot list (the runner first waits for the lost request's task, if PVE started one).
// A create is done when the snapshot is listed (the preflight made sure the name was free), a
// delete when it is not; either is then never sent again. A rollback leaves no trace that
// tells "rolled back just now" from "was at that snapshot already", so it is never taken as
// landed: sent again it ends in the same state (the guest at that snapshot).
import type { PveClient } from "../api/index.js";
import type { SnapshotIntent } from "../plan/intent.js";
import { readSnapshots } from "./snapshot-plan.js";

export async function snapshotLanded(client: PveClient, guest: { node: string; vmid: number }, intent: SnapshotIntent): Promise<boolean> {
  if (intent.action === "rollback") return false;
  const listed = await readSnapshots(client, { type: intent.kind, node: guest.node, vmid: guest.vmid });
  const present = listed.some((s) => s.name === intent.name);
  return intent.action === "create" ? present : !present;
}
