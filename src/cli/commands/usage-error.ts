// The CLI's usage error, in a module of its own: commands that only need it (validate) must
// not load plan.ts, which brings the API client, the engine and undici with it.
import { UsageProblem } from "../../util/errors.js";

export class UsageError extends UsageProblem {
  override name = "UsageError";
}
