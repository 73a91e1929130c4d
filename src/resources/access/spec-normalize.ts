// The `access:` section, shape-checked by access-schema.ts, into what the engine compares:
// privilege names checked against PVE 9's list, ACL paths against PVE's, built-in role names
// and root@pam refused, dates turned into PVE's expiry seconds, secret files made absolute
// (relative to the spec file). Every problem is reported with the entry's place.
import { resolve } from "node:path";
import { BUILTIN_ROLES, isAclPath, isPrivilege, PVE_PRIVILEGES, REMOVED_PRIVILEGES } from "../../pve/index.js";
import type { DesiredAccess, DesiredAcl, DesiredRole, DesiredToken, DesiredUser } from "./model.js";
import type { RawAccess } from "./spec-schema.js";
import type { IssueSink, SourceLocation, SpecPath } from "../spec-section/issues.js";
import { closestMatch } from "../spec-section/suggest.js";

/** A spec's access section: what the engine compares, and where it was written. */
export interface AccessSpec {
  connection?: string;
  source: SourceLocation;
  desired: DesiredAccess;
}

type Locate = (path: SpecPath) => SourceLocation;

type ListName = "roles" | "groups" | "users" | "tokens" | "acls" | "pools";

/**
 * The section as the loader hands it over: each list entry shape-checked on its own, undefined
 * where it failed (its problems are reported already; its index still names the others).
 */
export type CheckedAccess = { connection?: string | undefined } & {
  [L in ListName]?: ReadonlyArray<NonNullable<RawAccess[L]>[number] | undefined> | undefined;
};

type Entries<L extends ListName> = NonNullable<CheckedAccess[L]>;

function at(locate: Locate, path: SpecPath): string {
  const l = locate(path);
  return `${l.file}:${l.line}`;
}

export function privilegeProblem(name: string): string | undefined {
  if (isPrivilege(name)) return undefined;
  const removed = REMOVED_PRIVILEGES[name];
  if (removed) return `'${name}' is not a PVE 9 privilege: ${removed}`;
  const close = closestMatch(name, PVE_PRIVILEGES);
  const hint = close ? `did you mean ${close}? ` : "";
  return `unknown privilege '${name}' (${hint}PVE 9 privileges: ${PVE_PRIVILEGES.join(", ")})`;
}

/** Seconds since the epoch of a spec expiry; a message when it is not one. */
export function expireSeconds(value: number | string | Date): number | string {
  if (typeof value === "number") return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "not a date" : Math.floor(value.getTime() / 1000);
  if (/^0$/.test(value)) return 0;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const seconds = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 1000 : Number.NaN;
  if (!m || Number.isNaN(seconds) || new Date(seconds * 1000).toISOString().slice(0, 10) !== value) {
    return `'${value}' is not a date: write YYYY-MM-DD (e.g. 2027-06-30), or 0 for never`;
  }
  return seconds;
}

function expireOf(value: number | string | Date | undefined, path: SpecPath, sink: IssueSink): number | undefined | null {
  if (value === undefined) return undefined;
  const seconds = expireSeconds(value);
  if (typeof seconds === "string") {
    sink.add([...path, "expire"], seconds);
    return null;
  }
  return seconds;
}

function roles(raw: Entries<"roles">, path: SpecPath, sink: IssueSink, locate: Locate): DesiredRole[] {
  const out: DesiredRole[] = [];
  raw.forEach((r, i) => {
    if (r === undefined) return;
    const here = [...path, "roles", i];
    if (Object.hasOwn(BUILTIN_ROLES, r.id) || /^PVE/i.test(r.id)) {
      const why = Object.hasOwn(BUILTIN_ROLES, r.id)
        ? "a built-in role of PVE: it cannot be changed"
        : `refused by PVE: role ids starting with '${r.id.slice(0, 3)}' (PVE, in any case) are kept for its built-in roles`;
      sink.add([...here, "id"], `'${r.id}' is ${why}; give the custom role another name (e.g. WebDeploy)`);
    }
    r.privileges.forEach((p, j) => {
      const problem = privilegeProblem(p);
      if (problem) sink.add([...here, "privileges", j], problem);
    });
    // Kept even when refused above: the section is refused, and the role still meets the check for ids declared twice.
    out.push({
      id: r.id,
      privileges: [...new Set(r.privileges)].sort(),
      absent: r.state === "absent",
      adopt: r.adopt ?? false,
      where: at(locate, here),
    });
  });
  return out;
}

