// Text from a plan (guest names, descriptions, PVE's messages) placed into Markdown that GitHub
// or GitLab renders, e.g. a pull-request comment. A hostile value must not be able to end a
// table cell (`|`), open a code span (`` ` ``), inject HTML (`<img onerror=...>`), emphasise,
// link, autolink a URL or @-mention anyone. So, after the terminal escaping of control
// characters, every character that is not a letter, digit, space or one of `.,_-` becomes a
// numeric HTML entity: renderers show entities as the literal character and never read them as
// Markdown or HTML syntax (CommonMark: entity references are literal text).
import { safeLine } from "../../util/safe-text.js";

const LITERAL = /^[\p{L}\p{N} .,_-]$/u;
/** Cells longer than this are cut: a plan comment must stay readable. */
const MAX_CELL = 200;

function entity(c: string): string {
  return LITERAL.test(c) ? c : `&#${c.codePointAt(0)};`;
}

/** Inline text: safe anywhere in a Markdown line, including a table cell. */
export function mdText(text: string): string {
  const line = safeLine(text);
  const cut = line.length > MAX_CELL ? `${line.slice(0, MAX_CELL)}…` : line;
  return Array.from(cut, entity).join("");
}

/**
 * A value (a name, a config value): as mdText, inside <code> so it stands out and so that
 * mention and link detection, which skip code, never see it.
 */
export function mdCode(text: string): string {
  return `<code>${mdText(text)}</code>`;
}
