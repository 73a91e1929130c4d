// `plan --format text|markdown|json`; `--json` is `--format json` (kept for scripts).
import { UsageError } from "./plan.js";

export const PLAN_FORMATS = ["text", "markdown", "json"] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

export function planFormat(flags: { json?: boolean; format?: string }): PlanFormat {
  const format = flags.format ?? (flags.json ? "json" : "text");
  if (!(PLAN_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format ${format} is not a plan format`, `use --format ${PLAN_FORMATS.join(", --format ")}`);
  }
  if (flags.json && format !== "json")
    throw new UsageError(`--json and --format ${format} contradict each other`, "--json is --format json; give one of them");
  return format as PlanFormat;
}
