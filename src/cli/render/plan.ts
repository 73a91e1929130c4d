// A plan for people: grouped by guest, Terraform-like markers (+ create, ~ change, - destroy),
// each step with its severity, the fields before -> after, the volumes a step destroys, and a
// summary by severity, under the API endpoint it is for. Colour only when the output is a terminal.
import pc from "picocolors";
import { type GuestPlan, type Plan, SEVERITIES, type Severity, type Step, severityCounts } from "../../app/plan-model.js";
import { safeLine, safeText } from "../../util/safe-text.js";
import { objectSummary, renderObjects } from "./plan-objects.js";

export interface Palette {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

export const plainPalette: Palette = { red: (s) => s, green: (s) => s, yellow: (s) => s, cyan: (s) => s, dim: (s) => s, bold: (s) => s };
export const colourPalette: Palette = { red: pc.red, green: pc.green, yellow: pc.yellow, cyan: pc.cyan, dim: pc.dim, bold: pc.bold };

export function paletteFor(stream: NodeJS.WriteStream): Palette {
  return stream.isTTY && !process.env.NO_COLOR ? colourPalette : plainPalette;
}

export function colourSeverity(p: Palette, severity: Severity): string {
  switch (severity) {
    case "read-only":
      return p.dim(severity);
    case "configuration":
      return p.green(severity);
    case "host-access":
      return p.red(severity);
    case "secret-reset":
    case "service-impact":
      return p.yellow(severity);
    case "data-loss-risk":
      return p.red(p.bold(severity));
  }
}

function stepMarker(step: Step): string {
  if (
    step.action === "create" ||
    step.action === "clone" ||
    step.action === "disk-add" ||
    step.action === "nic-add" ||
    step.action === "snapshot-create"
  )
    return "+";
  if (
    step.action === "destroy" ||
    step.action === "disk-delete" ||
    step.action === "nic-remove" ||
    step.action === "disk-detach" ||
    step.action === "snapshot-delete"
  )
    return "-";
  return "~";
}

export function guestMarker(guest: GuestPlan): "+" | "-" | "~" | "=" | "!" {
  if (guest.errors.length > 0) return "!";
  if (guest.steps.length === 0) return "=";
  if (guest.steps.some((s) => s.action === "create" || s.action === "clone")) return "+";
  if (guest.steps.some((s) => s.action === "destroy")) return "-";
  return "~";
}

export function guestTitle(guest: GuestPlan): string {
  const id = guest.vmid !== undefined ? `vmid ${guest.vmid}` : "new vmid";
  return safeLine(`${guest.key} (${id}) on ${guest.node}`);
}

function markerColour(p: Palette, marker: string): (s: string) => string {
  if (marker === "+") return p.green;
  if (marker === "-" || marker === "!") return p.red;
  if (marker === "~") return p.yellow;
  return p.dim;
}

function renderStep(p: Palette, step: Step): string[] {
  const marker = stepMarker(step);
  const lines = [
    `    ${markerColour(p, marker)(marker)} ${safeLine(step.summary)}  ${p.dim("[")}${colourSeverity(p, step.severity)}${p.dim("]")}`,
  ];
  for (const change of step.changes) {
    if (step.action === "destroy") break;
    const field = safeLine(change.field);
    const before = safeLine(change.before ?? "");
    const after = safeLine(change.after ?? "");
    if (change.before === undefined) lines.push(`        ${field}: ${after}`);
    else if (change.after === undefined) lines.push(`        ${field}: ${p.red(before)} ${p.dim("(removed)")}`);
    else lines.push(`        ${field}: ${before} ${p.dim("->")} ${after}`);
  }
  for (const volume of step.deletesVolumes ?? []) lines.push(`        ${p.red(`destroys volume ${safeLine(volume)}`)}`);
  for (const note of step.notes ?? []) lines.push(`        ${p.dim(safeLine(note))}`);
  if (step.hostAccess) lines.push(`        ${p.red(hostAccessLine(step.hostAccess))}`);
  return lines;
}

/** Under a step that touches keys reaching the hypervisor host. */
export function hostAccessLine(keys: string[]): string {
  return `reaches the hypervisor host (${safeLine(keys.join(", "))}): runs only with --allow-host-access`;
}

/** The steps of a plan that need a flag of their own beyond the usual ones, as summary lines. */
function ownFlagNotes(plan: Plan): string[] {
  const steps = [...plan.guests.flatMap((g) => g.steps), ...(plan.objects ?? []).flatMap((o) => o.steps)];
  const host = steps.filter((s) => s.severity === "host-access" || s.hostAccess !== undefined).length;
  const reset = steps.filter((s) => s.severity === "secret-reset").length;
  const notes: string[] = [];
  if (host > 0)
    notes.push(
      `${host} step(s) reach the hypervisor host (host bind mounts, devices, QEMU args, hookscripts): they run only with --allow-host-access.`,
    );
  if (reset > 0)
    notes.push(`${reset} step(s) give an API token a new secret (the old one stops working): they run only with --allow-secret-reset.`);
  return notes;
}

export function renderPlan(plan: Plan, p: Palette = plainPalette): string {
  // The target first: a reviewer must see which cluster the plan is about before its steps.
  const lines: string[] = [p.dim(`Target: ${safeLine(plan.target)}`)];
  for (const guest of plan.guests) {
    const marker = guestMarker(guest);
    const colour = markerColour(p, marker);
    if (marker === "=") {
      lines.push(`${p.dim(`= ${guestTitle(guest)}: ${guest.exists ? "no changes" : "absent, nothing to do"}`)}`);
    } else {
      lines.push(colour(`${marker} ${p.bold(guestTitle(guest))}`));
    }
    for (const error of guest.errors) lines.push(`    ${p.red(`error: ${safeText(error)}`)}`);
    for (const step of guest.steps) lines.push(...renderStep(p, step));
    for (const warning of guest.warnings) lines.push(`    ${p.yellow(`warning: ${safeText(warning)}`)}`);
  }
  lines.push(...renderObjects(plan, p));
  if (plan.preflightErrors.length > 0) {
    lines.push("", p.red(p.bold(`Preflight found ${plan.preflightErrors.length} problem(s); nothing will run until they are fixed:`)));
    for (const problem of plan.preflightErrors) {
      lines.push(`  ${p.red("x")} ${safeText(problem.message)}${problem.guest ? p.dim(` (${safeLine(problem.guest)})`) : ""}`);
    }
  }
  lines.push("", summaryLine(plan, p));
  return `${lines.join("\n")}\n`;
}

export function summaryLine(plan: Plan, p: Palette = plainPalette): string {
  const counts = { create: 0, change: 0, destroy: 0, unchanged: 0, error: 0 };
  for (const guest of plan.guests) {
    const marker = guestMarker(guest);
    if (marker === "+") counts.create += 1;
    else if (marker === "-") counts.destroy += 1;
    else if (marker === "~") counts.change += 1;
    else if (marker === "!") counts.error += 1;
    else counts.unchanged += 1;
  }
  const guests =
    `Plan: ${counts.create} to create, ${counts.change} to change, ${counts.destroy} to destroy, ${counts.unchanged} unchanged` +
    (counts.error ? `, ${p.red(`${counts.error} with errors`)}` : "") +
    ".";
  const bySeverity = severityCounts(plan);
  const parts = SEVERITIES.filter((s) => bySeverity[s] > 0).map((s) => `${bySeverity[s]} ${colourSeverity(p, s)}`);
  const lines = [guests];
  // Archives are not guests: a prune changes no guest, yet deletes them (counted apart).
  const archives = archivesDeleted(plan);
  if (archives > 0) lines.push(`Backup archives: ${archives} to delete.`);
  const objects = objectSummary(plan);
  if (objects) lines.push(objects);
  if (parts.length > 0) lines.push(`Steps by severity: ${parts.join(", ")}.`);
  lines.push(...ownFlagNotes(plan).map((note) => p.red(note)));
  // "No changes" only when nothing failed: a guest with errors or a preflight problem means
  // the cluster may well differ from the spec, it was just not planned.
  const failed = errorSummary(plan, counts.error);
  if (failed) lines.push(p.red(failed));
  else if (parts.length === 0) lines.push("No changes: the cluster matches the spec.");
  return lines.join("\n");
}

/** How many backup archives the plan's steps delete. */
function archivesDeleted(plan: Plan): number {
  let n = 0;
  for (const guest of plan.guests)
    for (const step of guest.steps) if (step.action === "archive-delete") n += step.deletesVolumes?.length ?? 1;
  return n;
}

/** What failed in a plan, in one sentence (undefined when nothing did). */
export function errorSummary(plan: Plan, guestsWithErrors: number): string | undefined {
  const preflight = plan.preflightErrors.length;
  const objectsWithErrors = (plan.objects ?? []).filter((o) => o.errors.length > 0).length;
  if (guestsWithErrors === 0 && preflight === 0 && objectsWithErrors === 0) return undefined;
  const what = [
    ...(guestsWithErrors ? [`${guestsWithErrors} guest(s) with errors (their steps do not run)`] : []),
    ...(objectsWithErrors ? [`${objectsWithErrors} object(s) with errors (their steps do not run)`] : []),
    ...(preflight ? [`${preflight} preflight problem(s) (nothing runs)`] : []),
  ];
  return `Not converged: ${what.join(", ")}; fix what is listed above and run again.`;
}
