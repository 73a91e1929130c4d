// What the runner needs to resolve a write whose answer was lost (a timeout, a connection
// closed after the request was sent): the task the lost request may have started. PVE starts
// a worker task for these calls, and lists it under the guest's vmid with our user: finding it
// tells us the request arrived, and its exit status is the request's outcome. (Which writes
// must never be sent twice unguarded is the call's intent: plan/intent.ts.)
import { getNodeTasks } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import { parseUpid } from "../pve/upid.js";

/** Clock skew we tolerate between this host and the node when asking for tasks "since" a call. */
const SKEW_SECONDS = 120;

/**
 * A task of `type` for `vmid`, started by this client's user at or after `sentAtMs` (less a
 * skew margin), that the runner has not already accounted for: the lost request's task.
 */
export async function findLostTask(
  client: PveClient,
  where: { node: string; vmid: number; type: string; sentAtMs: number },
  known: ReadonlySet<string>,
): Promise<string | undefined> {
  const tasks = await getNodeTasks(client, where.node, {
    source: "all",
    vmid: where.vmid,
    typefilter: where.type,
    userfilter: client.identity.split("!")[0],
    since: Math.floor(where.sentAtMs / 1000) - SKEW_SECONDS,
    limit: 50,
  });
  const candidates = tasks.filter((t) => !known.has(t.upid) && taskStartedBy(t.upid, client.identity));
  // The newest one: anything older than the call belongs to an earlier step (already known).
  candidates.sort((a, b) => (b.starttime ?? 0) - (a.starttime ?? 0));
  return candidates[0]?.upid;
}

function taskStartedBy(upid: string, identity: string): boolean {
  try {
    return parseUpid(upid).user === identity;
  } catch {
    return false;
  }
}
