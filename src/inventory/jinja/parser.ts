// A recursive-descent parser for the Jinja expression subset, following Jinja's own grammar
// and precedence (conditional < or < and < not < comparison < ~ < unary/filters/tests <
// postfix), so that an expression means here what it means in Ansible. Anything outside the
// subset is refused with its position rather than guessed at.
import type { Args, Expr } from "./ast.js";
import { ExpressionError } from "./errors.js";
import { FILTERS, TESTS } from "./filters.js";
import { type Token, tokenize } from "./lexer.js";
import { tuple } from "./values.js";

const CONSTANTS: Record<string, unknown> = { true: true, True: true, false: false, False: false, none: null, None: null };
/** Python's literals, and the JSON names Ansible maps to them before literal_eval. */
const PYTHON_CONSTANTS: Record<string, unknown> = { True: true, true: true, False: false, false: false, None: null, null: null };
const COMPARE = new Set(["==", "!=", "<", "<=", ">", ">="]);
const ARITHMETIC = new Set(["+", "-", "*", "/", "//", "%", "**"]);
const LOOKUP_FUNCTIONS = new Set(["lookup"]);
const ENV_LOOKUPS = new Set(["env", "ansible.builtin.env"]);

class Parser {
  private i = 0;
  private readonly tokens: Token[];

  private readonly constants: Record<string, unknown>;

  constructor(
    private readonly source: string,
    python: boolean,
  ) {
    this.tokens = tokenize(source, python);
    this.constants = python ? PYTHON_CONSTANTS : CONSTANTS;
  }

  fail(pos: number, problem: string): never {
    throw new ExpressionError(this.source, pos, problem);
  }

  private get tok(): Token {
    return this.tokens[this.i]!;
  }

  private next(): Token {
    return this.tokens[this.i++]!;
  }

  private isOp(text: string): boolean {
    return this.tok.kind === "op" && this.tok.text === text;
  }

  private isName(text: string): boolean {
    return this.tok.kind === "name" && this.tok.text === text;
  }

  private expectOp(text: string): Token {
    if (!this.isOp(text)) this.fail(this.tok.pos, `expected '${text}' but found ${this.describe(this.tok)}`);
    return this.next();
  }

  private describe(t: Token): string {
    return t.kind === "end" ? "the end of the expression" : `'${t.kind === "string" ? t.text : t.text}'`;
  }

  parseAll(): Expr {
    if (this.tok.kind === "end") this.fail(0, "the expression is empty");
    const expr = this.expression();
    const t = this.tokens[this.i]!;
    if (t.kind !== "end") {
      if (t.kind === "op" && ARITHMETIC.has(t.text)) this.fail(t.pos, `arithmetic ('${t.text}') is not supported; use ~ to join strings`);
      this.fail(t.pos, `unexpected ${this.describe(t)}`);
    }
    return expr;
  }

  expression(): Expr {
    let expr = this.or();
    while (this.isName("if")) {
      const pos = this.next().pos;
      const test = this.or();
      let otherwise: Expr | undefined;
      if (this.isName("else")) {
        this.next();
        otherwise = this.expression();
      }
      expr = { type: "cond", pos, test, whenTrue: expr, ...(otherwise ? { otherwise } : {}) };
    }
    return expr;
  }

  private or(): Expr {
    let left = this.and();
    while (this.isName("or")) {
      const pos = this.next().pos;
      left = { type: "or", pos, left, right: this.and() };
    }
    return left;
  }

  private and(): Expr {
    let left = this.not();
    while (this.isName("and")) {
      const pos = this.next().pos;
      left = { type: "and", pos, left, right: this.not() };
    }
    return left;
  }

  private not(): Expr {
    if (this.isName("not")) {
      const pos = this.next().pos;
      return { type: "not", pos, operand: this.not() };
    }
    return this.compare();
  }

  private compare(): Expr {
    const first = this.concat();
    const ops: Array<{ op: string; operand: Expr }> = [];
    for (;;) {
      if (this.tok.kind === "op" && COMPARE.has(this.tok.text)) ops.push({ op: this.next().text, operand: this.concat() });
      else if (this.isName("in")) {
        this.next();
        ops.push({ op: "in", operand: this.concat() });
      } else if (this.isName("not") && this.tokens[this.i + 1]?.kind === "name" && this.tokens[this.i + 1]?.text === "in") {
        this.i += 2;
        ops.push({ op: "notin", operand: this.concat() });
      } else break;
    }
    return ops.length === 0 ? first : { type: "compare", pos: first.pos, first, ops };
  }

