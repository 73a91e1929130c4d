// Realm administration: POST /access/domains, PUT and DELETE /access/domains/{realm}
// (pve-access-control PVE/API2/Domains.pm). Configs are kept per type as domains.cfg keeps
// them; the LDAP/AD bind password goes to a private file in PVE and is never returned.
import { createHash } from "node:crypto";
import { PveApiError, type Router } from "../contract.js";
import { type HandlerParams, list, str } from "../params.js";
import { BUILTIN_REALMS, REALM_TYPES, type RealmTypeOptions } from "./realm-types.js";
import type { AccessControl } from "./service.js";
import type { AccessState, RealmRecord } from "./state.js";

/** Parameters that steer the call and are never stored (password goes to /etc/pve/priv). */
const NOT_STORED = new Set(["realm", "type", "digest", "delete", "password", "check-connection"]);

/** domains.cfg's digest: changes whenever any realm changes. */
export function realmsDigest(state: AccessState): string {
  return createHash("sha1").update(JSON.stringify(state.realms)).digest("hex");
}

/** GET /access/domains/{realm}: every stored key of the realm, and the file's digest. */
export function realmConfig(state: AccessState, realm: string): Record<string, unknown> {
  const r = state.realms[realm];
  if (!r) throw new PveApiError(500, `domain '${realm}' does not exist`);
  return {
    ...r.config,
    type: r.type,
    ...(r.comment ? { comment: r.comment } : {}),
    ...(r.default ? { default: 1 } : {}),
    digest: realmsDigest(state),
  };
}

/** The settable keys of a request, checked against the type's option list (check_config). */
function checkedOptions(opts: RealmTypeOptions, params: HandlerParams, create: boolean): Record<string, string | number> {
  const allowed = new Set([...opts.required, ...opts.optional]);
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || NOT_STORED.has(key) || key === "node") continue;
    if (!allowed.has(key)) throw new PveApiError(500, `unexpected property '${key}'`);
    if (!create && opts.fixed?.includes(key)) throw new PveApiError(500, `can't change value of fixed parameter '${key}'`);
    out[key] = value;
  }
  if (create)
    for (const key of opts.required) if (out[key] === undefined) throw new PveApiError(500, `missing value for required option '${key}'`);
  return out;
}

/** Stores checked options on the record: type/comment/default stay top-level as listings read them. */
function apply(state: AccessState, record: RealmRecord, options: Record<string, string | number>): void {
  // Only one realm carries `default`: setting it moves it (Domains.pm clears every other).
  if (options.default === 1) for (const r of Object.values(state.realms)) delete r.default;
  for (const [key, value] of Object.entries(options)) {
    if (key === "comment") record.comment = String(value);
    else if (key === "default") {
      if (value === 1) record.default = 1;
      else delete record.default;
    } else {
      record.config ??= {};
      record.config[key] = value;
    }
  }
}

function removeKeys(record: RealmRecord, keys: string[]): void {
  for (const key of keys) {
    if (key === "comment") delete record.comment;
    else if (key === "default") delete record.default;
    else if (record.config) delete record.config[key];
  }
}

export function registerRealmHandlers(router: Router, access: AccessControl): void {
  const state = () => access.state;

  router.add("POST", "/access/domains", (ctx) => {
    const realm = str(ctx.params, "realm") ?? "";
    const type = str(ctx.params, "type") ?? "";
    if (state().realms[realm]) throw new PveApiError(500, `domain '${realm}' already exists`);
    if (BUILTIN_REALMS[realm]) throw new PveApiError(500, `unable to use reserved name '${realm}'`);
    if (type === "pam" || type === "pve") throw new PveApiError(500, `unable to create builtin type '${type}'`);
    if (ctx.params["check-connection"] !== undefined && type !== "ldap" && type !== "ad") {
      throw new PveApiError(500, "'check-connection' parameter can only be set for realms of type 'ldap' or 'ad'");
    }
    const opts = REALM_TYPES[type];
    if (!opts) throw new PveApiError(500, `unknown realm type '${type}'`);
    const record: RealmRecord = { type };
    apply(state(), record, checkedOptions(opts, ctx.params, true));
    state().realms[realm] = record;
    return null;
  });

  router.add("PUT", "/access/domains/{realm}", (ctx) => {
    const realm = str(ctx.params, "realm") ?? "";
    const digest = str(ctx.params, "digest");
    if (digest !== undefined && digest !== realmsDigest(state())) {
      throw new PveApiError(500, "detected modified configuration - file changed by other user? Try again.");
    }
    const record = state().realms[realm];
    if (!record) throw new PveApiError(500, `domain '${realm}' does not exist`);
    const opts = REALM_TYPES[record.type] ?? { required: [], optional: [] };
    const deletes = list(ctx.params, "delete");
    const options = checkedOptions(opts, ctx.params, false);
    if (deletes.length === 0 && Object.keys(options).length === 0 && ctx.params.password === undefined) {
      throw new PveApiError(500, "no options specified");
    }
    removeKeys(record, deletes);
    apply(state(), record, options);
    return null;
  });

  router.add("DELETE", "/access/domains/{realm}", (ctx) => {
    const realm = str(ctx.params, "realm") ?? "";
    if (!state().realms[realm]) throw new PveApiError(500, `authentication domain '${realm}' does not exist`);
    const builtin = BUILTIN_REALMS[realm];
    // pam and pve come back on the next read of domains.cfg, with their default comment only.
    if (builtin) state().realms[realm] = { ...builtin };
    else delete state().realms[realm];
    return null;
  });
}
