// The objects section of a plan for people (backup jobs ...), under the guests: one line per
// object with its marker, its steps and field changes; foreign objects listed as "not managed".
// Each family names its objects (resources/<family>/family.ts, through the registry).
import { foreignText, objectNoun } from "../../app/object-names.js";
import type { ObjectPlan, Plan, Step } from "../../app/plan-model.js";
import { safeLine, safeText } from "../../util/safe-text.js";
import { type Palette, colourSeverity } from "./plan.js";

export function objectMarker(object: ObjectPlan): "+" | "-" | "~" | "=" | "!" {
  if (object.errors.length > 0) return "!";
  if (object.steps.length === 0) return "=";
  if (object.steps.some((s) => s.action === "object-create")) return "+";
  if (object.steps.some((s) => s.action === "object-delete")) return "-";
  return "~";
}

export function objectTitle(object: ObjectPlan): string {
  return safeLine(`${objectNoun(object.kind)} ${object.key}`);
}

/** What an object without steps is: in line with the spec, or someone else's. */
export function idleText(object: ObjectPlan): string {
  if (!object.foreign) return "no changes";
  return foreignText(object.kind) ?? "not managed (no pvectl marker in its comment; left alone)";
}

function stepLines(p: Palette, step: Step): string[] {
  const lines = [`    ${safeLine(step.summary)}  ${p.dim("[")}${colourSeverity(p, step.severity)}${p.dim("]")}`];
  for (const change of step.changes) {
    const field = safeLine(change.field);
    if (change.before === undefined) lines.push(`        ${field}: ${safeLine(change.after ?? "")}`);
    else if (change.after === undefined) lines.push(`        ${field}: ${p.red(safeLine(change.before))} ${p.dim("(removed)")}`);
    else lines.push(`        ${field}: ${safeLine(change.before)} ${p.dim("->")} ${safeLine(change.after)}`);
  }
  return lines;
}

export function renderObjects(plan: Plan, p: Palette): string[] {
  const lines: string[] = [];
  for (const object of plan.objects ?? []) {
    const marker = objectMarker(object);
    if (marker === "=") lines.push(p.dim(`= ${objectTitle(object)}: ${idleText(object)}`));
    else
      lines.push(`${marker === "+" ? p.green(marker) : marker === "~" ? p.yellow(marker) : p.red(marker)} ${p.bold(objectTitle(object))}`);
    for (const error of object.errors) lines.push(`    ${p.red(`error: ${safeText(error)}`)}`);
    for (const step of object.steps) lines.push(...stepLines(p, step));
    for (const warning of object.warnings) lines.push(`    ${p.yellow(`warning: ${safeText(warning)}`)}`);
  }
  return lines;
}

/** `Objects: 1 to create, ...` for the summary, or undefined without objects. */
export function objectSummary(plan: Plan): string | undefined {
  const objects = plan.objects ?? [];
  if (objects.length === 0) return undefined;
  const count = (m: string) => objects.filter((o) => objectMarker(o) === m).length;
  const foreign = objects.filter((o) => o.foreign).length;
  const errors = count("!");
  return (
    `Objects: ${count("+")} to create, ${count("~")} to change, ${count("-")} to delete, ${count("=") - foreign} unchanged` +
    (foreign ? `, ${foreign} not managed` : "") +
    (errors ? `, ${errors} with errors` : "") +
    "."
  );
}
