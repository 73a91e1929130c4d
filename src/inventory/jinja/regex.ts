// Ansible's regex_replace runs Python's re.sub: the pattern and the replacement use Python's
// syntax, translated here to JavaScript's where they differ.
import { HostEvalError } from "./values.js";

/** A Python pattern as a JS RegExp source: named groups, \A, \Z; other syntax is shared. */
function translatePattern(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "\\") {
      const next = pattern[i + 1] ?? "";
      if (next === "A") out += "^";
      else if (next === "Z") out += "$(?![\\s\\S])";
      else out += ch + next;
      i++;
    } else if (pattern.startsWith("(?P<", i)) {
      out += "(?<";
      i += 3;
    } else if (pattern.startsWith("(?P=", i)) {
      const end = pattern.indexOf(")", i);
      out += `\\k<${pattern.slice(i + 4, end)}>`;
      i = end;
    } else out += ch;
  }
  return out;
}

/** Python's replacement template: \1, \g<1>, \g<name>, and backslash escapes. */
function expand(template: string, match: RegExpExecArray): string {
  return template.replace(/\\(g<([^>]+)>|\d{1,2}|[\s\S])/g, (_, esc: string, group?: string) => {
    if (group !== undefined || /^\d/.test(esc)) {
      const ref = group ?? esc;
      const value = /^\d+$/.test(ref) ? match[Number(ref)] : match.groups?.[ref];
      if (/^\d+$/.test(ref) && Number(ref) >= match.length) throw new HostEvalError(`invalid group reference ${ref}`);
      return value ?? "";
    }
    const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", f: "\f", v: "\v", a: "\x07", b: "\b" };
    if (esc in escapes) return escapes[esc]!;
    if (/[A-Za-z]/.test(esc)) throw new HostEvalError(`bad escape \\${esc} in the replacement`);
    return `\\${esc}`;
  });
}

export function regexReplace(value: string, pattern: string, replacement: string, ignorecase: boolean, multiline: boolean): string {
  let re: RegExp;
  try {
    re = new RegExp(translatePattern(pattern), `g${ignorecase ? "i" : ""}${multiline ? "m" : ""}`);
  } catch (err) {
    throw new HostEvalError(`invalid regular expression '${pattern}': ${(err as Error).message}`);
  }
  let out = "";
  let last = 0;
  for (const match of value.matchAll(re)) {
    out += value.slice(last, match.index) + expand(replacement, match as RegExpExecArray);
    last = match.index + match[0].length;
  }
  return out + value.slice(last);
}
