// NetBox API token checks: v1 `Authorization: Token <40 hex>`, v2 (4.5+)
// `Authorization: Bearer nbt_<key>.<token>`; read-only tokens may not write. Every failure
// is a 403 with DRF's `detail`, because NetBox's first authentication class (session)
// sends no WWW-Authenticate challenge.
import { HttpError } from "./errors.js";
import type { SimVersion } from "./resource.js";

export interface TokenSet {
  writable: Set<string>;
  readOnly: Set<string>;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function checkAuth(header: string | undefined, method: string, tokens: TokenSet, version: SimVersion): void {
  if (!header || header.trim() === "") throw new HttpError(403, { detail: "Authentication credentials were not provided." });
  const [scheme = "", value = "", ...rest] = header.trim().split(/\s+/);
  const isV1 = scheme.toLowerCase() === "token" && /^[0-9a-fA-F]{40}$/.test(value);
  const isV2 = version.n >= 405 && scheme.toLowerCase() === "bearer" && /^nbt_[A-Za-z0-9]+\.[A-Za-z0-9]+$/.test(value);
  if (rest.length > 0 || !(isV1 || isV2)) throw new HttpError(403, { detail: "Invalid token header." });
  const known = tokens.writable.has(value) || tokens.readOnly.has(value);
  if (!known) throw new HttpError(403, { detail: "Invalid token" });
  if (!SAFE_METHODS.has(method) && !tokens.writable.has(value))
    throw new HttpError(403, { detail: "You do not have permission to perform this action." });
}
