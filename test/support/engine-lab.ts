// Shared setup of the engine tests: an in-process simulator (HTTP, instant tasks) and a
// client logged in as root@pam, closed together; a spec's guests for the engine, and a spec
// planned and applied in one call.
import { PveClient } from "../../src/api/index.js";
import { type ApplyPlanOptions, applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import type { DesiredVm } from "../../src/resources/qemu/model.js";
import { type RunningSimulator, startSimulator, type SimulatorOptions } from "../../src/sim/index.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { desiredVmFromSpec } from "../../src/resources/qemu/spec-desired.js";

export interface Lab {
  sim: RunningSimulator;
  client: PveClient;
  close(): Promise<void>;
}

/** A client of the lab's simulator for another user (sim config `access` section). */
export function clientAs(lab: Lab, user: string, password: string): PveClient {
  const url = new URL(lab.sim.url);
  return new PveClient({ host: url.hostname, port: Number(url.port), protocol: "http", user, password });
}

export async function startLab(options: SimulatorOptions = {}): Promise<Lab> {
  const sim = await startSimulator({ port: 0, https: false, seed: 7, ...options });
  const url = new URL(sim.url);
  const client = new PveClient({
    host: url.hostname,
    port: Number(url.port),
    protocol: "http",
    user: "root@pam",
    password: sim.rootPassword,
  });
  return {
    sim,
    client,
    close: async () => {
      await client.close();
      await sim.close();
    },
  };
}

/** The VMs of a `vms:` spec text as the engine compares them. */
export function desired(yaml: string): DesiredVm[] {
  return parseSpec(yaml, "test.yaml").vms.map(desiredVmFromSpec);
}

/** Small task polls so instant tasks are seen at once. */
// Enough retries to outlast a 150 ms lock even when the shared machine is slow.
export const fastApply = { taskPoll: { minIntervalMs: 5, maxIntervalMs: 20 }, retry: { maxAttempts: 10, baseDelayMs: 10, maxDelayMs: 50 } };

/** Plans the spec and applies the plan through the app layer (what planning read is reused), with fastApply unless `options` say otherwise. */
export async function converge(lab: Lab, yaml: string, options: ApplyPlanOptions = {}) {
  const planned = await planSpec(lab.client, parseSpec(yaml, "test.yaml"));
  return { plan: planned.plan, report: await applyPlan(lab.client, planned, { ...fastApply, ...options }) };
}
