// Who may use the admin API over HTTP. The token (random per start, printed by `pvectl sim`)
// keeps out anything that merely reaches the port; requiring it in a header, and a JSON
// content type on writes, keeps out web pages too: a browser sends neither cross-site without
// a CORS preflight, which the simulator never answers, so a page cannot drive an --http
// simulator with a simple form or text/plain POST.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** Header names the token is accepted in (either one). */
export const ADMIN_TOKEN_HEADER = "x-sim-admin-token";

export interface AdminRefusal {
  status: 401 | 415;
  error: string;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function presentedToken(headers: IncomingHttpHeaders): string | undefined {
  const direct = header(headers, ADMIN_TOKEN_HEADER);
  if (direct !== undefined) return direct.trim();
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header(headers, "authorization") ?? "");
  return bearer?.[1];
}

/** Compares digests, so neither the length nor the content of the token leaks through timing. */
function sameToken(presented: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

function isJson(contentType: string | undefined): boolean {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() === "application/json";
}

/** Why this admin request is refused before it is read, or undefined when it may go on. */
export function refuseAdminRequest(
  headers: IncomingHttpHeaders,
  method: string,
  hasBody: boolean,
  token: string,
): AdminRefusal | undefined {
  const presented = presentedToken(headers);
  if (presented === undefined || !sameToken(presented, token)) {
    return {
      status: 401,
      error: `the admin API needs the admin token printed at start, in an 'X-Sim-Admin-Token: <token>' or 'Authorization: Bearer <token>' header${presented === undefined ? "" : " (the one sent is wrong)"}`,
    };
  }
  if ((hasBody || method === "POST" || method === "PUT") && !isJson(header(headers, "content-type"))) {
    return { status: 415, error: `admin ${method} requests need 'Content-Type: application/json' (send {} when there is nothing to say)` };
  }
  return undefined;
}
