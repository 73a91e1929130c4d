// The CLI's usage error is the use cases' own (app/usage-error.ts): one class, whichever layer
// refuses the input.
export { UsageError } from "../../app/usage-error.js";
