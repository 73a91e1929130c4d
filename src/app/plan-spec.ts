// Planning a spec (`pvectl plan`, `apply -f`, the demo, library users): the spec's guests as
// the engine compares them, planned against the live cluster.
import type { PveClient } from "../api/index.js";
import { buildPlan, type PlanContext, type PlanOptions } from "../engine/plan.js";
import type { Plan } from "../plan/types.js";
import type { DesiredCt } from "../resources/lxc/model.js";
import type { DesiredGuest } from "../resources/index.js";
import type { SpecDocument } from "../sources/spec/index.js";
import type { DesiredObjects } from "../resources/objects.js";
import { desiredCtFromSpec } from "../resources/lxc/spec-desired.js";
import { desiredVmFromSpec } from "../resources/qemu/spec-desired.js";

/**
 * What a use case works on: a spec's VMs and containers, and the backup jobs it declares (absent:
 * not managed), as loadSpecFiles and parseSpec return them.
 */
export type SpecGuests = Pick<SpecDocument, "vms"> & Partial<Pick<SpecDocument, "containers" | "backupJobs" | "access">>;

/** The cluster objects the spec declares, as the engine compares them. */
export function desiredObjectsOf(spec: SpecGuests): DesiredObjects {
  const out: DesiredObjects = {};
  if (spec.backupJobs !== undefined) out.backupJobs = { jobs: spec.backupJobs.map((job) => job.desired) };
  // One access section per cluster: a command works on one connection (openSpecTarget picks it).
  const access = spec.access?.[0];
  if (access !== undefined) out.access = access.desired;
  return out;
}

/** The spec's containers as the engine compares them. */
export function desiredContainersOf(spec: SpecGuests): DesiredCt[] {
  return (spec.containers ?? []).map(desiredCtFromSpec);
}

/** A plan ready for applyPlan. */
export interface PlannedSpec {
  /** What apply will do: plain data, to print, save or send as JSON. */
  plan: Plan;
  /** The spec's guests as the engine compares them (apply re-plans them to verify convergence, when asked). */
  desired: DesiredGuest[];
  /** The spec's objects (backup jobs, access) as the engine compares them: apply reads them back too, when asked. */
  objects?: DesiredObjects;
  /** What planning read (the cluster, the live guests), reused by apply; without it apply reads the cluster itself. */
  context?: PlanContext;
}

/** Every guest of the spec as the engine compares them: its VMs, then its containers. */
export function desiredOf(spec: SpecGuests): DesiredGuest[] {
  return [...spec.vms.map(desiredVmFromSpec), ...desiredContainersOf(spec)];
}

/** Plans the spec's guests against the live cluster: nothing is changed. */
export async function planSpec(client: PveClient, spec: SpecGuests, options: PlanOptions = {}): Promise<Required<PlannedSpec>> {
  const desired = desiredOf(spec);
  const objects = desiredObjectsOf(spec);
  return { ...(await buildPlan(client, desired, options, objects)), desired, objects };
}
