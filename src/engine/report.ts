// The final report: one shape per guest, whatever happened to it (the pitfalls table: "every
// result reports each guest's NICs, MACs, disks and volumes in one shape").
import type { Severity, StepAction } from "../plan/types.js";

/** partial: some steps ran, then one failed. skipped: every step was held back by the guard rails. */
export type GuestResult = "created" | "changed" | "unchanged" | "destroyed" | "partial" | "failed" | "skipped";

export interface StepReport {
  id: string;
  action: StepAction;
  severity: Severity;
  summary: string;
  status: "done" | "skipped" | "failed" | "not-run";
  /** Why a step was skipped or failed. */
  reason?: string;
  attempts?: number;
  /** What a done step made, when that is news (a backup's archive: `archive local:backup/vzdump-…`). */
  result?: string;
}

export interface GuestReport {
  key: string;
  name: string;
  result: GuestResult;
  vmid?: number;
  node: string;
  /** netN -> MAC */
  macs: Record<string, string>;
  /** slot -> volume id (disks, CD-ROMs, EFI/TPM state) */
  volumes: Record<string, string>;
  steps: StepReport[];
  /** Steps left for later: service-impact without --allow-restart, data-loss-risk without --allow-data-loss. */
  pending: string[];
  /**
   * Config keys written to PVE's pending section that take effect at the guest's next reboot
   * (read back after apply when the reboot was held back, e.g. with --defer-restart).
   */
  pendingReboot?: string[];
  warnings: string[];
  error?: string;
}

/** What happened to one cluster object of the plan (a backup job ...). */
export interface ObjectReport {
  kind: string;
  key: string;
  result: "created" | "changed" | "deleted" | "unchanged" | "failed" | "skipped";
  steps: StepReport[];
  /** Steps the guard rails held back. */
  pending: string[];
  error?: string;
}

export interface ApplyReport {
  target: string;
  guests: GuestReport[];
  /** The plan's objects section, when it has one. */
  objects?: ObjectReport[];
  /** Seconds from the first call to the last report. */
  elapsedSeconds: number;
  ok: boolean;
}

/** The overall result from what happened to the steps. */
export function resultOf(report: GuestReport, existed: boolean): GuestResult {
  const done = report.steps.filter((s) => s.status === "done");
  const failed = report.steps.some((s) => s.status === "failed") || report.error !== undefined;
  if (report.steps.length === 0) return failed ? "failed" : "unchanged";
  if (failed) return done.length > 0 ? "partial" : "failed";
  if (done.length === 0) return "skipped";
  if (done.some((s) => s.action === "destroy")) return "destroyed";
  // Steps the guard rails held back are listed in `pending`; what ran succeeded.
  return existed ? "changed" : "created";
}
