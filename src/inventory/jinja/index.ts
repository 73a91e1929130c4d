// The Jinja subset pvectl evaluates in inventory configurations (compose, groups,
// keyed_groups, filters, and templated connection settings). See docs/inventory.md.
export { ExpressionError, SUPPORTED } from "./errors.js";
export { type EvalContext, evaluate } from "./evaluate.js";
export { parseExpression } from "./parser.js";
export { ansibleFinalize, isTemplate, parseBareExpression, parseTemplate, renderTemplate, type Template } from "./template.js";
export { HostEvalError, pyStr, truthy, Undefined } from "./values.js";
