// The `access:` section of the simulator's --config file: users (with passwords), groups,
// custom roles, API tokens with fixed secrets (so CI jobs can use them without a login step)
// and ACL entries, applied on top of root@pam at start.
//
//   access:
//     groups: [{ groupid: ops }]
//     roles: [{ roleid: Deployer, privs: [VM.Audit, VM.PowerMgmt] }]
//     users:
//       - userid: ansible@pve
//         password: ansible123
//         totp: JBSWY3DPEHPK3PXP        # optional second factor
//         groups: [ops]
//         tokens: [{ tokenid: ci, secret: 11111111-2222-4333-8444-555555555555, privsep: false }]
//     acl:
//       - { path: /vms, roles: [PVEVMAdmin], groups: [ops] }
import { z } from "zod";
import { SimUserError } from "../errors.js";
import { isBuiltinRole, isPrivilege } from "./privileges.js";
import { type AccessState, hashSecret, TOKEN_NAME_RE, USERID_RE } from "./state.js";

const list = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : v.split(/[,\s]+/).filter(Boolean)));

const accessConfigSchema = z.object({
  groups: z.array(z.object({ groupid: z.string().min(1), comment: z.string().optional() })).optional(),
  roles: z.array(z.object({ roleid: z.string().min(1), privs: list })).optional(),
  users: z
    .array(
      z.object({
        userid: z.string().regex(USERID_RE, "must look like name@realm"),
        password: z.string().optional(),
        totp: z
          .string()
          .regex(/^[A-Za-z2-7=\s]+$/, "must be a base32 TOTP secret")
          .optional(),
        enable: z.boolean().optional(),
        expire: z.number().int().min(0).optional(),
        comment: z.string().optional(),
        email: z.string().optional(),
        groups: list.optional(),
        tokens: z
          .array(
            z.object({
              tokenid: z.string().regex(TOKEN_NAME_RE, "must be a letter followed by at least one letter, digit, '.', '-' or '_'"),
              secret: z.string().min(1),
              privsep: z.boolean().optional(),
              comment: z.string().optional(),
            }),
          )
          .optional(),
      }),
    )
    .optional(),
  acl: z
    .array(
      z.object({
        path: z.string().startsWith("/"),
        roles: list,
        users: list.optional(),
        groups: list.optional(),
        tokens: list.optional(),
        propagate: z.boolean().optional(),
      }),
    )
    .optional(),
});

export class AccessConfigError extends SimUserError {
  constructor(readonly detail: string) {
    super(`invalid simulator access config: ${detail}`);
    this.name = "AccessConfigError";
  }
  userMessage(): string {
    return `The 'access' section of the simulator's cluster config is invalid: ${this.detail}. Fix the --config file and start again.`;
  }
}

/** Applies the `access` section of a cluster config (if any) to a fresh access state. */
export function applyAccessConfig(state: AccessState, config: unknown): void {
  const section = typeof config === "object" && config !== null ? (config as { access?: unknown }).access : undefined;
  if (section === undefined) return;
  const parsed = accessConfigSchema.safeParse(section);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AccessConfigError(`access.${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`);
  }
  const cfg = parsed.data;
  for (const g of cfg.groups ?? []) state.groups[g.groupid] = g.comment !== undefined ? { comment: g.comment } : {};
  for (const r of cfg.roles ?? []) {
    if (isBuiltinRole(r.roleid)) throw new AccessConfigError(`access.roles: '${r.roleid}' is a built-in role`);
    const bad = r.privs.find((p) => !isPrivilege(p));
    if (bad) throw new AccessConfigError(`access.roles.${r.roleid}: unknown privilege '${bad}'`);
    state.roles[r.roleid] = { privs: r.privs };
  }
  for (const u of cfg.users ?? []) {
    const realm = u.userid.split("@")[1] ?? "";
    if (!state.realms[realm]) throw new AccessConfigError(`access.users.${u.userid}: unknown realm '${realm}' (use pam or pve)`);
    const groups = u.groups ?? [];
    const missing = groups.find((g) => !state.groups[g]);
    if (missing) throw new AccessConfigError(`access.users.${u.userid}: group '${missing}' is not listed under access.groups`);
    const existing = state.users[u.userid];
    const user = existing ?? { enable: 1, expire: 0, groups: [], tokens: {} };
    user.enable = u.enable === false ? 0 : 1;
    user.expire = u.expire ?? user.expire;
    user.groups = groups;
    if (u.comment !== undefined) user.comment = u.comment;
    if (u.email !== undefined) user.email = u.email;
    if (u.password !== undefined) user.passwordHash = hashSecret(u.userid, u.password);
    if (u.totp !== undefined) user.totp = u.totp.replace(/[\s=]/g, "").toUpperCase();
    for (const t of u.tokens ?? []) {
      user.tokens[t.tokenid] = {
        privsep: t.privsep === false ? 0 : 1,
        expire: 0,
        secretHash: hashSecret(`${u.userid}!${t.tokenid}`, t.secret),
        ...(t.comment !== undefined ? { comment: t.comment } : {}),
      };
    }
    state.users[u.userid] = user;
  }
  for (const entry of cfg.acl ?? []) {
    for (const roleid of entry.roles) {
      if (!isBuiltinRole(roleid) && !state.roles[roleid]) throw new AccessConfigError(`access.acl ${entry.path}: unknown role '${roleid}'`);
      const subjects = [
        ...(entry.users ?? []).map((ugid) => ({ type: "user" as const, ugid })),
        ...(entry.groups ?? []).map((ugid) => ({ type: "group" as const, ugid })),
        ...(entry.tokens ?? []).map((ugid) => ({ type: "token" as const, ugid })),
      ];
      for (const s of subjects) {
        state.acl.push({ path: entry.path, type: s.type, ugid: s.ugid, roleid, propagate: entry.propagate === false ? 0 : 1 });
      }
    }
  }
}
