// The shape of one `backupJobs:` entry as a user writes it, as a zod schema (strict: unknown
// keys are errors). Enums, ranges and the keys `extraConfig` may hold come from the generated
// schema of POST /cluster/backup; the schedule is checked with PVE's calendar event parser.
import { z } from "zod";
import { calendarEventProblem } from "../../pve/index.js";
import { jobParamSchemas } from "./normalize.js";
import { CONNECTION_NAME, fromPveParam, NODE_NAME, POOL_ID_OR_NONE, pattern, STORAGE_ID } from "../spec-section/zod-values.js";

/** PVE's `pve-configid` (job ids given on create), at most 50 characters. */
const JOB_ID = /^[a-z][a-z0-9_-]+$/i;
const VMID = z.number().int().min(100).max(999_999_999);

/** Job keys the structured fields own, and keys a spec may not send at all (with why). */
export const OWNED_JOB_KEYS: Record<string, string> = {
  id: "id",
  vmid: "selection.vmids",
  pool: "selection.pool",
  all: "selection.all",
  exclude: "selection.exclude",
  schedule: "schedule",
  storage: "storage",
  mode: "mode",
  compress: "compress",
  "prune-backups": "retention",
  "notes-template": "notesTemplate",
  enabled: "enabled",
  mailto: "mailto",
  mailnotification: "mailNotification",
  "notification-mode": "notificationMode",
  node: "node",
  comment: "comment",
};
export const REFUSED_JOB_KEYS: Record<string, string> = {
  delete: "pvectl computes what to delete",
  digest: "pvectl does not send one",
  starttime: "deprecated by PVE: write `schedule:` (e.g. `mon..fri 02:30`)",
  dow: "deprecated by PVE: write the weekdays in `schedule:` (e.g. `mon,wed 02:30`)",
  maxfiles: "deprecated by PVE: write `retention: { keep-last: N }`",
};

function param(key: string) {
  const schema = jobParamSchemas()[key];
  if (!schema) throw new Error(`PVE's schema has no backup job option ${key}`);
  return fromPveParam(schema);
}

function retentionSchema() {
  const n = z.number().int().min(0);
  return z
    .strictObject({
      "keep-all": z.boolean().optional(),
      "keep-last": n.optional(),
      "keep-hourly": n.optional(),
      "keep-daily": n.optional(),
      "keep-weekly": n.optional(),
      "keep-monthly": n.optional(),
      "keep-yearly": n.optional(),
    })
    .describe("PVE's prune-backups keys; written as a whole (keys left out are not kept).");
}

function selectionSchema() {
  return z
    .strictObject({
      vmids: z.array(VMID).min(1).optional().describe("These guests."),
      pool: pattern(POOL_ID_OR_NONE, "a pool id").optional().describe("The guests of this pool."),
      all: z.literal(true).optional().describe("Every guest (on the job's node, if it has one)."),
      exclude: z.array(VMID).optional().describe("With all: true, these guests are left out."),
    })
    .describe("Which guests the job backs up: exactly one of vmids, pool or all (with exclude).");
}

function extraConfigSchema() {
  return z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .describe("Other /cluster/backup options by PVE's name (bwlimit, ionice, fleecing ...), checked against PVE's schema.");
}

export function backupJobSchema() {
  return z
    .strictObject({
      id: pattern(JOB_ID, "a job id: a letter, then letters, digits, '-' or '_'")
        .max(50)
        .describe("The job's id (PVE's), the key pvectl finds it by."),
      connection: pattern(CONNECTION_NAME, "a connection name").optional(),
      adopt: z.boolean().optional().describe("Manage an existing job of this id that pvectl did not create."),
      schedule: z
        .string()
        .max(128)
        .superRefine((value, ctx) => {
          const problem = calendarEventProblem(value);
          if (problem)
            ctx.addIssue({
              code: "custom",
              message: `${problem}; write a systemd-like calendar event, e.g. \`mon..fri 02:30\`, \`sat 03:00\`, \`daily\`, \`*/30\``,
            });
        })
        .describe("When it runs: a calendar event as PVE accepts it, e.g. `mon..fri 02:30`."),
      selection: selectionSchema(),
      storage: pattern(STORAGE_ID, "a storage id").optional(),
      mode: param("mode").optional(),
      compress: param("compress").optional(),
      retention: retentionSchema().optional(),
      notesTemplate: z
        .string()
        .max(1024)
        .optional()
        .describe("Notes of each backup ({{guestname}}, {{vmid}}, {{node}}, {{cluster}}); needs storage."),
      enabled: z.boolean().optional(),
      mailto: z
        .union([z.string().min(1), z.array(z.string().min(1))])
        .optional()
        .describe("Addresses or users mailed about the job; [] for none."),
      mailNotification: param("mailnotification").optional(),
      notificationMode: param("notification-mode").optional(),
      node: pattern(NODE_NAME, "a node name").optional().describe("Run only on this node."),
      comment: z.string().max(500).optional().describe("Your text; pvectl keeps its marker after it."),
      extraConfig: extraConfigSchema().optional(),
    })
    .meta({ id: "BackupJob", description: "A backup job (/cluster/backup) as desired state." });
}

export type RawBackupJob = z.output<ReturnType<typeof backupJobSchema>>;