  private concat(): Expr {
    const parts = [this.unary()];
    while (this.isOp("~")) {
      this.next();
      parts.push(this.unary());
    }
    return parts.length === 1 ? parts[0]! : { type: "concat", pos: parts[0]!.pos, parts };
  }

  private unary(withFilters = true): Expr {
    let node: Expr;
    if (this.isOp("-")) {
      const pos = this.next().pos;
      node = { type: "neg", pos, operand: this.unary(false) };
    } else if (this.isOp("+")) {
      this.next();
      node = this.unary(false);
    } else node = this.postfix(this.primary());
    return withFilters ? this.filtersAndTests(node) : node;
  }

  private primary(): Expr {
    const t = this.next();
    if (t.kind === "name") {
      if (Object.hasOwn(this.constants, t.text)) return { type: "const", pos: t.pos, value: this.constants[t.text] };
      if (this.isOp("(")) return this.call(t);
      return { type: "name", pos: t.pos, name: t.text };
    }
    if (t.kind === "string") {
      let text = t.text;
      while (this.tok.kind === "string") text += this.next().text; // adjacent literals join, as in Python
      return { type: "const", pos: t.pos, value: text };
    }
    if (t.kind === "int" || t.kind === "float") return { type: "const", pos: t.pos, value: t.value };
    if (t.kind === "op" && t.text === "(") return this.parenthesised(t.pos);
    if (t.kind === "op" && t.text === "[") return { type: "list", pos: t.pos, items: this.sequence("]"), tuple: false };
    if (t.kind === "op" && t.text === "{") return this.dict(t.pos);
    return this.fail(t.pos, `unexpected ${this.describe(t)}`);
  }

  private parenthesised(pos: number): Expr {
    if (this.isOp(")")) {
      this.next();
      return { type: "const", pos, value: tuple([]) };
    }
    const first = this.expression();
    if (this.isOp(")")) {
      this.next();
      return first;
    }
    this.expectOp(",");
    const items = [first, ...this.sequence(")")];
    return { type: "list", pos, items, tuple: true };
  }

  /** Comma-separated expressions up to `close` (a trailing comma allowed). */
  private sequence(close: string): Expr[] {
    const items: Expr[] = [];
    while (!this.isOp(close)) {
      items.push(this.expression());
      if (!this.isOp(close)) this.expectOp(",");
    }
    this.next();
    return items;
  }

  private dict(pos: number): Expr {
    const entries: Array<[Expr, Expr]> = [];
    while (!this.isOp("}")) {
      const key = this.expression();
      this.expectOp(":");
      entries.push([key, this.expression()]);
      if (!this.isOp("}")) this.expectOp(",");
    }
    this.next();
    return { type: "dict", pos, entries };
  }

  private call(name: Token): Expr {
    if (!LOOKUP_FUNCTIONS.has(name.text)) {
      const what =
        name.text === "query" || name.text === "q" ? `${name.text}() (a lookup returning a list)` : `the function ${name.text}()`;
      this.fail(name.pos, `${what} is not supported; only lookup('env', NAME) is`);
    }
    this.next();
    const args = this.arguments();
    const plugin = args.positional[0];
    if (plugin?.type !== "const" || typeof plugin.value !== "string") {
      this.fail(name.pos, "lookup() needs the lookup's name as a string first, e.g. lookup('env', 'HOME')");
    }
    if (!ENV_LOOKUPS.has(plugin.value)) this.fail(plugin.pos, `lookup('${plugin.value}') is not supported; only lookup('env', NAME) is`);
    return { type: "lookup", pos: name.pos, name: plugin.value, args: { positional: args.positional.slice(1), named: args.named } };
  }

