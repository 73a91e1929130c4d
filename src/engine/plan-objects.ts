// The objects section of a plan: cluster objects that are not guests (backup jobs, access
// objects), each family read once and diffed by its kinds (resources/objects.ts), with their
// adoption refusals, unusable secret files and missing privileges as preflight problems
// (nothing runs while any remain).
import { getPermissions } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import type { ObjectPlan, PreflightProblem, RequiredPrivilege } from "../plan/types.js";
import {
  type DesiredObjects,
  type ObjectPlanOptions,
  objectReadNeeds,
  planObjectFamilies,
  type SecretFileState,
} from "../resources/objects.js";
import { missingPrivileges, type PermissionDump, stepNeeds } from "./privileges.js";
import { secretFileStates } from "./secret-file-state.js";

export interface ObjectPlanning {
  objects: ObjectPlan[];
  problems: PreflightProblem[];
}

/** Privileges planning itself needs (reading whole lists). */
function readNeeds(desired: DesiredObjects): RequiredPrivilege[] {
  return objectReadNeeds(desired).map((n) => ({ ...n, stepId: "" }));
}

function readProblems(client: PveClient, dump: PermissionDump, needs: RequiredPrivilege[]): PreflightProblem[] {
  return missingPrivileges(dump, needs, client.identity).map((need) => ({
    kind: "permission" as const,
    path: need.path,
    privilege: need.privilege,
    message: `${client.identity} lacks ${need.privilege} on ${need.path}: PVE would list only part of what the spec manages there, so the plan could not be trusted`,
  }));
}

/** The privileges the objects' steps need that the user lacks. */
async function objectPermissions(client: PveClient, objects: ObjectPlan[], desired: DesiredObjects): Promise<PreflightProblem[]> {
  const steps = objects.flatMap((o) => o.steps);
  const reading = readNeeds(desired);
  if (steps.length === 0 && reading.length === 0) return [];
  const dump = await getPermissions(client);
  const reads = readProblems(client, dump, reading);
  if (steps.length === 0) return reads;
  const owner = new Map(objects.flatMap((o) => o.steps.map((s) => [s.id, o.key] as const)));
  return [
    ...reads,
    ...missingPrivileges(dump, stepNeeds(steps), client.identity).map((need) => ({
      kind: "permission" as const,
      guest: owner.get(need.stepId) ?? "",
      path: need.path,
      privilege: need.privilege,
      message: `${client.identity} lacks ${need.privilege} on ${need.path}${(need.orOn ?? []).map((o) => ` (or ${o.privilege} on ${o.path})`).join("")} (needed by step ${need.stepId})`,
    })),
  ];
}

/**
 * A new token's secret goes only to a file that holds nothing (missing, empty): one that holds
 * something would be refused at apply (pvectl never overwrites one), which is said at plan time.
 */
function secretFileProblems(objects: ObjectPlan[], states: ReadonlyMap<string, SecretFileState>): PreflightProblem[] {
  const problems: PreflightProblem[] = [];
  for (const object of objects) {
    for (const call of object.steps.flatMap((s) => s.calls)) {
      const sink = call.revealsSecret?.to;
      if (sink === undefined || !("file" in sink)) continue;
      const state = states.get(sink.file);
      if (state === undefined || state.holds === "nothing") continue;
      const what = state.holds === "secret" ? "holds a token secret" : state.why;
      problems.push({
        kind: "object",
        guest: object.key,
        message: `${object.key}: secretFile ${sink.file} already exists and ${what}; pvectl writes a new token's secret only to a new or empty file (it never overwrites one): move the file away or name another`,
      });
    }
  }
  return problems;
}

/** Plans the spec's objects; families the spec does not declare are not read. */
export async function planObjects(
  client: PveClient,
  desired: DesiredObjects,
  options: ObjectPlanOptions & { skipPreflight?: boolean },
): Promise<ObjectPlanning> {
  const objects: ObjectPlan[] = [];
  const problems: PreflightProblem[] = [];
  const secretFiles = await secretFileStates(desired);
  for (const planned of await planObjectFamilies(client, desired, { ...options, secretFiles })) {
    objects.push(...planned.objects);
    problems.push(...planned.refused.map((r) => ({ kind: "adoption" as const, guest: r.key, message: r.message })));
  }
  problems.push(...secretFileProblems(objects, secretFiles));
  if (!options.skipPreflight) problems.push(...(await objectPermissions(client, objects, desired)));
  return { objects, problems };
}
