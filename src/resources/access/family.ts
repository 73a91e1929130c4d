// The access family as the registry (resources/objects.ts) sees it: its spec section, how its
// objects are planned, read back, checked for privileges, shown and named.
import type { FamilyDefinition } from "../object-family.js";
import { accessLanded } from "./landed.js";
import type { DesiredAccess } from "./model.js";
import { planAccess } from "./plan.js";
import { accessCallNeeds, accessReadNeeds } from "./privileges.js";
import { readAccess } from "./read.js";
import { TOKEN_SECRET_LOSS } from "./secret-loss.js";
import { ACCESS_SECTION } from "./section.js";
import { shownAccess } from "./show.js";
import type { AccessSpec } from "./spec-normalize.js";
import { accessToSpec } from "./to-spec.js";
import { tokenSecretFiles } from "./written-files.js";

export const ACCESS: FamilyDefinition<"access", AccessSpec, DesiredAccess, Record<string, unknown>> = {
  section: ACCESS_SECTION,
  kinds: ["access-pool", "access-role", "access-group", "access-user", "access-token", "access-acl"],
  // Pools, users and tokens are what guests and other objects name: they exist first.
  plannedFirst: true,
  // One access section per cluster: a command works on one connection (its entries are that connection's).
  desired: (entries) => entries[0]?.desired,
  plan: async (api, access, options) => {
    const lost = (access.tokens ?? []).some(
      (t) => t.secretFile !== undefined && options.secretFiles?.get(t.secretFile)?.holds === "nothing",
    );
    return planAccess(access, await readAccess(api, access, { tokenAcls: lost }), options);
  },
  landed: accessLanded,
  callNeeds: accessCallNeeds,
  readNeeds: accessReadNeeds,
  secretFiles: (access) => (access.tokens ?? []).flatMap((t) => (t.secretFile !== undefined ? [t.secretFile] : [])),
  poolsCreated: (objects) => objects.filter((o) => o.kind === "access-pool" && !o.exists && o.steps.length > 0).map((o) => o.key),
  writtenFiles: tokenSecretFiles,
  secretLoss: TOKEN_SECRET_LOSS,
  show: {
    importFlag: {
      flag: "--access",
      description:
        "every role (except built-in ones), group, user (except root@pam), API token, ACL entry and pool under access: (never a secret; those pvectl did not create with adopt: true)",
    },
    declared: async (api, entries) => {
      const desired = entries[0]?.desired;
      if (desired === undefined) return { section: undefined, missing: [] };
      const shown = shownAccess(desired, await readAccess(api, desired));
      return { section: shown.access, missing: shown.missing };
    },
    // Every list, so the written spec manages them all (foreign objects with adopt: true).
    everything: async (api) => accessToSpec(await readAccess(api, { roles: [], groups: [], users: [], tokens: [], acls: [], pools: [] })),
  },
  render: {
    nouns: {
      "access-role": "role",
      "access-group": "group",
      "access-user": "user",
      "access-token": "API token",
      "access-acl": "ACL entry",
      "access-pool": "pool",
    },
    foreign: {
      "access-role": "not managed (not listed; roles carry no marker; left alone)",
      "access-acl": "not managed (its user, group or token is not pvectl's; left alone)",
    },
  },
};
