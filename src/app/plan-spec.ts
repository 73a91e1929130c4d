// Planning a spec (`pvectl plan`, `apply -f`, the demo, library users): the spec's guests as
// the engine compares them, planned against the live cluster.
import type { PveClient } from "../api/index.js";
import { buildPlan, type PlanContext, type PlanOptions } from "../engine/plan.js";
import type { Plan } from "../plan/types.js";
import type { DesiredCt } from "../resources/lxc/model.js";
import type { DesiredVm } from "../resources/qemu/model.js";
import type { SpecDocument } from "../sources/spec/index.js";
import { desiredCtFromSpec } from "../sources/spec/lxc-desired.js";
import { desiredVmFromSpec } from "../sources/spec/qemu-desired.js";
import { PvectlError } from "../util/errors.js";

/** The guests a use case works on: a spec's VMs and containers, as loadSpecFiles and parseSpec return them. */
export type SpecGuests = Pick<SpecDocument, "vms"> & Partial<Pick<SpecDocument, "containers">>;

/** Containers reached an engine that cannot plan them yet (until the lxc kind is in the registry). */
export class ContainersNotPlannableError extends PvectlError {
  readonly kind = "error";

  constructor(count: number) {
    super(`the spec has ${count} container(s), and this build of pvectl reads them but cannot plan them yet; remove \`containers:\` or use a build with the lxc kind`);
    this.name = "ContainersNotPlannableError";
  }
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
  desired: DesiredVm[];
  /** What planning read (the cluster, the live guests), reused by apply; without it apply reads the cluster itself. */
  context?: PlanContext;
}

export function desiredOf(spec: SpecGuests): DesiredVm[] {
  // Never plan a spec partly: a container left out of a plan would be one apply does not do.
  const containers = desiredContainersOf(spec);
  if (containers.length > 0) throw new ContainersNotPlannableError(containers.length);
  return spec.vms.map(desiredVmFromSpec);
}

/** Plans the spec's guests against the live cluster: nothing is changed. */
export async function planSpec(client: PveClient, spec: SpecGuests, options: PlanOptions = {}): Promise<Required<PlannedSpec>> {
  const desired = desiredOf(spec);
  return { ...(await buildPlan(client, desired, options)), desired };
}
