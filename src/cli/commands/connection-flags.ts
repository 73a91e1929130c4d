// `--file SPEC --connection NAME` for the commands that have no spec of guests of their own
// (import, inventory): the spec file only supplies its `connections:`. Without --file they read
// the PROXMOX_* environment, as before (app/connection.ts opens it).
import { openConnection, type PveClient, type PveClientOptions } from "../../app/connection.js";

export interface ConnectionFlags {
  file?: string[];
  connection?: string;
}

/** The client for a command's connection flags; `command` is used in the hints; `extra` (e.g. where warnings go) is added. */
export function clientFromConnectionFlags(
  flags: ConnectionFlags,
  command: string,
  extra: Partial<PveClientOptions> = {},
): Promise<PveClient> {
  const choice = {
    ...(flags.file !== undefined ? { files: flags.file } : {}),
    ...(flags.connection !== undefined ? { connection: flags.connection } : {}),
  };
  return openConnection(choice, command, extra);
}
