// The apply report for people (one block per guest: result, vmid, node, MACs, volumes,
// warnings, pending steps, error) and the progress lines printed while apply runs.
import type { ApplyEvent, ApplyReport, GuestReport, ObjectReport } from "../../app/apply-results.js";
import { formatDuration } from "../../util/duration.js";
import { type Palette, plainPalette } from "./plan.js";
import { safeLine, safeText } from "../../util/safe-text.js";

function resultColour(p: Palette, result: GuestReport["result"]): (s: string) => string {
  if (result === "failed" || result === "partial") return p.red;
  if (result === "skipped") return p.yellow;
  if (result === "unchanged") return p.dim;
  return p.green;
}

export function renderGuestReport(g: GuestReport, p: Palette = plainPalette): string[] {
  const lines = [
    `${resultColour(p, g.result)(g.result.padEnd(9))} ${p.bold(safeLine(g.key))}  vmid ${g.vmid ?? "-"}  node ${safeLine(g.node)}`,
  ];
  const macs = Object.entries(g.macs).map(([k, v]) => safeLine(`${k}=${v}`));
  const volumes = Object.entries(g.volumes).map(([k, v]) => safeLine(`${k}=${v}`));
  if (macs.length) lines.push(`          macs: ${macs.join(" ")}`);
  if (volumes.length) lines.push(`          volumes: ${volumes.join(" ")}`);
  // Reports built before steps carried results (a saved JSON report) may lack `steps`.
  for (const step of g.steps ?? []) if (step.result !== undefined) lines.push(`          ${step.action}: ${safeLine(step.result)}`);
  for (const pending of g.pending) lines.push(`          ${p.yellow(`pending: ${safeText(pending)}`)}`);
  if (g.pendingReboot?.length) lines.push(`          ${p.yellow(`waiting for a reboot: ${safeLine(g.pendingReboot.join(", "))}`)}`);
  for (const warning of g.warnings) lines.push(`          ${p.yellow(`warning: ${safeText(warning)}`)}`);
  if (g.error)
    lines.push(
      ...safeText(g.error)
        .split("\n")
        .map((l, i) => `          ${p.red(i === 0 ? `error: ${l}` : l)}`),
    );
  return lines;
}

function renderObjectReport(o: ObjectReport, p: Palette): string[] {
  const colour = o.result === "failed" ? p.red : o.result === "skipped" ? p.yellow : o.result === "unchanged" ? p.dim : p.green;
  const lines = [`${colour(o.result.padEnd(9))} ${p.bold(safeLine(`${o.kind} ${o.key}`))}`];
  for (const pending of o.pending) lines.push(`          ${p.yellow(`pending: ${safeText(pending)}`)}`);
  if (o.error) lines.push(`          ${p.red(`error: ${safeText(o.error)}`)}`);
  return lines;
}

/**
 * What happened, counted over guests and objects (`2 created, 1 unchanged`). "nothing to do"
 * only for a run with neither: a change or an error always has a guest or object to count.
 */
function resultSummary(report: ApplyReport): string {
  const counts = new Map<string, number>();
  for (const r of [...report.guests, ...(report.objects ?? [])]) counts.set(r.result, (counts.get(r.result) ?? 0) + 1);
  const summary = [...counts.entries()].map(([k, v]) => `${v} ${k}`).join(", ");
  if (summary !== "") return summary;
  return report.ok ? "nothing to do" : "see the errors above";
}

export function renderReport(report: ApplyReport, p: Palette = plainPalette): string {
  const lines = report.guests.flatMap((g) => renderGuestReport(g, p));
  for (const object of report.objects ?? []) lines.push(...renderObjectReport(object, p));
  const pending =
    report.guests.reduce((n, g) => n + g.pending.length, 0) + (report.objects ?? []).reduce((n, o) => n + o.pending.length, 0);
  const rebootWaiting = report.guests.filter((g) => g.pendingReboot?.length).map((g) => g.key);
  lines.push(
    "",
    `Apply ${report.ok ? p.green("finished") : p.red("finished with errors")} in ${report.elapsedSeconds}s: ${resultSummary(report)}.` +
      (pending ? ` ${p.yellow(`${pending} step(s) left pending (see above).`)}` : "") +
      (rebootWaiting.length ? ` ${p.yellow(`Waiting for a reboot: ${rebootWaiting.join(", ")}.`)}` : ""),
  );
  return `${lines.join("\n")}\n`;
}

/** One line per event: readable in CI logs, and on a terminal with a running count. */
export function progressLine(
  event: ApplyEvent | { type: "guest-done"; report: GuestReport },
  p: Palette = plainPalette,
): string | undefined {
  switch (event.type) {
    case "step-start":
      return `${p.dim("..")} ${safeLine(event.guest.key)}: ${safeLine(event.step.summary)}`;
    case "step-done":
      return `${p.green("ok")} ${safeLine(event.guest.key)}: ${event.step.action}${event.vmid !== undefined ? ` (vmid ${event.vmid})` : ""}${event.result !== undefined ? `: ${safeLine(event.result)}` : ""}${event.warnings.length ? p.yellow(` ${event.warnings.length} warning(s)`) : ""}`;
    case "step-skipped":
      return `${p.yellow("--")} ${safeLine(event.guest.key)}: ${event.step.action} skipped (${safeLine(event.reason)})`;
    case "step-failed":
      return `${p.red("!!")} ${safeLine(event.guest.key)}: ${event.step.action} failed: ${safeLine(event.error.split("\n")[0] ?? "")}`;
    case "retry":
      return `${p.yellow("..")} ${safeLine(event.guest.key)}: ${event.step.action} retry ${event.attempt} in ${event.delayMs}ms (${safeLine(event.reason)})`;
    case "lock-wait":
      return `${p.yellow("..")} ${safeLine(event.guest.key)}: ${event.step.action} waits for the ${event.lock} lock (waited ${formatDuration(event.elapsedMs)} of ${formatDuration(event.limitMs)})`;
    case "guest-done":
      return undefined;
  }
}