function users(raw: Entries<"users">, path: SpecPath, sink: IssueSink, locate: Locate): DesiredUser[] {
  const out: DesiredUser[] = [];
  raw.forEach((u, i) => {
    if (u === undefined) return;
    const here = [...path, "users", i];
    if (u.id === "root@pam") {
      sink.add([...here, "id"], "root@pam is PVE's superuser and never managed by pvectl; manage another user");
      return;
    }
    const expire = expireOf(u.expire, here, sink);
    const user: DesiredUser = { id: u.id, adopt: u.adopt ?? false, where: at(locate, here) };
    if (u.groups !== undefined) user.groups = [...new Set(u.groups)].sort();
    if (u.enable !== undefined) user.enable = u.enable;
    if (typeof expire === "number") user.expire = expire;
    if (u.comment !== undefined) user.comment = u.comment.trim();
    out.push(user);
  });
  return out;
}

function tokens(raw: Entries<"tokens">, path: SpecPath, sink: IssueSink, locate: Locate, baseDir: string): DesiredToken[] {
  const out: DesiredToken[] = [];
  raw.forEach((t, i) => {
    if (t === undefined) return;
    const here = [...path, "tokens", i];
    const expire = expireOf(t.expire, here, sink);
    const token: DesiredToken = {
      user: t.user,
      name: t.name,
      privsep: t.privsep ?? true,
      adopt: t.adopt ?? false,
      where: at(locate, here),
    };
    if (typeof expire === "number") token.expire = expire;
    if (t.comment !== undefined) token.comment = t.comment.trim();
    if (t.secretFile !== undefined) token.secretFile = resolve(baseDir, t.secretFile);
    out.push(token);
  });
  return out;
}

function acls(raw: Entries<"acls">, path: SpecPath, sink: IssueSink, locate: Locate): DesiredAcl[] {
  const out: DesiredAcl[] = [];
  raw.forEach((a, i) => {
    if (a === undefined) return;
    const here = [...path, "acls", i];
    const subjects = [
      a.user !== undefined ? { type: "user" as const, ugid: a.user } : undefined,
      a.group !== undefined ? { type: "group" as const, ugid: a.group } : undefined,
      a.token !== undefined ? { type: "token" as const, ugid: a.token } : undefined,
    ].filter((s) => s !== undefined);
    if (subjects.length !== 1) sink.add(here, "give exactly one of `user: user@realm`, `group: NAME` or `token: user@realm!name`");
    if (!isAclPath(a.path)) {
      sink.add(
        [...here, "path"],
        `'${a.path}' is not an ACL path PVE accepts: /, /vms[/<vmid>], /pool[/<pool>], /storage[/<id>], /nodes[/<node>], /sdn/..., /mapping/..., /access[/groups[/<group>]|/realm[/<realm>]]`,
      );
    }
    // An entry with a bad path still meets the check for entries declared twice; one without a single subject has no key.
    const subject = subjects.length === 1 ? subjects[0] : undefined;
    if (subject === undefined) return;
    out.push({ path: a.path, role: a.role, ...subject, propagate: a.propagate ?? true, where: at(locate, here) });
  });
  return out;
}

function commented(
  raw: ReadonlyArray<{ id: string; comment?: string | undefined; adopt?: boolean | undefined } | undefined>,
  path: SpecPath,
  locate: Locate,
) {
  return raw.flatMap((e, i) =>
    e === undefined
      ? []
      : [
          {
            id: e.id,
            ...(e.comment !== undefined ? { comment: e.comment.trim() } : {}),
            adopt: e.adopt ?? false,
            where: at(locate, [...path, i]),
          },
        ],
  );
}

/**
 * The section the engine compares, its problems reported to `sink`: a spec with any problem is
 * refused as a whole, and the loader still checks the entries kept here against other sections.
 */
export function normalizeAccess(raw: CheckedAccess, path: SpecPath, locate: Locate, sink: IssueSink, baseDir: string): AccessSpec {
  const desired: DesiredAccess = {};
  if (raw.roles) desired.roles = roles(raw.roles, path, sink, locate);
  if (raw.groups) desired.groups = commented(raw.groups, [...path, "groups"], locate);
  if (raw.users) desired.users = users(raw.users, path, sink, locate);
  if (raw.tokens) desired.tokens = tokens(raw.tokens, path, sink, locate, baseDir);
  if (raw.acls) desired.acls = acls(raw.acls, path, sink, locate);
  if (raw.pools) desired.pools = commented(raw.pools, [...path, "pools"], locate);
  return { ...(raw.connection !== undefined ? { connection: raw.connection } : {}), source: locate(path), desired };
}
