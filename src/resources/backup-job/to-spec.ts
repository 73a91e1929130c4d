// A live backup job in the spec's shape (`pvectl show`, `pvectl import`): every key it has,
// under the spec field that owns it or in `extraConfig`, so a plan of the written spec against
// the same cluster is empty, except the adoption of a job pvectl did not create (written with
// `adopt: true`: the plan adds pvectl's marker to its comment).
import { splitList } from "../../pve/index.js";
import type { LiveBackupJob } from "./model.js";
import { jobParamSchemas } from "./normalize.js";

type Raw = Record<string, unknown>;

/** Spec fields of the PVE keys that have one (the selection keys are placed apart). */
const FIELDS: Record<string, string> = {
  storage: "storage",
  mode: "mode",
  compress: "compress",
  "notes-template": "notesTemplate",
  enabled: "enabled",
  mailnotification: "mailNotification",
  "notification-mode": "notificationMode",
  node: "node",
};
/** Keys a spec cannot write (PVE's deprecated ones): left out of the written job. */
const NOT_WRITTEN = new Set(["starttime", "dow", "maxfiles", "vmid", "pool", "all", "exclude", "schedule", "prune-backups", "mailto"]);

/** A value in the type the spec writes it (PVE's schema type of the key). */
function typed(key: string, value: string): unknown {
  const type = jobParamSchemas()[key]?.type;
  if (type === "boolean") return value === "1";
  if (type === "integer" || type === "number") return Number(value);
  return value;
}

const vmids = (list: string) => splitList(list).map(Number);

function selection(params: Record<string, string>): Raw {
  if (params.vmid !== undefined) return { vmids: vmids(params.vmid) };
  if (params.pool !== undefined) return { pool: params.pool };
  return { all: true, ...(params.exclude !== undefined ? { exclude: vmids(params.exclude) } : {}) };
}

function retention(text: string): Raw {
  const out: Raw = {};
  for (const part of text.split(",")) {
    const [key, value] = part.split("=") as [string, string];
    out[key] = key === "keep-all" ? value === "1" : Number(value);
  }
  return out;
}

export function backupJobToSpec(job: LiveBackupJob): Raw {
  const p = job.params;
  const out: Raw = { id: job.id };
  if (!job.marked) out.adopt = true;
  if (p.schedule !== undefined) out.schedule = p.schedule;
  out.selection = selection(p);
  for (const [key, field] of Object.entries(FIELDS)) if (p[key] !== undefined) out[field] = typed(key, p[key]);
  if (p["prune-backups"] !== undefined) out.retention = retention(p["prune-backups"]);
  if (p.mailto !== undefined) out.mailto = p.mailto.split(",");
  if (job.comment !== undefined) out.comment = job.comment;
  const extra: Raw = {};
  for (const [key, value] of Object.entries(p)) {
    if (FIELDS[key] === undefined && !NOT_WRITTEN.has(key)) extra[key] = typed(key, value);
  }
  if (Object.keys(extra).length > 0) out.extraConfig = extra;
  return out;
}
