// Evaluates an endpoint's `permissions` from the API schema before its handler runs
// (pve-access-control RPCEnvironment.pm check_api2_permissions / exec_api2_perm_check).
// Failures are 403 `Permission check failed (<path>, <priv>)` and friends.
import { splitList } from "../../pve/index.js";
import type { EndpointPermissions } from "../../schema/types.js";
import { type AuthIdentity, PveApiError } from "../contract.js";
import { authId } from "./authenticate.js";
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
        const privs = ["Permissions.Modify"];
        if (/^\/storage\/.+/.test(path)) privs.push("Datastore.Allocate");
        else if (/^\/vms\/.+/.test(path)) privs.push("VM.Allocate");
        else if (/^\/pool\/.+/.test(path)) privs.push("Pool.Allocate");
        return this.checkPath(auth, path, privs, true, noerr);
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
      case "userid-group": {
        const [privs, ...rest] = args as [string[], ...unknown[]];
        const options: Record<string, unknown> = {};
        for (let i = 0; i + 1 < rest.length; i += 2) options[String(rest[i])] = rest[i + 1];
        const creating = options.groups_param === "create";
        if (!creating && !this.userExists(params.userid, noerr)) return false;
        if (this.evaluator.has(auth, "/access/groups", privs, true)) return true;
        const groups = new Set<string>();
        if (!creating) for (const g of this.state().users[String(params.userid)]?.groups ?? []) groups.add(g);
        if (options.groups_param) for (const g of listOf(params.groups)) groups.add(g);
        const allowed =
          groups.size > 0 && [...groups].every((g) => this.evaluator.has(auth, `/access/groups/${g}`, privs, true));
        if (allowed) return true;
        if (noerr) return false;
        throw permissionError(`/access/groups, ${privs.join("|")}`);
      }
      default:
        throw new PveApiError(500, `unknown permission test '${String(test)}'`);
    }
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
