// Text from the cluster, a spec or NetBox (guest names, descriptions, tags, PVE's messages)
// reaches people's terminals. A control character in it is an instruction to the terminal:
// `\x1b]0;...\x07` retitles the window, `\x1b[2J` clears the screen, `\r` overwrites the line
// so a reviewer sees something other than what is there. Every human output passes such text
// through here, which writes each control character as a visible escape (`\x1b`, `\r`) instead.
// Colour codes added by pvectl itself are applied after escaping and so survive.

/** C0 controls, DEL, C1 controls, and the bidirectional overrides that reorder what is shown. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this file's job
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same plus newline and tab, for values that must stay on one line (names, table cells). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this file's job
const CONTROL_OR_BREAK = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function escapeChar(c: string): string {
  if (c === "\r") return "\\r";
  if (c === "\n") return "\\n";
  if (c === "\t") return "\\t";
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** Multi-line text (messages, reports): line breaks and tabs kept, every other control escaped. */
export function safeText(text: string): string {
  return text.replace(CONTROL, escapeChar);
}

/** A value shown on one line (a name, a field value): line breaks escaped too. */
export function safeLine(text: string): string {
  return text.replace(CONTROL_OR_BREAK, escapeChar);
}