  /** `(a, b, key=c)` after the opening parenthesis. */
  private arguments(): Args {
    const args: Args = { positional: [], named: {} };
    while (!this.isOp(")")) {
      if (this.tok.kind === "name" && this.tokens[this.i + 1]?.kind === "op" && this.tokens[this.i + 1]?.text === "=") {
        const key = this.next().text;
        this.next();
        args.named[key] = this.expression();
      } else {
        if (Object.keys(args.named).length > 0) this.fail(this.tok.pos, "a positional argument follows a keyword argument");
        args.positional.push(this.expression());
      }
      if (!this.isOp(")")) this.expectOp(",");
    }
    this.next();
    return args;
  }

  private postfix(node: Expr): Expr {
    for (;;) {
      if (this.isOp(".")) {
        this.next();
        const t = this.next();
        if (t.kind === "name") node = { type: "getattr", pos: node.pos, target: node, attr: t.text };
        else if (t.kind === "int")
          node = { type: "getitem", pos: node.pos, target: node, index: { type: "const", pos: t.pos, value: t.value } };
        else this.fail(t.pos, `expected a name after '.' but found ${this.describe(t)}`);
        if (this.isOp("(")) this.fail(this.tok.pos, "method calls are not supported; use a filter (e.g. x | lower instead of x.lower())");
      } else if (this.isOp("[")) {
        const open = this.next().pos;
        if (this.isOp(":")) this.fail(this.tok.pos, "slices (a[1:2]) are not supported");
        const index = this.expression();
        if (this.isOp(":")) this.fail(this.tok.pos, "slices (a[1:2]) are not supported");
        this.expectOp("]");
        node = { type: "getitem", pos: open, target: node, index };
      } else if (this.isOp("(")) {
        this.fail(this.tok.pos, "calling a value is not supported");
      } else return node;
    }
  }

  private filtersAndTests(node: Expr): Expr {
    for (;;) {
      if (this.isOp("|")) {
        this.next();
        const t = this.next();
        if (t.kind !== "name") this.fail(t.pos, `expected a filter name after '|' but found ${this.describe(t)}`);
        const name = this.dottedName(t.text);
        if (!(name in FILTERS)) this.fail(t.pos, `the filter '${name}' is not supported`);
        const args = this.optionalArguments();
        node = { type: "filter", pos: node.pos, target: node, name, args };
      } else if (this.isName("is")) {
        this.next();
        const negated = this.isName("not");
        if (negated) this.next();
        const t = this.next();
        if (t.kind !== "name") this.fail(t.pos, `expected a test name after 'is' but found ${this.describe(t)}`);
        if (!(t.text in TESTS)) this.fail(t.pos, `the test '${t.text}' is not supported`);
        const args = this.optionalArguments();
        if (this.startsBareTestArgument())
          this.fail(
            this.tok.pos,
            `Jinja reads ${this.describe(this.tok)} as an argument of the test '${t.text}', which takes none; put the test in parentheses`,
          );
        node = { type: "test", pos: node.pos, target: node, name: t.text, args, negated };
        if (this.isName("is")) this.fail(this.tok.pos, "tests cannot be chained (x is a is b); combine them with and");
      } else return node;
    }
  }

  /** Jinja's `x is divisibleby 3`: a test name followed by one of these takes it as its argument. */
  private startsBareTestArgument(): boolean {
    const t = this.tok;
    if (t.kind === "name") return !["else", "or", "and"].includes(t.text);
    return t.kind === "string" || t.kind === "int" || t.kind === "float" || (t.kind === "op" && "([{".includes(t.text));
  }

  /** A filter's or test's arguments, when it has parentheses. */
  private optionalArguments(): Args {
    if (!this.isOp("(")) return { positional: [], named: {} };
    this.next();
    return this.arguments();
  }

  /** `ansible.builtin.regex_replace` names the same filter as `regex_replace`. */
  private dottedName(first: string): string {
    let name = first;
    while (this.isOp(".") && this.tokens[this.i + 1]?.kind === "name") {
      this.next();
      name = this.next().text;
    }
    return name;
  }
}

/** Parses one expression (the text between `{{` and `}}`), or throws an ExpressionError. */
export function parseExpression(source: string): Expr {
  return new Parser(source, false).parseAll();
}

/** Parses Python literal syntax (strings with escapes), for reading back a repr() as Ansible does. */
export function parsePythonLiteral(source: string): Expr {
  return new Parser(source, true).parseAll();
}
