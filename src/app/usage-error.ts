// Input a use case refuses before it reads or changes anything (no spec file, two connections
// where one is needed, a flag's value out of range), with what to give instead. In a module of
// its own: commands that only need it (validate) must not load the API client and the engine.
import { UsageProblem } from "../util/errors.js";

export class UsageError extends UsageProblem {
  override name = "UsageError";
}
