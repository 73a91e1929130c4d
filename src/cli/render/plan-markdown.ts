// A plan as Markdown, for review: `pvectl plan --format markdown` posted as a pull-request
// comment. A compact table of guests (marker, name, vmid, node, steps, highest severity), the
// summary, then one collapsible <details> per guest with its steps, field changes, destroyed
// volumes, warnings and errors. Every value from the plan goes through markdown-escape.ts.
import { type GuestPlan, type Plan, SEVERITIES, type Severity, type Step, severityRank } from "../../app/plan-model.js";
import { mdCode, mdText } from "./markdown-escape.js";
import { guestMarker, hostAccessLine, summaryLine } from "./plan.js";
import { idleText, objectMarker } from "./plan-objects.js";
import type { ObjectPlan } from "../../app/plan-model.js";

function objectRow(object: ObjectPlan): string {
  const top = object.steps.reduce<Severity | undefined>(
    (t, s) => (t === undefined || severityRank(s.severity) > severityRank(t) ? s.severity : t),
    undefined,
  );
  const status = object.errors.length > 0 ? `${object.errors.length} error(s)` : top ? severityCell(top) : idleText(object);
  return `| ${objectMarker(object)} | ${object.kind} | ${mdCode(object.key)} | ${object.steps.length} | ${mdText(status)} |`;
}

function objectDetails(object: ObjectPlan): string[] {
  const lines = [`<details><summary>${objectMarker(object)} ${object.kind} ${mdCode(object.key)}</summary>`, ""];
  for (const error of object.errors) lines.push(`- error: ${mdText(error)}`);
  for (const step of object.steps) lines.push(`- ${mdText(step.summary)} — ${severityCell(step.severity)}`, ...changeLines(step));
  for (const warning of object.warnings) lines.push(`- warning: ${mdText(warning)}`);
  lines.push("", "</details>");
  return lines;
}

function severityCell(severity: Severity): string {
  return severity === "data-loss-risk" || severity === "host-access" ? `**${severity}**` : severity;
}

function highest(guest: GuestPlan): Severity | undefined {
  let top: Severity | undefined;
  for (const step of guest.steps) if (top === undefined || severityRank(step.severity) > severityRank(top)) top = step.severity;
  return top;
}

function guestRow(guest: GuestPlan): string {
  const top = highest(guest);
  const status =
    guest.errors.length > 0 ? `${guest.errors.length} error(s)` : top ? severityCell(top) : guest.exists ? "no changes" : "absent";
  return `| ${guestMarker(guest)} | ${mdCode(guest.key)} | ${guest.vmid ?? "new"} | ${mdCode(guest.node)} | ${guest.steps.length} | ${status} |`;
}

function changeLines(step: Step): string[] {
  if (step.action === "destroy") return [];
  return step.changes.map((change) => {
    const before = change.before === undefined ? "(unset)" : mdCode(change.before);
    const after = change.after === undefined ? "(removed)" : mdCode(change.after);
    return `  - ${mdCode(change.field)}: ${before} → ${after}`;
  });
}

function guestDetails(guest: GuestPlan): string[] {
  const id = guest.vmid !== undefined ? `vmid ${guest.vmid}` : "new vmid";
  const lines = [`<details><summary>${guestMarker(guest)} ${mdCode(guest.key)} (${id}) on ${mdCode(guest.node)}</summary>`, ""];
  for (const error of guest.errors) lines.push(`- error: ${mdText(error)}`);
  for (const step of guest.steps) {
    lines.push(`- ${mdText(step.summary)} — ${severityCell(step.severity)}`, ...changeLines(step));
    for (const volume of step.deletesVolumes ?? []) lines.push(`  - destroys volume ${mdCode(volume)}`);
    if (step.hostAccess) lines.push(`  - **${mdText(hostAccessLine(step.hostAccess))}**`);
  }
  for (const warning of guest.warnings) lines.push(`- warning: ${mdText(warning)}`);
  lines.push("", "</details>");
  return lines;
}

export function renderPlanMarkdown(plan: Plan): string {
  const lines = [`### pvectl plan for ${mdCode(plan.target)}`, ""];
  if (plan.guests.length > 0) {
    lines.push("| | guest | vmid | node | steps | highest severity |", "|---|---|---|---|---|---|", ...plan.guests.map(guestRow), "");
  }
  const objects = plan.objects ?? [];
  if (objects.length > 0) {
    lines.push("| | object | id | steps | highest severity |", "|---|---|---|---|---|", ...objects.map(objectRow), "");
  }
  lines.push(
    ...summaryLine(plan)
      .split("\n")
      .map((line) => `${mdText(line)}  `),
    "",
  );
  if (plan.preflightErrors.length > 0) {
    lines.push(`**Preflight found ${plan.preflightErrors.length} problem(s); nothing will run until they are fixed:**`, "");
    for (const problem of plan.preflightErrors)
      lines.push(`- ${mdText(problem.message)}${problem.guest ? ` (${mdCode(problem.guest)})` : ""}`);
    lines.push("");
  }
  for (const guest of plan.guests.filter((g) => g.steps.length > 0 || g.errors.length > 0 || g.warnings.length > 0)) {
    lines.push(...guestDetails(guest), "");
  }
  for (const object of objects.filter((o) => o.steps.length > 0 || o.errors.length > 0 || o.warnings.length > 0))
    lines.push(...objectDetails(object), "");
  lines.push(`<sub>Severities: ${SEVERITIES.join(" < ")}. Made ${mdText(plan.createdAt)}.</sub>`);
  return `${lines.join("\n")}\n`;
}
