// `backup run`: one vzdump per guest, as plan steps. One call per guest (not one vzdump over a
// node's guests) so that the executor's per-node limit paces them, each guest has its own
// progress line, result and archive in the report, and a failure is that guest's alone.
import { endpointCall } from "../../plan/call.js";
import type { BackupMode } from "../../plan/intent.js";
import type { ApiCall, GuestPlan, ParamValue, PreflightProblem, Severity, StepDraft } from "../../plan/types.js";
import { type ArchiveGuest, type ArchiveStorage, guestKey, guestLabel, numbered, storageOn } from "./guests.js";

export const BACKUP_MODES = ["snapshot", "suspend", "stop"] as const;
export const BACKUP_COMPRESSIONS = ["zstd", "lzo", "gzip", "0"] as const;
export type BackupCompression = (typeof BACKUP_COMPRESSIONS)[number];

export interface BackupRunOptions {
  storage: string;
  mode: BackupMode;
  compress: BackupCompression;
  /** PVE's notes template (`{{guestname}}`, `{{vmid}}`, `{{node}}`, `{{cluster}}`). */
  notesTemplate?: string;
  /** The archive is protected from pruning and deletion. */
  protected?: boolean;
  /** Apply waits on a lock another operation holds (--lock-wait): a locked guest is planned, not refused. */
  lockWait?: boolean;
}

export interface BackupRunPlan {
  guests: GuestPlan[];
  problems: PreflightProblem[];
}

export function planBackups(guests: ArchiveGuest[], storages: ArchiveStorage[], options: BackupRunOptions): BackupRunPlan {
  const problems: PreflightProblem[] = [];
  const planned = guests.map((guest) => {
    const problem = storageProblem(guest, storages, options.storage);
    if (problem !== undefined) problems.push(problem);
    return backupGuest(guest, options);
  });
  return { guests: planned, problems: dedupe(problems) };
}

function backupGuest(guest: ArchiveGuest, options: BackupRunOptions): GuestPlan {
  const key = guestKey(guest);
  const base = { kind: guest.type, key, name: guest.name ?? key, vmid: guest.vmid, node: guest.node, exists: true, warnings: [] };
  // A guest another operation holds would fail in vzdump's task: said now, for this guest alone,
  // unless apply is to wait for the lock (the step then waits before its vzdump).
  if (guest.lock !== undefined && !options.lockWait) {
    return {
      ...base,
      steps: [],
      errors: [
        `${guestLabel(guest)} is locked (${guest.lock}): another operation holds it; run the backup again once it is done, or give --lock-wait (e.g. --lock-wait 2h) to wait for it`,
      ],
    };
  }
  const warnings =
    guest.lock !== undefined ? [`${guestLabel(guest)} is locked (${guest.lock}) now: its backup waits for the lock (--lock-wait)`] : [];
  return { ...base, warnings, steps: numbered(key, [backupStep(guest, options)]), errors: [] };
}

/**
 * snapshot mode copies a running guest without stopping it; suspend pauses it and stop shuts
 * it down for the copy (started again after): the guest's service is interrupted, so those
 * need --allow-restart. A stopped guest is not disturbed in any mode.
 */
function severityOf(guest: ArchiveGuest, mode: BackupMode): Severity {
  return mode !== "snapshot" && guest.status === "running" ? "service-impact" : "configuration";
}

function backupStep(guest: ArchiveGuest, options: BackupRunOptions): StepDraft {
  const params: Record<string, ParamValue> = { vmid: guest.vmid, storage: options.storage, mode: options.mode, compress: options.compress };
  if (options.notesTemplate !== undefined) params["notes-template"] = options.notesTemplate;
  if (options.protected) params.protected = 1;
  const call: ApiCall = {
    ...endpointCall("POST", "/nodes/{node}/vzdump", { node: guest.node }, params),
    intent: { kind: guest.type, op: "backup", vmid: guest.vmid, storage: options.storage, mode: options.mode },
  };
  const severity = severityOf(guest, options.mode);
  const pause =
    severity === "service-impact"
      ? options.mode === "stop"
        ? ": the guest is shut down for the copy and started again"
        : ": the guest is paused for the copy"
      : "";
  const compression = options.compress === "0" ? "uncompressed" : options.compress;
  return {
    action: "backup",
    severity,
    summary: `back up ${guestLabel(guest)} to ${options.storage} (${options.mode} mode, ${compression}${options.protected ? ", protected" : ""})${pause}`,
    changes: [],
    calls: [call],
  };
}

/** The storage must be on the guest's node (a shared one is listed on every node) and hold backups. */
function storageProblem(guest: ArchiveGuest, storages: ArchiveStorage[], storage: string): PreflightProblem | undefined {
  const found = storageOn(storages, storage, guest.node);
  if (found === undefined) {
    const here = storages.filter((s) => s.node === guest.node && s.content.includes("backup")).map((s) => s.storage);
    return {
      kind: "storage",
      message: `storage ${storage} is not on node ${guest.node} (where ${guestLabel(guest)} runs); storages there for backups: ${here.join(", ") || "none"}`,
    };
  }
  if (!found.content.includes("backup")) {
    return {
      kind: "storage",
      message: `storage ${storage} does not hold backups (its content: ${found.content.join(",") || "none"}); add 'backup' to its content types or pick another with --storage`,
    };
  }
  if (!found.available)
    return {
      kind: "storage",
      message: `storage ${storage} is not available on node ${guest.node}; check it (pvesm status) or pick another with --storage`,
    };
  return undefined;
}

function dedupe(problems: PreflightProblem[]): PreflightProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => !seen.has(p.message) && seen.add(p.message));
}
