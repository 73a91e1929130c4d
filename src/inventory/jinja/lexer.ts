// Splits a Jinja expression into tokens, with each token's offset for error messages.
import { ExpressionError } from "./errors.js";

export type TokenKind = "name" | "string" | "int" | "float" | "op" | "end";

export interface Token {
  kind: TokenKind;
  /** The name or operator text; the decoded text of a string literal. */
  text: string;
  value?: number;
  pos: number;
}

const OPERATORS = ["//", "**", "==", "!=", "<=", ">=", ".", "[", "]", "(", ")", "{", "}", ",", ":", "|", "~", "<", ">", "+", "-", "*", "/", "%", "="];
const FLOAT = /\d+(?:_\d+)*(?:\.\d+(?:_\d+)*(?:[eE][+-]?\d+(?:_\d+)*)?|[eE][+-]?\d+(?:_\d+)*)/y;
const INT = /(?:0[bB][01_]+|0[oO][0-7_]+|0[xX][0-9a-fA-F_]+|\d+(?:_\d+)*)/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"', "\n": "" };

/** Python's unicode-escape decoding, as Jinja applies to string literals; unknown escapes stay as written. */
function decodeEscapes(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|[\s\S])/g, (whole, esc: string) => {
    if (esc in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[esc]!;
    if (/^[xuU]/.test(esc) && esc.length > 1) return String.fromCodePoint(Number.parseInt(esc.slice(1), 16));
    if (/^[0-7]+$/.test(esc)) return String.fromCodePoint(Number.parseInt(esc, 8));
    return whole;
  });
}

function sticky(re: RegExp, text: string, pos: number): string | undefined {
  re.lastIndex = pos;
  const m = re.exec(text);
  return m ? m[0] : undefined;
}

function readString(text: string, pos: number, expression: string): Token {
  const quote = text[pos];
  let i = pos + 1;
  while (i < text.length && text[i] !== quote) i += text[i] === "\\" ? 2 : 1;
  if (i >= text.length) throw new ExpressionError(expression, pos, "a string is not closed");
  return { kind: "string", text: decodeEscapes(text.slice(pos + 1, i).replace(/\r\n?/g, "\n")), pos };
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

export function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < expression.length) {
    const ch = expression[pos]!;
    if (/\s/.test(ch)) {
      pos++;
      continue;
    }
    let token: Token | undefined;
    if (ch === "'" || ch === '"') token = readString(expression, pos, expression);
    else if (/\d/.test(ch)) token = readNumber(expression, pos);
    else if (/[A-Za-z_]/.test(ch)) token = { kind: "name", text: sticky(NAME, expression, pos)!, pos };
    else {
      const op = OPERATORS.find((o) => expression.startsWith(o, pos));
      if (op) token = { kind: "op", text: op, pos };
    }
    if (!token) throw new ExpressionError(expression, pos, `unexpected character '${ch}'`);
    tokens.push(token);
    pos = token.kind === "string" ? skipString(expression, pos) : pos + token.text.length;
  }
  tokens.push({ kind: "end", text: "", pos: expression.length });
  return tokens;
}

function skipString(text: string, pos: number): number {
  const quote = text[pos];
  let i = pos + 1;
  while (text[i] !== quote) i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}
