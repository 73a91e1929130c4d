// Splits a Jinja expression into tokens, with each token's offset for error messages.
import { ExpressionError } from "./errors.js";

export type TokenKind = "name" | "string" | "int" | "float" | "op" | "end";

export interface Token {
  kind: TokenKind;
  /** The name or operator text; the decoded text of a string literal. */
  text: string;
  value?: number;
  pos: number;
  /** Where a string literal ends (after its closing quote). */
  end?: number;
}

const OPERATORS = [
  "//",
  "**",
  "==",
  "!=",
  "<=",
  ">=",
  ".",
  "[",
  "]",
  "(",
  ")",
  "{",
  "}",
  ",",
  ":",
  "|",
  "~",
  "<",
  ">",
  "+",
  "-",
  "*",
  "/",
  "%",
  "=",
];
const FLOAT = /\d+(?:_\d+)*(?:\.\d+(?:_\d+)*(?:[eE][+-]?\d+(?:_\d+)*)?|[eE][+-]?\d+(?:_\d+)*)/y;
const INT = /(?:0[bB][01_]+|0[oO][0-7_]+|0[xX][0-9a-fA-F_]+|\d+(?:_\d+)*)/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

function sticky(re: RegExp, text: string, pos: number): string | undefined {
  re.lastIndex = pos;
  const m = re.exec(text);
  return m ? m[0] : undefined;
}

/**
 * A string literal's text is taken as written: Ansible doubles every backslash inside `{{ }}`
 * strings before Jinja decodes them (Templar's escape_backslashes), so `'\1'` reaches
 * regex_replace as backslash-one and `\'` cannot escape a quote (the string ends there).
 */
function readString(text: string, pos: number, expression: string): Token {
  const close = text.indexOf(text[pos]!, pos + 1);
  if (close < 0) throw new ExpressionError(expression, pos, "a string is not closed");
  return { kind: "string", text: text.slice(pos + 1, close).replace(/\r\n?/g, "\n"), pos, end: close + 1 };
}

const PY_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "\n": "",
};

/** A Python string literal with its escapes decoded (what Ansible's literal_eval of a repr() reads). */
function readPythonString(text: string, pos: number, expression: string): Token {
  const quote = text[pos];
  let out = "";
  let i = pos + 1;
  for (; i < text.length && text[i] !== quote; i++) {
    if (text[i] !== "\\") {
      out += text[i];
      continue;
    }
    const esc = /^(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|[\s\S])/.exec(text.slice(i + 1))?.[0] ?? "";
    if (esc in PY_ESCAPES) out += PY_ESCAPES[esc];
    else if (/^[xuU]./.test(esc)) out += String.fromCodePoint(Number.parseInt(esc.slice(1), 16));
    else if (/^[0-7]+$/.test(esc)) out += String.fromCodePoint(Number.parseInt(esc, 8));
    else out += `\\${esc}`;
    i += esc.length;
  }
  if (i >= text.length) throw new ExpressionError(expression, pos, "a string is not closed");
  return { kind: "string", text: out, pos, end: i + 1 };
}

function readNumber(text: string, pos: number): Token | undefined {
  const float = sticky(FLOAT, text, pos);
  if (float) return { kind: "float", text: float, value: Number(float.replace(/_/g, "")), pos };
  const int = sticky(INT, text, pos);
  if (!int) return undefined;
  const clean = int.replace(/_/g, "");
  const radix = /^0[bB]/.test(clean) ? 2 : /^0[oO]/.test(clean) ? 8 : /^0[xX]/.test(clean) ? 16 : 10;
  return { kind: "int", text: int, value: Number.parseInt(radix === 10 ? clean : clean.slice(2), radix), pos };
}

/** `pythonStrings`: decode backslash escapes in strings, as Python's literal_eval does (Jinja in Ansible does not). */
export function tokenize(expression: string, pythonStrings = false): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < expression.length) {
    const ch = expression[pos]!;
    if (/\s/.test(ch)) {
      pos++;
      continue;
    }
    let token: Token | undefined;
    if (ch === "'" || ch === '"') token = (pythonStrings ? readPythonString : readString)(expression, pos, expression);
    else if (/\d/.test(ch)) token = readNumber(expression, pos);
    else if (/[A-Za-z_]/.test(ch)) token = { kind: "name", text: sticky(NAME, expression, pos)!, pos };
    else {
      const op = OPERATORS.find((o) => expression.startsWith(o, pos));
      if (op) token = { kind: "op", text: op, pos };
    }
    if (!token) throw new ExpressionError(expression, pos, `unexpected character '${ch}'`);
    tokens.push(token);
    pos = token.end ?? pos + token.text.length;
  }
  tokens.push({ kind: "end", text: "", pos: expression.length });
  return tokens;
}
