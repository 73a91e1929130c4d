// Turns an error into text for a person, or into one JSON object for a machine (`--json`).
// A PvectlError (and the simulator's SimUserError) carries its message for a person
// (`userMessage()`) and is printed as it is; anything else is an internal error and says so,
// with the stack only when PVECTL_DEBUG is set. Messages quote names and PVE's own words, so
// their control characters are escaped before they reach a terminal (JSON.stringify escapes
// them in the JSON form).
import { SimUserError } from "../app/user-errors.js";
import { messageAndHint, PvectlError, type PvectlErrorJson } from "../util/errors.js";
import { safeText } from "../util/safe-text.js";

function isUserFacing(err: unknown): err is PvectlError | SimUserError {
  return err instanceof PvectlError || err instanceof SimUserError;
}

export function renderError(err: unknown): string {
  if (isUserFacing(err)) return `error: ${safeText(err.userMessage())}`;
  const message = err instanceof Error ? err.message : String(err);
  const stack = process.env.PVECTL_DEBUG && err instanceof Error ? `\n${err.stack}` : "";
  return `error: ${safeText(`${message}${stack}`)}`;
}

/**
 * The error kind a program can branch on: each PvectlError names its own (client errors keep
 * PveError's auth, permission, connection, tls, timeout, http, task, config), the simulator's
 * are plain `error`, and commander's parse errors `usage`.
 */
export function errorKind(err: unknown): string {
  if (err instanceof PvectlError) return err.kind;
  if (err instanceof SimUserError) return "error";
  return err instanceof Error && err.name === "CommanderError" ? "usage" : "internal";
}

/** The exit code when this error stops a command. */
export function errorExitCode(err: unknown): number {
  return err instanceof PvectlError ? err.exitCode : 1;
}

export interface ErrorJson {
  ok: false;
  error: PvectlErrorJson;
}

/** What commander prints after its own usage errors (main.ts: showHelpAfterError). */
const USAGE_HINT = "run with --help for usage";

/**
 * `{"ok":false,"error":{kind,message,hint?}}`: what is wrong, and what to do next apart from it
 * (no `hint` when the error gives no advice); an invalid spec or config adds `problems`.
 */
export function errorJson(err: unknown, kind = errorKind(err)): ErrorJson {
  if (err instanceof PvectlError) return { ok: false, error: { kind, ...err.parts() } };
  const full = err instanceof SimUserError ? err.userMessage() : err instanceof Error ? err.message : String(err);
  const parts = messageAndHint(full);
  const usage = err instanceof Error && err.name === "CommanderError" && parts.hint === undefined;
  return { ok: false, error: { kind, ...parts, ...(usage ? { hint: USAGE_HINT } : {}) } };
}
