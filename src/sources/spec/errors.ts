// The error a user sees when spec files are invalid: every problem at once, each with the
// file, line and column, the path inside the document and what to do about it.
import type { SpecIssue, SpecPath } from "../../resources/spec-section/issues.js";
import { PvectlError, type PvectlErrorJson } from "../../util/errors.js";

export type { SpecIssue, SpecPath } from "../../resources/spec-section/issues.js";

/** "vms[0].disks.scsi0.size" */
export function formatPath(path: SpecPath): string {
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else text += text === "" ? part : `.${part}`;
  }
  return text;
}

export function formatIssue(issue: SpecIssue): string {
  const where = issue.location ? `${issue.location.file}:${issue.location.line}:${issue.location.column}: ` : "";
  const path = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : "";
  return `${where}${path}${issue.message}`;
}

/**
 * Each problem once (two checks can reach the same one), files in the order given (`files`, the
 * order they were read in), others as they first appear, and within a file top to bottom.
 */
export function sortIssues(all: readonly SpecIssue[], files: readonly string[] = []): SpecIssue[] {
  const seen = new Set<string>();
  const issues = all.filter((issue) => {
    const text = formatIssue(issue);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
  const fileOrder = new Map<string, number>(files.map((file, i) => [file, i]));
  const fileOf = (issue: SpecIssue): string => issue.location?.file ?? issue.file ?? "";
  for (const issue of issues) {
    if (!fileOrder.has(fileOf(issue))) fileOrder.set(fileOf(issue), fileOrder.size);
  }
  const rank = (issue: SpecIssue): number => fileOrder.get(fileOf(issue)) ?? 0;
  return [...issues].sort(
    (a, b) =>
      rank(a) - rank(b) || (a.location?.line ?? 0) - (b.location?.line ?? 0) || (a.location?.column ?? 0) - (b.location?.column ?? 0),
  );
}

/** One or more problems in spec files. Nothing has been sent to any cluster when this is thrown. */
export class SpecError extends PvectlError {
  readonly kind = "spec";
  readonly issues: SpecIssue[];

  /** `files`: the spec files in the order they were read, the order their problems are listed in. */
  constructor(issues: SpecIssue[], files: readonly string[] = []) {
    const sorted = sortIssues(issues, files);
    super(sorted.map(formatIssue).join("\n"));
    this.name = "SpecError";
    this.issues = sorted;
  }

  override userMessage(): string {
    return [`${this.#head()}. Fix the spec and run again:`, ...this.issues.map((issue) => `  ${formatIssue(issue)}`)].join("\n");
  }

  /** For --json: the problems apart, and what to do as the hint. */
  override parts(): Omit<PvectlErrorJson, "kind"> {
    return { message: this.#head(), hint: "fix the spec and run again", problems: this.issues.map(formatIssue) };
  }

  #head(): string {
    const count = this.issues.length;
    return `the spec is invalid (${count} ${count === 1 ? "problem" : "problems"}); nothing was sent to the cluster`;
  }
}
