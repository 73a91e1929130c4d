// Scalars for the fast YAML path (reader.ts): which plain words mean null, a boolean or a
// number under YAML 1.2's core schema (the schema the `yaml` library applies to specs), and the
// quoted forms that fit on one line. Anything with a second reading (signed, octal, hex or
// floating-point numbers, escapes) is not decided here: the caller gives the file to the library.

/** Thrown when text is outside the fast path's subset; the library then reads the whole file. */
export const OUTSIDE_SUBSET: unique symbol = Symbol("outside the fast YAML subset");

export function outside(): never {
  throw OUTSIDE_SUBSET;
}

// The core schema's tests (yaml's schema/core and schema/common), as facts.
const NULL_WORD = /^(?:~|[Nn]ull|NULL)$/;
const BOOL_WORD = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const OTHER_NUMBER = [
  /^0o[0-7]+$/,
  /^[-+]?[0-9]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
];

/** `^[0-9]+$` without a regular expression: most of a spec's numbers and sizes pass this test. */
function isDecimal(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** A plain scalar's value; unsigned decimals are the only numbers decided here. */
export function resolvePlain(text: string): unknown {
  // Each test can only match words starting with certain characters (see the patterns above):
  // a key like `name` or `node` is tested for null only, `disks` for nothing.
  switch (text[0]) {
    case "~":
    case "n":
    case "N":
      return NULL_WORD.test(text) ? null : text;
    case "t":
    case "T":
    case "f":
    case "F":
      return BOOL_WORD.test(text) ? text[0] === "t" || text[0] === "T" : text;
    case "+":
    case "-":
    case ".":
      if (OTHER_NUMBER.some((re) => re.test(text))) outside();
      return text;
    default: {
      // Not a digit (or empty): a string.
      const first = text.charCodeAt(0);
      if (!(first >= 0x30 && first <= 0x39)) return text;
      if (isDecimal(text)) return Number.parseInt(text, 10);
      if (OTHER_NUMBER.some((re) => re.test(text))) outside();
      return text;
    }
  }
}

/** Characters that make a plain scalar mean something else when they start it. */
const INDICATORS = "-?:,[]{}#&*!|>'\"%@`";
/** The same, by character code (all are ASCII): a lookup per scalar and key. */
const IS_INDICATOR = new Uint8Array(128);
for (const c of INDICATORS) IS_INDICATOR[c.charCodeAt(0)] = 1;

export function startsWithIndicator(text: string, at: number): boolean {
  return IS_INDICATOR[text.charCodeAt(at)] === 1;
}

/** A quoted scalar on one line starting at `at`: its value and the offset after the closing quote. */
export function readQuoted(text: string, at: number): { value: string; end: number } {
  const quote = text[at];
  const lineEnd = endOfLine(text, at);
  if (quote === '"') {
    const close = text.indexOf('"', at + 1);
    if (close < 0 || close > lineEnd) outside();
    const value = text.slice(at + 1, close);
    if (value.includes("\\")) outside();
    return { value, end: close + 1 };
  }
  let i = at + 1;
  for (;;) {
    const close = text.indexOf("'", i);
    if (close < 0 || close > lineEnd) outside();
    if (text[close + 1] !== "'") return { value: text.slice(at + 1, close).replaceAll("''", "'"), end: close + 1 };
    i = close + 2;
  }
}

export function endOfLine(text: string, at: number): number {
  const end = text.indexOf("\n", at);
  return end < 0 ? text.length : end;
}
