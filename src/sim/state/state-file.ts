// --state FILE: the whole simulated cluster (access control, guest model, task history and
// the ticket-signing key, so tickets survive a restart as they do on PVE) as one JSON file.
// Loaded at start when the file exists; saved shortly after every change and at exit.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { AccessState } from "../access/state.js";
import { SimUserError } from "../errors.js";
import type { TasksJSON } from "../tasks/manager.js";

export const STATE_FORMAT = "pvectl-sim-state";

export interface SimState {
  format: typeof STATE_FORMAT;
  version: 1;
  savedAt: string;
  ticketKey: string;
  access: AccessState;
  cluster: unknown;
  tasks: TasksJSON;
}

export class StateFileError extends SimUserError {
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly advice = "Fix or delete the file (the simulator then starts from a fresh cluster and writes it again).",
  ) {
    super(`simulator state file ${file}: ${reason}`);
    this.name = "StateFileError";
  }

  userMessage(): string {
    return `Cannot use the simulator state file ${this.file}: ${this.reason}. ${this.advice}`;
  }
}

export function readStateFile(file: string): SimState | undefined {
  if (!existsSync(file)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new StateFileError(file, `not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const state = parsed as Partial<SimState>;
  if (typeof parsed !== "object" || parsed === null || state.format !== STATE_FORMAT) {
    throw new StateFileError(file, `not a pvectl simulator state file (missing "format": "${STATE_FORMAT}")`);
  }
  if (state.version !== 1) throw new StateFileError(file, `unsupported version ${String(state.version)}`);
  if (!state.access || typeof state.access !== "object" || !state.access.users) {
    throw new StateFileError(file, "the 'access' section is missing");
  }
  if (typeof state.ticketKey !== "string") throw new StateFileError(file, "the 'ticketKey' is missing");
  return state as SimState;
}

/** Writes atomically (temporary file + rename) so a crash never leaves half a file. */
export function writeStateFile(file: string, state: SimState): void {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, `${JSON.stringify(state, null, 1)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  } catch (err) {
    throw new StateFileError(
      file,
      `cannot write it (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      "Check that its directory exists and is writable, or choose another --state path.",
    );
  }
}
