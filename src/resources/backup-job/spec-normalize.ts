// One `backupJobs:` entry, shape-checked by backup-job-schema.ts, into the job the engine
// compares: PVE's keys for the fields the entry writes (and only those), the keys another
// selection shape leaves behind to delete, and every cross-field rule with the field it is about.
import { notesTemplateProblem, validateValue } from "../../pve/index.js";
import type { DesiredBackupJob } from "./model.js";
import { jobParamSchemas, normalizeJobValue } from "./normalize.js";
import type { RawBackupJob } from "./spec-schema.js";
import { OWNED_JOB_KEYS, REFUSED_JOB_KEYS } from "./spec-schema.js";
import type { IssueSink, SourceLocation, SpecPath } from "../spec-section/issues.js";
import { didYouMean } from "../spec-section/suggest.js";

/** A spec's backup job: what the engine compares, where it was written, and what import/show print. */
export interface BackupJobSpec {
  id: string;
  connection?: string;
  source: SourceLocation;
  desired: DesiredBackupJob;
}

const SELECTION_KEYS = ["vmid", "pool", "all", "exclude"];

function selectionParams(
  raw: RawBackupJob,
  path: SpecPath,
  sink: IssueSink,
): { params: Record<string, string>; absent: string[] } | undefined {
  const { vmids, pool, all, exclude } = raw.selection;
  const shapes = [vmids !== undefined, pool !== undefined, all === true].filter(Boolean).length;
  if (shapes !== 1) {
    sink.add([...path, "selection"], "give exactly one of `vmids: [...]`, `pool: NAME` or `all: true` (with `exclude: [...]`)");
    return undefined;
  }
  if (exclude !== undefined && all !== true) {
    sink.add([...path, "selection", "exclude"], "`exclude` goes with `all: true` only");
    return undefined;
  }
  const params: Record<string, string> = {};
  if (vmids !== undefined) params.vmid = normalizeJobValue("vmid", vmids);
  if (pool !== undefined) params.pool = pool;
  if (all === true) {
    params.all = "1";
    if (exclude !== undefined && exclude.length > 0) params.exclude = normalizeJobValue("exclude", exclude);
  }
  return { params, absent: SELECTION_KEYS.filter((k) => params[k] === undefined) };
}

function extraParams(extra: Record<string, string | number | boolean>, path: SpecPath, sink: IssueSink): Record<string, string> {
  const schemas = jobParamSchemas();
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(extra)) {
    const at = [...path, "extraConfig", key];
    const field = OWNED_JOB_KEYS[key];
    const refused = REFUSED_JOB_KEYS[key];
    const schema = Object.hasOwn(schemas, key) ? schemas[key] : undefined;
    if (field !== undefined) sink.add(at, `\`${key}\` has a field of its own: write \`${field}:\` instead`, "key");
    else if (refused !== undefined) sink.add(at, `\`${key}\` cannot be set: ${refused}`, "key");
    else if (schema === undefined)
      sink.add(at, `\`${key}\` is not a backup job option of PVE${didYouMean(key, Object.keys(schemas))}`, "key");
    else {
      const checked = validateValue(schema, typeof value === "boolean" ? (value ? 1 : 0) : value, key);
      if (checked.error !== undefined) sink.add(at, `PVE refuses ${key}=${String(value)}: ${checked.error}`);
      else out[key] = normalizeJobValue(key, value);
    }
  }
  return out;
}

/**
 * The job the engine compares, its problems reported to `sink`: a spec with any problem is
 * refused as a whole, and the loader still checks this job against the others (id, connection).
 */
export function normalizeBackupJob(raw: RawBackupJob, path: SpecPath, source: SourceLocation, sink: IssueSink): BackupJobSpec {
  const selection = selectionParams(raw, path, sink);
  if (raw.notesTemplate !== undefined && raw.storage === undefined) {
    sink.add([...path, "notesTemplate"], "PVE takes `notes-template` only with a storage: add `storage:` to the job");
  }
  // PVE refuses these (a raw line feed would break its jobs.cfg, one option a line): said here, with the line.
  const notesProblem = raw.notesTemplate !== undefined ? notesTemplateProblem(raw.notesTemplate) : undefined;
  if (notesProblem !== undefined) {
    sink.add(
      [...path, "notesTemplate"],
      `PVE refuses this notes template: ${notesProblem}; write a new line as \\n, and use only {{guestname}}, {{vmid}}, {{node}}, {{cluster}}`,
    );
  }
  const params: Record<string, string> = { schedule: raw.schedule.trim(), ...selection?.params };
  const absent = [...(selection?.absent ?? [])];
  const set = (key: string, value: unknown) => {
    if (value !== undefined) params[key] = normalizeJobValue(key, value);
  };
  set("storage", raw.storage);
  set("mode", raw.mode);
  set("compress", raw.compress);
  set("prune-backups", raw.retention);
  set("notes-template", raw.notesTemplate);
  set("enabled", raw.enabled);
  set("mailnotification", raw.mailNotification);
  set("notification-mode", raw.notificationMode);
  set("node", raw.node);
  const mailto = raw.mailto === undefined ? undefined : Array.isArray(raw.mailto) ? raw.mailto : [raw.mailto];
  if (mailto !== undefined && mailto.length === 0) absent.push("mailto");
  else set("mailto", mailto);
  Object.assign(params, extraParams(raw.extraConfig ?? {}, path, sink));
  const desired: DesiredBackupJob = {
    id: raw.id,
    params,
    absent,
    ...(raw.comment !== undefined ? { comment: raw.comment.trim() } : {}),
    adopt: raw.adopt ?? false,
    where: `${source.file}:${source.line}`,
  };
  return { id: raw.id, ...(raw.connection !== undefined ? { connection: raw.connection } : {}), source, desired };
}
