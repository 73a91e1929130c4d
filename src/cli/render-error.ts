// Turns an error into text for a person. Errors that carry a user-facing message
// (`userMessage()`) are printed as they are; anything else is an internal error and says so,
// with the stack only when PVECTL_DEBUG is set. Messages quote names and PVE's own words, so
// their control characters are escaped before they reach a terminal.
import { safeText } from "./render/safe-text.js";

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
