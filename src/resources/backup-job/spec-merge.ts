// The backup jobs of every spec file, checked against each other: each names a defined
// connection (or the only one), and an id once per cluster.
import type { SourceLocation, SpecIssue } from "../spec-section/issues.js";
import { didYouMean } from "../spec-section/suggest.js";
import type { BackupJobSpec } from "./spec-normalize.js";

function where(location: SourceLocation): string {
  return `${location.file}:${location.line}:${location.column}`;
}

export function mergeBackupJobs(jobs: BackupJobSpec[], names: string[], issues: SpecIssue[]): BackupJobSpec[] {
  const out: BackupJobSpec[] = [];
  const seen = new Map<string, BackupJobSpec>();
  for (const job of jobs) {
    const issue = (field: string, message: string) => issues.push({ location: job.source, path: ["backupJobs", job.id, field], message });
    if (job.connection !== undefined && !names.includes(job.connection)) {
      issue(
        "connection",
        `backup job ${job.id} names connection \`${job.connection}\`, which no spec file defines${didYouMean(job.connection, names)}`,
      );
      continue;
    }
    if (job.connection === undefined && names.length === 1) job.connection = names[0];
    if (job.connection === undefined && names.length > 1) {
      issue(
        "connection",
        `backup job ${job.id} names no connection, and the spec defines several (${names.join(", ")}): add \`connection: <name>\``,
      );
      continue;
    }
    const key = `${job.connection ?? ""}\u0000${job.id}`;
    const previous = seen.get(key);
    if (previous) {
      issue("id", `backup job id ${job.id} is declared twice: here and at ${where(previous.source)}; a job id names one job of a cluster`);
      continue;
    }
    seen.set(key, job);
    out.push(job);
  }
  return out;
}
