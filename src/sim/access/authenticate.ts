// Who is calling (pve-manager HTTPServer.pm auth_handler): a ticket from the PVEAuthCookie
// cookie (or `Authorization: PVEAuthCookie=...`), which needs a CSRFPreventionToken header on
// writes, or an API token (`Authorization: PVEAPIToken=user@realm!name=secret`). A ticket
// wins when both are sent. Failures are 401s without a body.
import type { IncomingHttpHeaders } from "node:http";
import type { AuthIdentity } from "../contract.js";
import { hashSecret, type AccessState, type UserRecord } from "./state.js";
import type { TicketSigner } from "./tickets.js";

export type AuthOutcome = { ok: true; identity: AuthIdentity } | { ok: false; status: 401; message: string };

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Percent-decoding that leaves malformed input as it is (it then fails verification: a 401, not a 500). */
function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function ticketFromHeaders(headers: IncomingHttpHeaders): string | undefined {
  const cookie = headerValue(headers, "cookie");
  if (cookie) {
    for (const part of cookie.split(";")) {
      const eq = part.indexOf("=");
      if (eq > 0 && part.slice(0, eq).trim() === "PVEAuthCookie") return decode(part.slice(eq + 1).trim());
    }
  }
  const authz = headerValue(headers, "authorization");
  const m = authz ? /(?:^|\s)PVEAuthCookie=([^;\s]*)/.exec(authz) : null;
  return m ? decode(m[1] as string) : undefined;
}

function tokenFromHeaders(headers: IncomingHttpHeaders): string | undefined {
  const authz = headerValue(headers, "authorization");
  const m = authz ? /(?:^|\s)PVEAPIToken(?:=| )([^;]*)/.exec(authz) : null;
  return m ? (m[1] as string).trim() : undefined;
}

export function userUsable(user: UserRecord | undefined, now: number): user is UserRecord {
  return !!user && user.enable === 1 && (user.expire === 0 || user.expire > now);
}

const FAILED: AuthOutcome = { ok: false, status: 401, message: "Authentication failed!" };

export function authenticate(
  headers: IncomingHttpHeaders,
  method: string,
  state: AccessState,
  signer: TicketSigner,
  now: number,
): AuthOutcome {
  const ticket = ticketFromHeaders(headers);
  if (ticket !== undefined) {
    const userid = signer.verifyTicket(ticket, now);
    if (!userid || !userUsable(state.users[userid], now)) return FAILED;
    if (method !== "GET") {
      const csrf = headerValue(headers, "csrfpreventiontoken");
      if (!signer.verifyCsrfToken(csrf, userid, now)) {
        return { ok: false, status: 401, message: "Permission denied - invalid csrf token" };
      }
    }
    return { ok: true, identity: { userid } };
  }
  const token = tokenFromHeaders(headers);
  if (token !== undefined) {
    const m = /^([^\s:/]+@[A-Za-z][A-Za-z0-9.\-_]+)!([A-Za-z][A-Za-z0-9.\-_]+)[= ](\S+)$/.exec(token);
    if (!m) return FAILED;
    const [, userid, tokenid, secret] = m as unknown as [string, string, string, string];
    const user = state.users[userid];
    if (!userUsable(user, now)) return FAILED;
    const record = user.tokens[tokenid];
    if (!record) return FAILED;
    if (record.expire !== 0 && record.expire <= now) return FAILED;
    if (record.secretHash !== hashSecret(`${userid}!${tokenid}`, secret)) return FAILED;
    return { ok: true, identity: { userid, tokenid, privsep: record.privsep === 1 } };
  }
  return { ok: false, status: 401, message: "No ticket" };
}

/** "user@realm" or "user@realm!token": the id PVE shows in UPIDs and permission dumps. */
export function authId(identity: AuthIdentity): string {
  return identity.tokenid ? `${identity.userid}!${identity.tokenid}` : identity.userid;
}
