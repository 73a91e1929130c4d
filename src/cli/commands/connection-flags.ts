// `--file SPEC --connection NAME` for the commands that have no spec of guests of their own
// (import, inventory): the spec file only supplies its `connections:`. Without --file they read
// the PROXMOX_* environment, as before.
// The spec loader and the plan command's error class are loaded only with --file: without it
// (every `ansible-inventory` run) they are start-up time and nothing else.
import { PveClient } from "../../api/client.js";
import { clientOptionsFromEnv, type PveClientOptions } from "../../api/options.js";

export interface ConnectionFlags {
  file?: string[];
  connection?: string;
}

/** The client for a command's connection flags; `command` is used in the hints; `extra` (e.g. where warnings go) is added. */
export async function clientFromConnectionFlags(
  flags: ConnectionFlags,
  command: string,
  extra: Partial<PveClientOptions> = {},
): Promise<PveClient> {
  const files = flags.file ?? [];
  if (files.length === 0) {
    if (flags.connection !== undefined) {
      const { UsageError } = await import("./plan.js");
      throw new UsageError(
        `--connection ${flags.connection} needs the spec file that defines it`,
        `e.g. pvectl ${command} --file cluster.yaml --connection ${flags.connection} ...`,
      );
    }
    return new PveClient({ ...clientOptionsFromEnv(), ...extra });
  }
  const [{ loadSpecFiles }, { resolveConnection }, { UsageError }] = await Promise.all([
    import("../../sources/spec/index.js"),
    import("../../sources/connections.js"),
    import("./plan.js"),
  ]);
  const spec = await loadSpecFiles(files);
  const defined = Object.keys(spec.connections).sort();
  // One connection in the file is unambiguous; with several, the operator must pick.
  const name = flags.connection ?? (defined.length === 1 ? defined[0] : undefined);
  if (name === undefined && defined.length > 1) {
    throw new UsageError(
      `${files.join(", ")} define${files.length === 1 ? "s" : ""} ${defined.length} connections (${defined.join(", ")}); pvectl works on one cluster at a time`,
      `add --connection NAME, e.g. pvectl ${command} --file ${files[0]} --connection ${defined[0]} ...`,
    );
  }
  return new PveClient({ ...resolveConnection(spec, name), ...extra });
}
