// Evaluates an endpoint's `permissions` from the API schema before its handler runs
// (pve-access-control RPCEnvironment.pm check_api2_permissions / exec_api2_perm_check).
// Failures are 403 `Permission check failed (<path>, <priv>)` and friends.
import { splitList } from "../../pve/index.js";
import type { EndpointPermissions } from "../../schema/types.js";
import { type AuthIdentity, PveApiError } from "../contract.js";
import { authId } from "./authenticate.js";
import { permModifyPrivileges } from "./delegation.js";
import { normalizePath, type PermissionEvaluator } from "./evaluate.js";
import type { AccessState } from "./state.js";

export function permissionError(what?: string): PveApiError {
  return new PveApiError(403, what ? `Permission check failed (${what})` : "Permission check failed");
}

type Params = Record<string, unknown>;

/** Fills `{name}` placeholders of a permission path from the request parameters. */
function fillTemplate(template: string, params: Params): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = params[name];
    return v === undefined || v === null ? "" : String(v);
  });
}

function listOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return splitList(Array.isArray(value) ? value.join(",") : String(value));
}

export class SchemaPermissionChecker {
  constructor(
    private readonly evaluator: PermissionEvaluator,
    private readonly state: () => AccessState,
  ) {}

  private checkPath(auth: AuthIdentity, path: string, privs: string[], any: boolean, noerr: boolean): boolean {
    const missing = this.evaluator.missing(auth, path, privs, any);
    if (missing === undefined) return true;
    if (noerr) return false;
    throw permissionError(`${path}, ${missing}`);
  }

  private userExists(userid: unknown, noerr: boolean): boolean {
    if (typeof userid === "string" && this.state().users[userid]) return true;
    if (noerr) return false;
    throw new PveApiError(500, `no such user ('${String(userid)}')`);
  }

  private exec(check: unknown[], auth: AuthIdentity, params: Params, noerr: boolean): boolean {
    const [test, ...args] = check;
    switch (test) {
      case "and":
        return args.every((sub) => this.exec(sub as unknown[], auth, params, noerr));
      case "or":
        return args.some((sub) => this.exec(sub as unknown[], auth, params, true));
      case "perm": {
        const [template, privs, ...rest] = args as [string, string[], ...unknown[]];
        const options: Record<string, unknown> = {};
        for (let i = 0; i + 1 < rest.length; i += 2) options[String(rest[i])] = rest[i + 1];
        const required = options.require_param;
        if (typeof required === "string" && (params[required] === undefined || params[required] === "")) return false;
        const path = normalizePath(fillTemplate(template, params));
        return this.checkPath(auth, path, privs, !!options.any, noerr);
      }
      case "perm-modify": {
        const path = normalizePath(fillTemplate(String(args[0]), params));
        return this.checkPath(auth, path, permModifyPrivileges(path), true, noerr);
      }
      case "userid-param": {
        const userid = params.userid;
        if (args[0] === "self") {
          if (!this.userExists(userid, noerr)) return false;
          if (authId(auth) === userid) return true;
          if (noerr) return false;
          throw permissionError();
        }
        const realm = String(userid ?? "").split("@")[1] ?? "";
        return this.checkPath(auth, `/access/realm/${realm}`, ["Realm.AllocateUser"], false, noerr);
      }
      case "userid-group":
        return this.useridGroup(args, auth, params, noerr);
      default:
        throw new PveApiError(500, `unknown permission test '${String(test)}'`);
    }
  }

  /**
   * `userid-group` (RPCEnvironment.pm): the privileges on /access/groups cover every user;
   * otherwise each group the request names (groups_param) must be one the caller holds them
   * on, and an existing target user must be a member of at least one such group. A
   * groups_param check without any group is refused even inside an `or`, as PVE does.
   */
  private useridGroup(args: unknown[], auth: AuthIdentity, params: Params, noerr: boolean): boolean {
    const [privs, ...rest] = args as [string[], ...unknown[]];
    const options: Record<string, unknown> = {};
    for (let i = 0; i + 1 < rest.length; i += 2) options[String(rest[i])] = rest[i + 1];
    const existing = options.groups_param !== "create";
    if (existing && !this.userExists(params.userid, noerr)) return false;
    if (this.evaluator.has(auth, "/access/groups", privs, true)) return true;
    const allowed = (g: string) => this.evaluator.has(auth, `/access/groups/${g}`, privs, true);
    if (options.groups_param) {
      const named = listOf(params.groups);
      if (named.length === 0) throw permissionError(`/access/groups, ${privs.join("|")}`);
      const refused = named.find((g) => !allowed(g));
      if (refused !== undefined) throw permissionError(`/access/groups/${refused}, ${privs.join("|")}`);
    }
    if (existing && !(this.state().users[String(params.userid)]?.groups ?? []).some(allowed)) {
      if (noerr) return false;
      throw permissionError();
    }
    return true;
  }

  /** Throws a 403 unless `auth` may call an endpoint with these `permissions` and `params`. */
  check(permissions: EndpointPermissions | undefined, auth: AuthIdentity, params: Params): void {
    const isRoot = auth.userid === "root@pam" && !auth.tokenid;
    if (isRoot) return;
    if (!permissions) throw permissionError("user != root@pam");
    if (permissions.check) {
      if (!this.exec(permissions.check, auth, params, false)) throw permissionError();
      return;
    }
    if (permissions.user === "all" || permissions.user === "world") return;
    throw permissionError("user != root@pam");
  }
}
