// The entries of a family's list section from every spec file, checked against each other:
// each names a defined connection (or the only one), and its key once per cluster. Shared by
// the families whose section is a list of keyed objects (backup jobs, HA rules ...).
import type { SourceLocation, SpecIssue } from "./issues.js";
import { didYouMean } from "./suggest.js";

export interface KeyedEntry {
  connection?: string;
  source: SourceLocation;
}

export interface KeyedList<E> {
  /** The section's key in a spec file ("backupJobs"). */
  section: string;
  /** How messages name one entry ("backup job web-nightly"). */
  label(entry: E): string;
  /** The entry's key, and the field it is written under ("id", "rule"). */
  key(entry: E): string;
  keyField: string;
  /** How a message names the key ("backup job id"), and why it must be unique ("a job id names one job of a cluster"). */
  keyNoun: string;
  unique: string;
}

function where(location: SourceLocation): string {
  return `${location.file}:${location.line}:${location.column}`;
}

export function mergeKeyedEntries<E extends KeyedEntry>(list: KeyedList<E>, entries: E[], names: string[], issues: SpecIssue[]): E[] {
  const out: E[] = [];
  const seen = new Map<string, E>();
  for (const entry of entries) {
    const issue = (field: string, message: string) =>
      issues.push({ location: entry.source, path: [list.section, list.key(entry), field], message });
    if (entry.connection !== undefined && !names.includes(entry.connection)) {
      issue(
        "connection",
        `${list.label(entry)} names connection \`${entry.connection}\`, which no spec file defines${didYouMean(entry.connection, names)}`,
      );
      continue;
    }
    if (entry.connection === undefined && names.length === 1) entry.connection = names[0];
    if (entry.connection === undefined && names.length > 1) {
      issue(
        "connection",
        `${list.label(entry)} names no connection, and the spec defines several (${names.join(", ")}): add \`connection: <name>\``,
      );
      continue;
    }
    const key = `${entry.connection ?? ""}\u0000${list.key(entry)}`;
    const previous = seen.get(key);
    if (previous) {
      issue(list.keyField, `${list.keyNoun} ${list.key(entry)} is declared twice: here and at ${where(previous.source)}; ${list.unique}`);
      continue;
    }
    seen.set(key, entry);
    out.push(entry);
  }
  return out;
}
