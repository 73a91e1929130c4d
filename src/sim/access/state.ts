// The access-control data of the simulated cluster (what PVE keeps in user.cfg, token.cfg,
// domains.cfg and the shadow files). Plain JSON so it goes into --state files as it is.
// Secrets are stored only as salted SHA-256 hashes.
import { createHash } from "node:crypto";

export interface TokenRecord {
  privsep: 0 | 1;
  /** Seconds since the epoch; 0 = never. */
  expire: number;
  comment?: string;
  secretHash: string;
}

export interface UserRecord {
  enable: 0 | 1;
  expire: number;
  firstname?: string;
  lastname?: string;
  email?: string;
  comment?: string;
  keys?: string;
  groups: string[];
  passwordHash?: string;
  /** Base32 TOTP secret: login then needs a second factor (`otp`, or the `tfa-challenge` round). */
  totp?: string;
  tokens: Record<string, TokenRecord>;
}

export interface GroupRecord {
  comment?: string;
}

export interface AclEntry {
  path: string;
  type: "user" | "group" | "token";
  ugid: string;
  roleid: string;
  propagate: 0 | 1;
}

export interface RealmRecord {
  type: string;
  comment?: string;
  default?: 0 | 1;
  /** Every other domains.cfg key of the realm (server1, issuer-url, ...), as the API sent it. */
  config?: Record<string, string | number>;
}

export interface AccessState {
  users: Record<string, UserRecord>;
  groups: Record<string, GroupRecord>;
  /** Custom roles only (built-ins are computed). */
  roles: Record<string, { privs: string[] }>;
  acl: AclEntry[];
  realms: Record<string, RealmRecord>;
}

export function hashSecret(owner: string, secret: string): string {
  return createHash("sha256").update(`pvectl-sim:${owner}:${secret}`).digest("hex");
}

export function initialAccessState(rootPassword: string): AccessState {
  return {
    users: {
      "root@pam": {
        enable: 1,
        expire: 0,
        email: "root@localhost",
        groups: [],
        passwordHash: hashSecret("root@pam", rootPassword),
        tokens: {},
      },
    },
    groups: {},
    roles: {},
    acl: [],
    realms: {
      pam: { type: "pam", comment: "Linux PAM standard authentication" },
      // a fresh domains.cfg marks no realm as default
      pve: { type: "pve", comment: "Proxmox VE authentication server" },
    },
  };
}

/** Splits "user@realm!token" into its parts; token undefined for a plain user id. */
export function splitAuthId(authid: string): { userid: string; tokenid?: string } {
  const bang = authid.indexOf("!");
  if (bang < 0) return { userid: authid };
  return { userid: authid.slice(0, bang), tokenid: authid.slice(bang + 1) };
}

export const USERID_RE = /^[^\s:/]+@[A-Za-z][A-Za-z0-9.\-_]+$/;
export const TOKEN_NAME_RE = /^[A-Za-z][A-Za-z0-9.\-_]+$/;
