// An expression pvectl cannot evaluate at all (bad syntax, or Jinja beyond the supported
// subset): always an error, found when the configuration is read, naming the expression, the
// column and what is supported. Errors while evaluating for one host are HostEvalError (values.ts).
import { InventoryError } from "../errors.js";

export const SUPPORTED =
  "supported: variables (a.b, a['b'], a[0]), literals, filters default/d, lower, upper, regex_replace, join, first, last, length/count, string, int, list, " +
  "comparisons, in / not in, and / or / not, is [not] defined / undefined / none, ~, `x if c else y`, lookup('env', NAME)";

export class ExpressionError extends InventoryError {
  constructor(
    readonly expression: string,
    readonly position: number,
    readonly problem: string,
    /** Where the expression is written (e.g. `compose.ansible_host`), when known. */
    readonly where?: string,
  ) {
    super(`${where ? `${where}: ` : ""}cannot evaluate '${expression}': ${problem} at column ${position + 1}`, SUPPORTED);
    this.name = "ExpressionError";
  }
}
