// The cluster connection of the use cases that have no spec of guests of their own (import,
// inventory, netbox setup): the connection a spec file defines, or without spec files the
// PROXMOX_* environment. The spec loader is loaded only when spec files are given: without
// them (every `ansible-inventory` run) it is start-up time and nothing else.
import { PveClient } from "../api/client.js";
import { clientOptionsFromEnv, type PveClientOptions } from "../api/options.js";
import { UsageError } from "./usage-error.js";

export interface ConnectionChoice {
  /** Spec files whose `connections:` are read (their guests are not). */
  files?: string[];
  /** Which of their connections; may be left out when they define only one. */
  connection?: string;
}

/** A client for `choice`; `command` is used in the hints; `extra` (e.g. where warnings go) is added. */
export async function openConnection(choice: ConnectionChoice, command: string, extra: Partial<PveClientOptions> = {}): Promise<PveClient> {
  const files = choice.files ?? [];
  if (files.length === 0) {
    if (choice.connection !== undefined) {
      throw new UsageError(
        `--connection ${choice.connection} needs the spec file that defines it`,
        `e.g. pvectl ${command} --file cluster.yaml --connection ${choice.connection} ...`,
      );
    }
    return new PveClient({ ...clientOptionsFromEnv(), ...extra });
  }
  const [{ loadSpecFiles }, { resolveConnection }] = await Promise.all([
    import("../sources/spec/index.js"),
    import("../sources/connections.js"),
  ]);
  const spec = await loadSpecFiles(files);
  const defined = Object.keys(spec.connections).sort();
  // One connection in the file is unambiguous; with several, the operator must pick.
  const name = choice.connection ?? (defined.length === 1 ? defined[0] : undefined);
  if (name === undefined && defined.length > 1) {
    throw new UsageError(
      `${files.join(", ")} define${files.length === 1 ? "s" : ""} ${defined.length} connections (${defined.join(", ")}); pvectl works on one cluster at a time`,
      `add --connection NAME, e.g. pvectl ${command} --file ${files[0]} --connection ${defined[0]} ...`,
    );
  }
  return new PveClient({ ...resolveConnection(spec, name), ...extra });
}

/** A client for the PROXMOX_* environment. */
export function clientFromEnv(): PveClient {
  return PveClient.fromEnv();
}

export type { PveClient, PveClientOptions };
