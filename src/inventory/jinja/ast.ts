// The expression tree the parser builds and the evaluator walks. `pos` is the offset of the
// node's first token, for messages.

export interface Args {
  positional: Expr[];
  named: Record<string, Expr>;
}

export type Expr = { pos: number } & (
  | { type: "const"; value: unknown }
  | { type: "name"; name: string }
  | { type: "getattr"; target: Expr; attr: string }
  | { type: "getitem"; target: Expr; index: Expr }
  | { type: "list"; items: Expr[]; tuple: boolean }
  | { type: "dict"; entries: Array<[Expr, Expr]> }
  | { type: "filter"; target: Expr; name: string; args: Args }
  | { type: "test"; target: Expr; name: string; args: Args; negated: boolean }
  | { type: "lookup"; name: string; args: Args }
  | { type: "not"; operand: Expr }
  | { type: "neg"; operand: Expr }
  | { type: "and" | "or"; left: Expr; right: Expr }
  | { type: "compare"; first: Expr; ops: Array<{ op: string; operand: Expr }> }
  | { type: "concat"; parts: Expr[] }
  | { type: "cond"; test: Expr; whenTrue: Expr; otherwise?: Expr }
);
