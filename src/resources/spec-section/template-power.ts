// `template: true` and `power:` on one spec entry (VM or container): PVE never starts a
// template (qemu-server and pve-container refuse `status/start` on one), so asking for both
// is a contradiction the loader reports rather than a plan that could never converge.
import type { SpecPath } from "./issues.js";
import type { IssueSink } from "./issues.js";

export function checkTemplatePower(raw: { template?: boolean; power?: string }, path: SpecPath, sink: IssueSink): void {
  if (raw.template === true && raw.power === "running") {
    sink.add(
      [...path, "power"],
      "`power: running` with `template: true`: PVE never starts a template; drop `power` (a template is always stopped)",
      "key",
    );
  }
}
