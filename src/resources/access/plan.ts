// Plans the spec's access section against the cluster's: each kind diffed on its own
// (plan-commented.ts, plan-roles.ts, plan-acls.ts), references checked across kinds, and the
// objects put in the order apply runs them: what is created or changed first to last by
// dependency (pools, roles, groups, users, tokens, ACL entries) before the guests, what is
// deleted in the reverse order after them.
import type { ObjectKind } from "../../plan/intent.js";
import type { ObjectPlan, StepDraft } from "../../plan/types.js";
import { GROUP_KIND, poolKind, tokenKind, USER_KIND } from "./kinds.js";
import {
  type DesiredAccess,
  type DesiredToken,
  type DesiredUser,
  type LiveAccess,
  type LiveToken,
  type LiveUser,
  ROOT_USER,
  type SecretFileState,
} from "./model.js";
import { planAcls } from "./plan-acls.js";
import { type CommentedKind, type KindPlans, planCommented } from "./plan-commented.js";
import { planRoles } from "./plan-roles.js";
import { byNesting, withNesting } from "./pool-nesting.js";
import { withSecretReset } from "./token-reset.js";

export interface AccessPlanOptions {
  /** `--adopt`: every listed object pvectl did not create may be managed. */
  adopt?: boolean;
  /** `--show-secret`: a new token without secretFile gets its secret printed once. */
  showSecret?: boolean;
  /** Pools the plan's guests join (they are not empty once apply ran). */
  poolsInUse?: string[];
  /** What each token's secretFile holds, by path (read by the engine): an existing token's lost secret is reset. */
  secretFiles?: ReadonlyMap<string, SecretFileState>;
}

const ORDER: ObjectKind[] = ["access-pool", "access-role", "access-group", "access-user", "access-token", "access-acl"];

function userKind(desired: DesiredAccess, live: LiveAccess): CommentedKind<DesiredUser, LiveUser> {
  const known = (g: string) => desired.groups?.some((d) => d.id === g) || live.groups.some((l) => l.id === g);
  return {
    ...USER_KIND,
    problems: (d) =>
      (d.groups ?? [])
        .filter((g) => !known(g))
        .map((g) => `user ${d.id}: group ${g} does not exist and the spec's access.groups does not create it`),
  };
}

/** The step with the token's user's groups in its intent (as they are when tokens run: after users). */
function withOwnerGroups(step: StepDraft, groups: string[]): StepDraft {
  if (groups.length === 0) return step;
  return {
    ...step,
    calls: step.calls.map((c) => (c.intent.kind === "object" ? { ...c, intent: { ...c.intent, ownerGroups: groups } } : c)),
  };
}

function withUserCheck(
  kind: CommentedKind<DesiredToken, LiveToken>,
  desired: DesiredAccess,
  live: LiveAccess,
): CommentedKind<DesiredToken, LiveToken> {
  const known = (u: string) => desired.users?.some((d) => d.id === u) || live.users.some((l) => l.id === u);
  // Users are changed before tokens: a user the spec lists has its desired groups by then.
  const groupsOf = (u: string) => desired.users?.find((d) => d.id === u)?.groups ?? live.users.find((l) => l.id === u)?.groups ?? [];
  return {
    ...kind,
    create: (d) => withOwnerGroups(kind.create(d), groupsOf(d.user)),
    update: (d, l, diff, adopting) => withOwnerGroups(kind.update(d, l, diff, adopting), groupsOf(d.user)),
    replace: (d, l) => {
      const step = kind.replace?.(d, l);
      return step === undefined ? undefined : withOwnerGroups(step, groupsOf(d.user));
    },
    delete: (l) => withOwnerGroups(kind.delete(l), groupsOf(l.user)),
    problems: (d, l) => [
      ...(kind.problems?.(d, l) ?? []),
      ...(known(d.user) || desired.users === undefined
        ? []
        : [`token ${d.user}!${d.name}: user ${d.user} does not exist and the spec's access.users does not create it`]),
    ],
  };
}

const deletes = (o: ObjectPlan) => o.steps.some((s) => s.action === "object-delete");

export function planAccess(desired: DesiredAccess, live: LiveAccess, options: AccessPlanOptions = {}): KindPlans {
  // root@pam is PVE's own superuser: never listed, never managed (it may still hold tokens and ACL entries).
  const users = live.users.filter((u) => u.id !== ROOT_USER);
  const adopt = options.adopt ?? false;
  const acls = planAcls(desired, live);
  const deletedAcls = new Set(acls.objects.filter(deletes).map((o) => o.key));
  const parts: KindPlans[] = [
    planCommented(
      withNesting(poolKind(options.poolsInUse ?? []), desired.pools, live.pools, options.poolsInUse ?? []),
      desired.pools,
      live.pools,
      adopt,
    ),
    planRoles(desired, live, deletedAcls, adopt),
    planCommented(GROUP_KIND, desired.groups, live.groups, adopt),
    planCommented(userKind(desired, live), desired.users, users, adopt),
    planCommented(
      withUserCheck(
        withSecretReset(tokenKind(options.showSecret ?? false), options.secretFiles ?? new Map(), desired, live),
        desired,
        live,
      ),
      desired.tokens,
      live.tokens,
      adopt,
    ),
    acls,
  ];
  const all = parts.flatMap((p) => p.objects);
  const rank = (o: ObjectPlan) => ORDER.indexOf(o.kind);
  const forward = all.filter((o) => !deletes(o)).sort((a, b) => rank(a) - rank(b) || byNesting(a, b, false));
  const backward = all.filter(deletes).sort((a, b) => rank(b) - rank(a) || byNesting(a, b, true));
  return { objects: [...forward, ...backward], refused: parts.flatMap((p) => p.refused) };
}
