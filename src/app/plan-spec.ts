// Planning a spec (`pvectl plan`, `apply -f`, the demo, library users): the spec's guests as
// the engine compares them, planned against the live cluster.
import type { PveClient } from "../api/index.js";
import { buildPlan, type PlanContext, type PlanOptions } from "../engine/plan.js";
import type { Plan } from "../plan/types.js";
import type { DesiredCt } from "../resources/lxc/model.js";
import { type DesiredGuest, type GuestSections, type GuestSpec, guestKinds } from "../resources/index.js";
import type { SpecDocument } from "../sources/spec/index.js";
import { desiredCtFromSpec } from "../resources/lxc/spec-desired.js";
import { type DesiredObjects, desiredObjectsOf as objectsOfSections, type ObjectSections } from "../resources/objects.js";

/**
 * What a use case works on: a spec's VMs and containers, and the object families' sections it
 * declares (backup jobs, access: absent, not managed), as loadSpecFiles and parseSpec return them.
 */
export type SpecGuests = Pick<SpecDocument, "vms"> & Partial<Pick<SpecDocument, "containers">> & ObjectSections;

/** The cluster objects the spec declares, as the engine compares them (a command works on one connection: openSpecTarget picks it). */
export function desiredObjectsOf(spec: SpecGuests): DesiredObjects {
  return objectsOfSections(spec);
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

/** Every guest of the spec as the engine compares them: each kind's in registry order (VMs, then containers). */
export function desiredOf(spec: SpecGuests): DesiredGuest[] {
  const guests: Partial<GuestSections> = spec;
  const sections: Partial<Record<string, GuestSpec[]>> = guests;
  return guestKinds().flatMap((kind) => (sections[kind.spec.key] ?? []).map((guest) => kind.spec.toDesired(guest)));
}

/** Plans the spec's guests against the live cluster: nothing is changed. */
export async function planSpec(client: PveClient, spec: SpecGuests, options: PlanOptions = {}): Promise<Required<PlannedSpec>> {
  const desired = desiredOf(spec);
  const objects = desiredObjectsOf(spec);
  return { ...(await buildPlan(client, desired, options, objects)), desired, objects };
}
