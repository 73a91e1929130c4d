// Access objects (PVE's user.cfg, token.cfg and pools) as desired state: roles, groups, users,
// tokens, ACL entries and pools, each keyed by its id. A list the spec leaves out is not
// managed at all (not read, not listed, nothing deleted).
//
// Ownership: groups, users, tokens and pools carry pvectl's marker at the end of their
// comment (resources/object-marker.ts). Roles and ACL entries have no comment:
// - a role is the spec's only while it is listed; since PVE cannot remember that pvectl made
//   it, an existing custom role whose privileges differ is changed only with `adopt: true`,
//   and a role is deleted only when its entry says `state: absent`;
// - an ACL entry is pvectl's when its subject (user, group or token) carries the marker.

export type AclSubjectType = "user" | "group" | "token";

interface Declared {
  /** Where the spec declares it (`file:line`), for messages. */
  where?: string;
}

interface Adoptable extends Declared {
  /** Manage an existing object of this id that pvectl did not create (it gets the marker). */
  adopt: boolean;
}

export interface DesiredRole extends Adoptable {
  id: string;
  /** Sorted, de-duplicated. */
  privileges: string[];
  /** `state: absent`: delete the role (refused while an ACL entry the plan keeps uses it). */
  absent: boolean;
}

export interface DesiredGroup extends Adoptable {
  id: string;
  /** The user's comment text (without the marker); undefined: not managed. */
  comment?: string;
}

export interface DesiredUser extends Adoptable {
  /** `user@realm`. */
  id: string;
  /** Sorted; undefined: membership not managed. */
  groups?: string[];
  enable?: boolean;
  /** Seconds since the epoch, 0 = never; undefined: not managed. */
  expire?: number;
  comment?: string;
}

export interface DesiredToken extends Adoptable {
  user: string;
  name: string;
  privsep: boolean;
  expire?: number;
  comment?: string;
  /**
   * Absolute path of the file that holds the token's secret: written on create (mode 0600,
   * never over a file that holds something); while the token exists and the file holds no
   * secret, the plan resets the secret (token-reset.ts).
   */
  secretFile?: string;
}

/**
 * What a token's secretFile holds, read at plan time (the engine reads the files: this folder
 * does no I/O): a secret, nothing (missing, empty, cut off: the secret is lost), or something
 * pvectl cannot judge (a foreign text, a symlink, no permission); `why` says which.
 */
export type { SecretFileState } from "../object-family.js";

export interface DesiredAcl extends Declared {
  path: string;
  role: string;
  type: AclSubjectType;
  /** user id, group id or full token id (`user@realm!name`). */
  ugid: string;
  propagate: boolean;
}

export interface DesiredPool extends Adoptable {
  id: string;
  comment?: string;
}

/** The spec's `access:` section on one cluster; a list left undefined is not managed. */
export interface DesiredAccess {
  roles?: DesiredRole[];
  groups?: DesiredGroup[];
  users?: DesiredUser[];
  tokens?: DesiredToken[];
  acls?: DesiredAcl[];
  pools?: DesiredPool[];
}

export interface LiveRole {
  id: string;
  privileges: string[];
  builtin: boolean;
}

interface LiveCommented {
  /** The comment's text without the marker (undefined: none). */
  comment?: string;
  marked: boolean;
}

export interface LiveGroup extends LiveCommented {
  id: string;
}

export interface LiveUser extends LiveCommented {
  id: string;
  enable: boolean;
  expire: number;
  groups: string[];
}

export interface LiveToken extends LiveCommented {
  user: string;
  name: string;
  privsep: boolean;
  expire: number;
}

export interface LiveAcl {
  path: string;
  role: string;
  type: AclSubjectType;
  ugid: string;
  propagate: boolean;
}

export interface LivePool extends LiveCommented {
  id: string;
  /** Guests and storages in the pool. */
  members: number;
}

/** What the cluster has, for the lists the spec manages (others stay empty, unread). */
export interface LiveAccess {
  roles: LiveRole[];
  groups: LiveGroup[];
  users: LiveUser[];
  tokens: LiveToken[];
  acls: LiveAcl[];
  pools: LivePool[];
}

export const tokenKey = (t: { user: string; name: string }) => `${t.user}!${t.name}`;

/** An ACL entry's identity: PVE keeps one entry per path, subject and role. */
export const aclKey = (a: { path: string; type: AclSubjectType; ugid: string; role: string }) => `${a.path} ${a.type}:${a.ugid} ${a.role}`;

/** The users of realm `pam` are system accounts; root@pam is never managed. */
export const ROOT_USER = "root@pam";
