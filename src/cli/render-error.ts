// Turns an error into text for a person, or into one JSON object for a machine (`--json`).
// Errors that carry a user-facing message (`userMessage()`) are printed as they are; anything
// else is an internal error and says so, with the stack only when PVECTL_DEBUG is set.
// Messages quote names and PVE's own words, so their control characters are escaped before
// they reach a terminal (JSON.stringify escapes them in the JSON form).
import { safeText } from "../util/safe-text.js";

export interface UserFacingError {
  userMessage(): string;
}

function isUserFacing(err: unknown): err is UserFacingError {
  return typeof err === "object" && err !== null && typeof (err as UserFacingError).userMessage === "function";
}

export function renderError(err: unknown): string {
  if (isUserFacing(err)) return `error: ${safeText(err.userMessage())}`;
  const message = err instanceof Error ? err.message : String(err);
  const stack = process.env.PVECTL_DEBUG && err instanceof Error ? `\n${err.stack}` : "";
  return `error: ${safeText(`${message}${stack}`)}`;
}

/**
 * The error kinds a program can branch on. Client errors keep PveError's own kind (auth,
 * permission, connection, tls, timeout, http, task, config); the others are named by class, so
 * this module does not have to load the engine, the spec loader or NetBox to recognise them.
 */
const KIND_BY_NAME: Record<string, string> = {
  UsageError: "usage",
  SimFlagError: "usage",
  CommanderError: "usage",
  SpecError: "spec",
  ConnectionError: "connection-config",
  SavedPlanError: "saved-plan",
  PreflightFailedError: "preflight",
  ChangedSincePlanError: "changed-since-plan",
  InventoryError: "inventory",
  NothingImportedError: "nothing-imported",
  NetboxConfigError: "netbox-config",
  NetboxSetupError: "netbox-config",
  NetboxError: "netbox",
  NetboxConnectionError: "netbox-connection",
};

export function errorKind(err: unknown): string {
  if (!(err instanceof Error)) return "internal";
  const kind = (err as Error & { kind?: unknown }).kind;
  if (err.name === "PveError" && typeof kind === "string") return kind;
  return KIND_BY_NAME[err.name] ?? (isUserFacing(err) ? "error" : "internal");
}

export interface ErrorJson {
  ok: false;
  error: { kind: string; message: string; hint: string | null };
}

/** `{"ok":false,"error":{kind,message,hint}}`: the message is the error's first line, the hint the rest. */
export function errorJson(err: unknown, kind = errorKind(err)): ErrorJson {
  const full = isUserFacing(err) ? err.userMessage() : err instanceof Error ? err.message : String(err);
  const text = full.replace(/^error: /, "").trim();
  const cut = text.indexOf("\n");
  const message = cut < 0 ? text : text.slice(0, cut);
  const hint = cut < 0 ? null : text.slice(cut + 1).replace(/^\s+/gm, "").trim() || null;
  return { ok: false, error: { kind, message, hint } };
}
