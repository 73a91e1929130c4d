// The final read-back of a guest after its steps ran: re-plan it against a fresh read. Steps
// left mean the guest does not match the spec (another run, a person or a tool changed it
// while this apply ran, or a step did not land as planned): the report says "not converged"
// instead of "ok".
import type { PveClient } from "../api/index.js";
import { type DesiredGuest, kindOf } from "../resources/index.js";
import { readGuest } from "./cluster.js";
import { errorText } from "./retry-policy.js";

/** Why the guest is not converged (undefined: it matches the spec). */
export async function notConverged(client: PveClient, desired: DesiredGuest, where: { vmid: number; node: string }): Promise<string | undefined> {
  const { vmid, node } = where;
  try {
    // One status read (power state, lock) instead of a cluster listing per guest.
    const kind = kindOf(desired);
    const status = await kind.read.status(client, node, vmid);
    const live = await readGuest(client, {
      vmid,
      type: kind.type,
      node,
      status: status.status === "running" ? "running" : "stopped",
      tags: [],
      ...(status.lock ? { lock: status.lock } : {}),
      template: Boolean(status.template),
    });
    // Power options only shape stop steps; any step left is a difference.
    const left = kind.plan.update({ ...desired, vmid }, live, { shutdownTimeoutSeconds: 0, forceStop: false });
    const what = [...left.errors, ...left.steps.map((s) => s.summary)];
    if (what.length === 0) return undefined;
    return `not converged: the guest does not match the spec after this run (${what.join("; ")}); something changed it during this run (another run, a person, a tool), or a step did not take effect: run plan again to see the difference`;
  } catch (err) {
    return `not converged: the final read-back, which confirms the guest matches the spec, failed: ${errorText(err).split("\n")[0]}`;
  }
}
