// Login, permission dumps, version, realms: /access/ticket, /access/permissions, /version,
// /access, /access/domains, /access/password.
import { type AuthIdentity, PveApiError, type Router } from "../contract.js";
import { list, str } from "../params.js";
import { userUsable } from "./authenticate.js";
import { capabilities } from "./capabilities.js";
import { normalizePath } from "./evaluate.js";
import { realmConfig } from "./handlers-realms.js";
import { permissionsRequest } from "./permissions-dump.js";
import { permissionError } from "./schema-check.js";
import type { AccessControl } from "./service.js";
import { hashSecret } from "./state.js";
import { verifyTotp } from "./totp.js";

export interface VersionInfo {
  version: string;
  release: string;
  repoid: string;
}

/** Paths always listed by GET /access/permissions (when they carry privileges). */
const BASE_PATHS = ["/", "/access", "/access/groups", "/nodes", "/pool", "/sdn", "/storage", "/vms"];

export function permissionPaths(access: AccessControl, extraPaths: string[]): string[] {
  const paths = new Set(BASE_PATHS);
  for (const e of access.state.acl) paths.add(normalizePath(e.path));
  for (const p of extraPaths) paths.add(p);
  return [...paths].sort();
}

export function dumpPermissions(access: AccessControl, auth: AuthIdentity, paths: string[]) {
  const out: Record<string, Record<string, number>> = {};
  for (const path of paths) {
    const privs = access.privileges(auth, path);
    if (privs.size === 0) continue;
    out[path] = Object.fromEntries([...privs].sort(([a], [b]) => a.localeCompare(b)));
  }
  return out;
}

export interface AuthHandlerDeps {
  access: AccessControl;
  version: VersionInfo;
  clusterName: () => string | undefined;
  /** Pool member paths (/vms/<id>, /storage/<id>) that GET /access/permissions lists. */
  poolMemberPaths: () => string[];
}

/**
 * What PVE asks before a password changes (RPCEnvironment.pm reauth_user_for_user_modification
 * and API2/AccessControl.pm change_password): only root@pam changes root@pam; anyone else
 * confirms with their own password, and changes another user's password only outside the
 * pam realm (system accounts), whatever their User.Modify.
 */
function reauthForUserChange(access: AccessControl, authuser: string, userid: string, confirmation: string | undefined): void {
  if (authuser === "root@pam") return;
  if (userid === "root@pam") throw permissionError();
  if (confirmation === undefined) {
    throw new PveApiError(400, "Parameter verification failed.", { "confirmation-password": "password is required to modify user" });
  }
  if (access.state.users[authuser]?.passwordHash !== hashSecret(authuser, confirmation))
    throw new PveApiError(401, "authentication failure");
  if (authuser !== userid && userid.endsWith("@pam")) throw permissionError();
}

export function registerAuthHandlers(router: Router, deps: AuthHandlerDeps): void {
  const { access } = deps;

  router.add("GET", "/version", () => ({ ...deps.version }));

  router.add("GET", "/access", () =>
    ["users", "groups", "roles", "acl", "domains", "openid", "tfa", "ticket", "password", "permissions", "vncticket"].map((subdir) => ({
      subdir,
    })),
  );

  router.add("GET", "/access/ticket", () => null);

  router.add("POST", "/access/ticket", (ctx) => {
    let username = str(ctx.params, "username") ?? "";
    const realm = str(ctx.params, "realm");
    if (realm && !username.includes("@")) username = `${username}@${realm}`;
    const password = str(ctx.params, "password") ?? "";
    const now = ctx.now();
    const user = access.state.users[username];
    const challenge = str(ctx.params, "tfa-challenge");
    const fail = () => new PveApiError(401, "authentication failure");
    if (challenge !== undefined) {
      // Second round of a two-factor login: the partial ticket plus "totp:<code>" as password.
      const partialFor = access.signer.verifyTicket(challenge, now);
      if (partialFor !== `!tfa!${username}` || !userUsable(user, now) || !user.totp) throw fail();
      if (!verifyTotp(user.totp, password.replace(/^totp:/, ""), now)) throw fail();
    } else {
      const byPassword = userUsable(user, now) && user.passwordHash === hashSecret(username, password);
      const ticketUser = password.startsWith("PVE:") ? access.signer.verifyTicket(password, now) : undefined;
      const byTicket = ticketUser !== undefined && (ticketUser === username || ticketUser === "root@pam") && userUsable(user, now);
      if (!byPassword && !byTicket) throw fail();
      if (byPassword && user?.totp) {
        const otp = str(ctx.params, "otp");
        if (otp === undefined) {
          return { username, ticket: access.signer.createTicket(`!tfa!${username}`, now), NeedTFA: 1 };
        }
        if (!verifyTotp(user.totp, otp, now)) throw fail();
      }
    }
    const auth = { userid: username };
    const path = str(ctx.params, "path");
    const privs = list(ctx.params, "privs");
    if (path && privs.length > 0) {
      const missing = access.evaluator.missing(auth, normalizePath(path), privs);
      if (missing) throw permissionError(`${normalizePath(path)}, ${missing}`);
      return { username };
    }
    const result: Record<string, unknown> = {
      username,
      ticket: access.signer.createTicket(username, now),
      CSRFPreventionToken: access.signer.createCsrfToken(username, now),
      cap: capabilities(access, auth),
    };
    const clusterName = deps.clusterName();
    if (clusterName && access.has(auth, "/", ["Sys.Audit"])) result.clustername = clusterName;
    return result;
  });

  router.add("GET", "/access/permissions", (ctx) =>
    permissionsRequest(ctx, access, (subject) => dumpPermissions(access, subject, permissionPaths(access, deps.poolMemberPaths()))),
  );

  router.add("GET", "/access/domains", () =>
    Object.entries(access.state.realms)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([realm, r]) => ({ realm, type: r.type, ...(r.comment ? { comment: r.comment } : {}), ...(r.default ? { default: 1 } : {}) })),
  );

  router.add("GET", "/access/domains/{realm}", (ctx) => {
    return realmConfig(access.state, str(ctx.params, "realm") ?? "");
  });

  router.add("PUT", "/access/password", (ctx) => {
    const userid = str(ctx.params, "userid") ?? "";
    if (!access.state.users[userid]) throw new PveApiError(500, `no such user ('${userid}')`);
    reauthForUserChange(access, ctx.auth.userid, userid, str(ctx.params, "confirmation-password"));
    const target = access.state.users[userid];
    if (target) target.passwordHash = hashSecret(userid, str(ctx.params, "password") ?? "");
    return null;
  });
}
