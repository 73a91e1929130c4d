// The shape of the `access:` section as a user writes it, as zod schemas (strict: unknown keys
// are errors). Values that need PVE's lists (privilege names, ACL paths, built-in roles) and
// cross-field rules are checked in access-normalize.ts, with the entry's location.
import { z } from "zod";
import { GROUP_ID_RE, TOKEN_ID_RE, tokenIdProblem, userIdProblem } from "../../pve/auth-id.js";
import { ROLE_ID_RE } from "../../pve/index.js";
import { CONNECTION_NAME, POOL_ID, POOL_ID_RULE, pattern, TOKEN_NAME, USER_ID } from "../spec-section/zod-values.js";

const FULL_TOKEN_ID = TOKEN_ID_RE;

/** A user id (or full token id) as PVE checks it: the pattern, then its length (3 to 64). */
function authId(regex: RegExp, explanation: string, problem: (id: string) => string | undefined) {
  return pattern(regex, explanation).superRefine((value, ctx) => {
    const why = regex.test(value) ? problem(value) : undefined;
    if (why !== undefined) ctx.addIssue({ code: "custom", message: `\`${value}\` is not valid: ${why}` });
  });
}

const adopt = () =>
  z.boolean().optional().describe("Manage an existing object of this id that pvectl did not create (it gets pvectl's marker).");
const comment = () => z.string().max(4096).optional().describe("Your text; pvectl keeps its marker after it.");

/** `2027-06-30` (YAML 1.2 reads it as a string), seconds since the epoch, or 0 for never. */
export function expireSchema() {
  return z
    .union([z.number().int().min(0), z.string().min(1)])
    .optional()
    .describe("Expiry: a date (YYYY-MM-DD, at 00:00 UTC), or 0 / left out for never.");
}

function roleSchema() {
  return z.strictObject({
    id: pattern(ROLE_ID_RE, "letters, digits, '.', '-' and '_'").max(64).describe("The role's id (PVE's roleid)."),
    privileges: z.array(z.string().min(1)).describe("PVE 9 privilege names, e.g. VM.Allocate, Datastore.AllocateSpace."),
    state: z.enum(["present", "absent"]).optional().describe("absent: delete the role (refused while an ACL entry uses it)."),
    adopt: adopt(),
  });
}

function groupSchema() {
  return z.strictObject({ id: pattern(GROUP_ID_RE, "letters, digits, '.', '-' and '_'"), comment: comment(), adopt: adopt() });
}

function userSchema() {
  return z.strictObject({
    id: authId(USER_ID, "user@realm, e.g. deploy@pve", userIdProblem),
    groups: z.array(pattern(GROUP_ID_RE, "a group id")).optional().describe("Its groups; left out: membership not managed."),
    enable: z.boolean().optional(),
    expire: expireSchema(),
    comment: comment(),
    adopt: adopt(),
  });
}

function tokenSchema() {
  return z.strictObject({
    user: authId(USER_ID, "user@realm, e.g. deploy@pve", userIdProblem),
    name: pattern(TOKEN_NAME, "the token name (the part after `!`), e.g. ci"),
    privsep: z
      .boolean()
      .optional()
      .describe("Privilege separation (default true): the token holds only what its own ACL entries grant, within its user's."),
    expire: expireSchema(),
    comment: comment(),
    secretFile: z
      .string()
      .min(1)
      .optional()
      .describe(
        "On create the secret is written here once (mode 0600; a file that holds something is refused). While the token exists and this file holds no secret, plans reset the secret (--allow-secret-reset). Relative to the spec file.",
      ),
    adopt: adopt(),
  });
}

function aclSchema() {
  return z.strictObject({
    path: z
      .string()
      .min(1)
      .describe("An ACL path: /, /vms/100, /pool/web, /storage/local, /nodes/pve1, /sdn/zones/..., /access/groups/x ..."),
    role: pattern(ROLE_ID_RE, "a role id"),
    user: authId(USER_ID, "user@realm", userIdProblem).optional(),
    group: pattern(GROUP_ID_RE, "a group id").optional(),
    token: authId(FULL_TOKEN_ID, "user@realm!tokenname", tokenIdProblem).optional(),
    propagate: z.boolean().optional().describe("Default true: the entry also applies below the path."),
  });
}

function poolSchema() {
  return z.strictObject({
    id: pattern(POOL_ID, POOL_ID_RULE).describe(
      "The pool's id; a nested pool (PVE 8.1+) is `parent/child`, its parent listed or existing.",
    ),
    comment: comment(),
    adopt: adopt(),
  });
}

export function accessSchema() {
  return z
    .strictObject({
      connection: pattern(CONNECTION_NAME, "a connection name")
        .optional()
        .describe("The cluster these objects are on (default: the only connection)."),
      roles: z.array(roleSchema()).optional(),
      groups: z.array(groupSchema()).optional(),
      users: z.array(userSchema()).optional(),
      tokens: z.array(tokenSchema()).optional(),
      acls: z.array(aclSchema()).optional(),
      pools: z.array(poolSchema()).optional(),
    })
    .meta({
      id: "Access",
      description:
        "Access control as desired state. Each list written (even empty) is managed: pvectl's objects it does not list are removed; a list left out is not managed. Objects pvectl did not create are never changed without adopt.",
    });
}

export type RawAccess = z.output<ReturnType<typeof accessSchema>>;
