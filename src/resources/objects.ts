// The cluster objects a spec may declare besides guests, by family (backup jobs; access
// objects), and what the engine may call of each: the engine reaches an object kind only
// through this registry, never its folder (the "kinds contract"). Absent families are not
// managed at all.
import type { ApiReader } from "../api/endpoints/index.js";
import type { ObjectIntent, ObjectKind } from "../plan/intent.js";
import type { ApiCall, ObjectPlan, ParamValue, PrivilegeNeed } from "../plan/types.js";
import {
  accessCallNeeds,
  accessLanded,
  accessReadNeeds,
  type DesiredAccess,
  planAccess,
  readAccess,
  type SecretFileState,
} from "./access/index.js";
import {
  createJobStep,
  deleteJobStep,
  type DesiredBackupJobs,
  jobCallNeeds,
  planBackupJobs,
  readBackupJobs,
  updateJobStep,
} from "./backup-job/index.js";

export { type DesiredBackupJobs, type JobPlans, planBackupJobs, readBackupJobs } from "./backup-job/index.js";
export type { SecretFileState } from "./access/index.js";

export interface DesiredObjects {
  backupJobs?: DesiredBackupJobs;
  access?: DesiredAccess;
}

export interface ObjectPlanOptions {
  /** `--adopt`: objects pvectl did not create may be managed. */
  adopt?: boolean;
  /** `--show-secret`: a new token without secretFile gets its secret printed once. */
  showSecret?: boolean;
  /** Pools the plan's guests join: never deleted by the same plan. */
  poolsInUse?: string[];
  /** What each API token's secretFile holds, by path (the engine reads the files): a lost secret is reset. */
  secretFiles?: ReadonlyMap<string, SecretFileState>;
}

export interface FamilyPlans {
  objects: ObjectPlan[];
  /** Spec entries naming an object pvectl did not create (no adopt): why they are refused. */
  refused: Array<{ key: string; message: string }>;
}

/** What the engine may ask of one family of object kinds. */
export interface ObjectFamily {
  kinds: readonly ObjectKind[];
  /** Reads what the spec's declaration needs and plans it; undefined when the spec declares nothing of this family. */
  plan(api: ApiReader, desired: DesiredObjects, options: ObjectPlanOptions): Promise<FamilyPlans> | undefined;
  /** After a failure that may have landed: is the object now as the step wanted it? */
  landed(api: ApiReader, intent: ObjectIntent): Promise<boolean>;
  /** What a call checks inside its handler beyond the endpoint's own check. */
  callNeeds(intent: ObjectIntent, params: Record<string, ParamValue>): PrivilegeNeed[];
  /** Privileges without which PVE lists only part of what planning reads (a plan from half a list is wrong). */
  readNeeds?(desired: DesiredObjects): PrivilegeNeed[];
  /**
   * Every call managing the declared objects can make (create, update, delete of each), with
   * the object it is for: what `access needs` derives privileges from, whatever today's plan is.
   */
  everyCall?(desired: DesiredObjects): Array<{ object: string; call: ApiCall }>;
}

const BACKUP_JOBS: ObjectFamily = {
  kinds: ["backup-job"],
  plan: (api, desired, options) => {
    const jobs = desired.backupJobs;
    if (jobs === undefined) return undefined;
    return readBackupJobs(api).then((live) => planBackupJobs(jobs, live, options));
  },
  landed: async (api, intent) => {
    const job = (await readBackupJobs(api)).find((j) => j.id === intent.key);
    if (intent.op === "object-create") return job?.marked === true;
    if (intent.op === "object-delete") return job === undefined;
    return false;
  },
  callNeeds: jobCallNeeds,
  everyCall: (desired) =>
    (desired.backupJobs?.jobs ?? []).flatMap((job) =>
      [
        createJobStep(job.id, job.params, job.comment),
        updateJobStep(job.id, job.params, job.absent, [], false),
        deleteJobStep(job.id),
      ].flatMap((step) => step.calls.map((call) => ({ object: `backup job ${job.id}`, call }))),
    ),
};

const ACCESS: ObjectFamily = {
  kinds: ["access-pool", "access-role", "access-group", "access-user", "access-token", "access-acl"],
  plan: (api, desired, options) => {
    const access = desired.access;
    if (access === undefined) return undefined;
    const lost = (access.tokens ?? []).some(
      (t) => t.secretFile !== undefined && options.secretFiles?.get(t.secretFile)?.holds === "nothing",
    );
    return readAccess(api, access, { tokenAcls: lost }).then((live) => planAccess(access, live, options));
  },
  landed: accessLanded,
  callNeeds: accessCallNeeds,
  readNeeds: (desired) => (desired.access === undefined ? [] : accessReadNeeds(desired.access)),
};

/** Every family, in the order their objects are planned and run (each phase keeps this order). */
export const OBJECT_FAMILIES: readonly ObjectFamily[] = [ACCESS, BACKUP_JOBS];

export function familyOf(kind: ObjectKind): ObjectFamily {
  const family = OBJECT_FAMILIES.find((f) => f.kinds.includes(kind));
  if (!family) throw new Error(`no object family registers kind ${kind}`);
  return family;
}

/** The spec declares some cluster object (planning reads them). */
export function declaresObjects(desired: DesiredObjects): boolean {
  return desired.backupJobs !== undefined || desired.access !== undefined;
}

/** What an object kind checks inside its handlers beyond the endpoint's own check, per call. */
export function objectCallNeeds(intent: ObjectIntent, params: Record<string, ParamValue>): PrivilegeNeed[] {
  return familyOf(intent.object).callNeeds(intent, params);
}

/** Pools the objects section creates (before the guests run): guests may join them in the same apply. */
export function poolsCreatedBy(objects: ObjectPlan[]): string[] {
  return objects.filter((o) => o.kind === "access-pool" && !o.exists && o.steps.length > 0).map((o) => o.key);
}
