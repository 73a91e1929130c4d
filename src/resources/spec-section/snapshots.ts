// `snapshots: { keep: 3, prefix: auto- }` on a VM or container: retention only. `apply` deletes
// that guest's snapshots named with the prefix beyond the newest `keep` (data-loss-risk steps);
// it never takes one (snapshots are events: `pvectl snapshot create`). The prefix is required
// so a retention rule can never reach snapshots someone took by hand under another name.
import { z } from "zod";
import { pattern } from "./zod-values.js";

/** A snapshot name's start (PVE's pve-configid: a letter first, then letters, digits, '_', '-'). */
const PREFIX = /^[A-Za-z][A-Za-z0-9_-]*$/;

export function snapshotsSchema() {
  return z
    .strictObject({
      keep: z.number().int().min(0).max(1000).describe("How many of the newest snapshots named with the prefix to keep."),
      prefix: pattern(PREFIX, "the start of a snapshot name: a letter, then letters, digits, '_' or '-'")
        .max(39)
        .describe("Only snapshots whose name starts with this are pruned; others are never touched."),
    })
    .describe(
      "Snapshot retention: apply deletes this guest's snapshots named with `prefix` beyond the newest `keep` (needs --allow-data-loss). Never takes snapshots.",
    );
}
