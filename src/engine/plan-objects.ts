// The objects section of a plan: cluster objects that are not guests (backup jobs), read once,
// diffed by their kind, with their adoption refusals and missing privileges as preflight
// problems (nothing runs while any remain).
import { getPermissions } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import { planBackupJobs, readBackupJobs } from "../resources/backup-job/index.js";
import type { DesiredObjects } from "../resources/objects.js";
import type { ObjectPlan, PreflightProblem } from "../plan/types.js";
import { missingPrivileges, stepNeeds } from "./privileges.js";

export interface ObjectPlanning {
  objects: ObjectPlan[];
  problems: PreflightProblem[];
}

/** The privileges the objects' steps need that the user lacks. */
async function objectPermissions(client: PveClient, objects: ObjectPlan[]): Promise<PreflightProblem[]> {
  const steps = objects.flatMap((o) => o.steps);
  if (steps.length === 0) return [];
  const dump = await getPermissions(client);
  const owner = new Map(objects.flatMap((o) => o.steps.map((s) => [s.id, o.key] as const)));
  return missingPrivileges(dump, stepNeeds(steps)).map((need) => ({
    kind: "permission" as const,
    guest: owner.get(need.stepId) ?? "",
    path: need.path,
    privilege: need.privilege,
    message: `${client.identity} lacks ${need.privilege} on ${need.path} (needed by step ${need.stepId})`,
  }));
}

/** Plans the spec's objects; kinds the spec does not declare are not read. */
export async function planObjects(client: PveClient, desired: DesiredObjects, options: { adopt?: boolean; skipPreflight?: boolean }): Promise<ObjectPlanning> {
  if (desired.backupJobs === undefined) return { objects: [], problems: [] };
  const live = await readBackupJobs(client);
  const jobs = planBackupJobs(desired.backupJobs, live, options);
  const problems: PreflightProblem[] = jobs.refused.map((r) => ({ kind: "adoption", guest: r.key, message: r.message }));
  if (!options.skipPreflight) problems.push(...(await objectPermissions(client, jobs.objects)));
  return { objects: jobs.objects, problems };
}
