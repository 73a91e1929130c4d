// The final read-back of a guest after its steps ran: re-plan it against a fresh read. Steps
// left mean the guest does not match the spec (another run, a person or a tool changed it
// while this apply ran, or a step did not land as planned): the report says "not converged"
// instead of "ok".
import type { PveClient } from "../api/index.js";
import { planUpdate } from "../resources/vm/diff.js";
import type { DesiredVm } from "../resources/vm/model.js";
import { readCluster, readGuest } from "./cluster.js";
import { errorText } from "./retry-policy.js";

/** Why the guest is not converged (undefined: it matches the spec). */
export async function notConverged(client: PveClient, desired: DesiredVm, vmid: number): Promise<string | undefined> {
  try {
    const summary = (await readCluster(client)).guests.find((g) => g.vmid === vmid);
    if (summary === undefined) return `not converged: vmid ${vmid} is gone`;
    const live = await readGuest(client, summary);
    // Power options only shape stop steps; any step left is a difference.
    const left = planUpdate({ ...desired, vmid }, live, { shutdownTimeoutSeconds: 0, forceStop: false });
    const what = [...left.errors, ...left.steps.map((s) => s.summary)];
    if (what.length === 0) return undefined;
    return `not converged: the guest does not match the spec after this run (${what.join("; ")}); it was changed meanwhile by someone else: run plan again`;
  } catch (err) {
    return `not converged: the final read-back failed: ${errorText(err).split("\n")[0]}`;
  }
}
