// Converts the Perl regular expressions found in PVE's schema into JavaScript sources
// that accept the same strings when compiled without flags (no `u`: the schema uses
// identity escapes such as `\_` and `\@` that `u` rejects).
//
// Perl constructs met in the schema and how they are rewritten:
//   (?^:X)   group with default flags          -> (?:X)
//   (?^i:X)  case-insensitive group            -> (?:X) with every letter in X made
//            case-insensitive by hand (Node 20 has no `(?i:...)` modifiers)
//   (?>X)    atomic group                      -> (?:(?=(?<atomicN>X))\k<atomicN>)
//            (the classic emulation: same matches, same protection against backtracking)
//   {,n}     "0 to n" (Perl >= 5.34, PVE 9 runs 5.40) -> {0,n}
// Anything else that JavaScript would read differently makes the conversion throw, so
// a schema update with a new construct is noticed by the generator instead of shipping
// a silently different pattern.

export class PerlRegexError extends Error {}

interface GroupFrame {
  caseInsensitive: boolean;
  atomicName?: string;
}

const LETTER = /[a-zA-Z]/;

function otherCase(ch: string): string {
  const lower = ch.toLowerCase();
  return lower === ch ? ch.toUpperCase() : lower;
}

/** Reads a character class starting at `start` (the `[`); returns its JS text and the index after `]`. */
function convertClass(src: string, start: number, caseInsensitive: boolean): { text: string; end: number } {
  let i = start + 1;
  let out = "[";
  if (src[i] === "^") {
    out += "^";
    i++;
  }
  const extra: string[] = [];
  let first = true;
  while (i < src.length) {
    const ch = src[i] as string;
    if (ch === "]" && !first) {
      return { text: out + extra.join("") + "]", end: i + 1 };
    }
    first = false;
    if (ch === "[" && src[i + 1] === ":") throw new PerlRegexError(`POSIX class in ${src}`);
    if (ch === "\\") {
      const next = src[i + 1];
      if (next === undefined) throw new PerlRegexError(`dangling escape in ${src}`);
      if (next === "x") {
        const hex = src.slice(i + 2, i + 4);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new PerlRegexError(`unsupported \\x escape in ${src}`);
        out += `\\x${hex}`;
        i += 4;
        continue;
      }
      if (next === "]") {
        out += "\\]";
        i += 2;
        continue;
      }
      out += ch + next;
      i += 2;
      continue;
    }
    // A letter range such as a-z gains its other-case twin when case-insensitive.
    const rangeEnd = src[i + 1] === "-" ? src[i + 2] : undefined;
    if (rangeEnd !== undefined && rangeEnd !== "]" && rangeEnd !== "\\") {
      out += `${ch}-${rangeEnd}`;
      if (caseInsensitive && LETTER.test(ch) && LETTER.test(rangeEnd)) {
        extra.push(`${otherCase(ch)}-${otherCase(rangeEnd)}`);
      }
      i += 3;
      continue;
    }
    out += ch;
    if (caseInsensitive && LETTER.test(ch)) extra.push(otherCase(ch));
    i++;
  }
  throw new PerlRegexError(`unterminated character class in ${src}`);
}

/** Converts one Perl pattern source (as found in `pattern` fields) to a JavaScript source. */
export function perlRegexToJs(src: string): string {
  const stack: GroupFrame[] = [{ caseInsensitive: false }];
  let atomicCount = 0;
  let out = "";
  let i = 0;
  const current = (): GroupFrame => stack[stack.length - 1] as GroupFrame;
  while (i < src.length) {
    const ch = src[i] as string;
    const ci = current().caseInsensitive;
    if (ch === "\\") {
      const next = src[i + 1];
      if (next === undefined) throw new PerlRegexError(`dangling escape in ${src}`);
      if ("AzZGK".includes(next)) throw new PerlRegexError(`unsupported escape \\${next} in ${src}`);
      if (next === "x") {
        const hex = src.slice(i + 2, i + 4);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new PerlRegexError(`unsupported \\x escape in ${src}`);
        out += `\\x${hex}`;
        i += 4;
        continue;
      }
      out += ch + next;
      i += 2;
      continue;
    }
    if (ch === "[") {
      const cls = convertClass(src, i, ci);
      out += cls.text;
      i = cls.end;
      continue;
    }
    if (ch === "(") {
      if (src[i + 1] !== "?") {
        stack.push({ caseInsensitive: ci });
        out += "(";
        i++;
        continue;
      }
      const flagged = /^\(\?\^([a-z]*):/.exec(src.slice(i));
      if (flagged) {
        const flags = flagged[1] as string;
        if (flags !== "" && flags !== "i") throw new PerlRegexError(`unsupported flags (?^${flags}:) in ${src}`);
        stack.push({ caseInsensitive: flags === "i" });
        out += "(?:";
        i += flagged[0].length;
        continue;
      }
      if (src.startsWith("(?>", i)) {
        const name = `atomic${atomicCount++}`;
        stack.push({ caseInsensitive: ci, atomicName: name });
        out += `(?:(?=(?<${name}>`;
        i += 3;
        continue;
      }
      const look = /^\(\?(?::|=|!|<=|<!)/.exec(src.slice(i));
      if (look) {
        stack.push({ caseInsensitive: ci });
        out += look[0];
        i += look[0].length;
        continue;
      }
      throw new PerlRegexError(`unsupported group syntax at ${src.slice(i, i + 6)} in ${src}`);
    }
    if (ch === ")") {
      if (stack.length === 1) throw new PerlRegexError(`unbalanced ) in ${src}`);
      const frame = stack.pop() as GroupFrame;
      out += frame.atomicName ? `))\\k<${frame.atomicName}>)` : ")";
      i++;
      continue;
    }
    if (ch === "{") {
      const bound = /^\{,(\d+)\}/.exec(src.slice(i));
      if (bound) {
        out += `{0,${bound[1]}}`;
        i += bound[0].length;
        continue;
      }
    }
    if (ci && LETTER.test(ch)) {
      out += `[${ch}${otherCase(ch)}]`;
      i++;
      continue;
    }
    out += ch;
    i++;
  }
  if (stack.length !== 1) throw new PerlRegexError(`unbalanced ( in ${src}`);
  // Proves the result is a valid JavaScript regular expression.
  new RegExp(out);
  return out;
}
