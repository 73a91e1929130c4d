// `pvectl access needs -c netbox.yaml` / `access check -c netbox.yaml`: the NetBox config's side
// of the access command. A NetBox config given where spec files go is recognised by its shape
// (a top-level `clusters:` mapping, which no spec has) and refused with the flag to use.
import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import { checkNetboxAccess, type NetboxAccessNeeds, type NetboxNeedsOptions } from "../../app/access-netbox.js";
import type { AccessCheck } from "../../app/access.js";
import type { PveClient } from "../../app/connection.js";
import { specContentKeys } from "../../app/spec-target.js";
import { loadNetboxConfig, type NetboxConfig } from "../../app/netbox/setup.js";
import { safeLine } from "../../util/safe-text.js";
import { pveClients } from "./netbox-setup.js";
import { UsageError } from "./usage-error.js";

/** The top-level keys of a YAML file (unreadable or not a mapping: none). */
async function topKeys(file: string): Promise<string[]> {
  try {
    const value: unknown = parse(await readFile(file, "utf8"));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
  } catch {
    return [];
  }
}

/** Whether `file` holds a NetBox sync config rather than a spec. */
async function isNetboxConfig(file: string): Promise<boolean> {
  return (await topKeys(file)).includes("clusters");
}

/** Whether `file` holds a spec rather than a NetBox sync config. */
async function isSpec(file: string): Promise<boolean> {
  const keys = await topKeys(file);
  return !keys.includes("clusters") && specContentKeys().some((k) => keys.includes(k));
}

/**
 * Runs the spec side; when it fails on a file that is a NetBox config, says so instead of
 * listing the config's keys as unknown spec keys.
 */
export async function refusingNetboxConfigs<T>(files: string[], command: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    for (const file of files) {
      if (await isNetboxConfig(file)) {
        throw new UsageError(
          `${safeLine(file)} is a NetBox sync config, not a spec file`,
          `give it with -c: pvectl access ${command} -c ${safeLine(file)}`,
        );
      }
    }
    throw err;
  }
}

/** The NetBox config of `-c`, refused together with spec files (each is a different token's work). */
export async function netboxConfigOf(file: string, specFiles: string[], command: string): Promise<NetboxConfig> {
  if (specFiles.length > 0) {
    throw new UsageError(
      `give either spec files or a NetBox config (-c), not both (${specFiles.map(safeLine).join(", ")} and ${safeLine(file)})`,
      `run pvectl access ${command} once per token: -c netbox.yaml for the NetBox sync token, spec files for the deploy token`,
    );
  }
  if (await isSpec(file)) {
    throw new UsageError(
      `${safeLine(file)} is a spec file, not a NetBox sync config`,
      `give it without -c: pvectl access ${command} ${safeLine(file)}`,
    );
  }
  return loadNetboxConfig(file);
}

/** The clusters' connection the check runs on: the one given, else the one every cluster in scope uses. */
function connectionOf(config: NetboxConfig, given: string | undefined): string | undefined {
  if (given !== undefined) {
    if (!Object.values(config.clusters).some((c) => c.connection === given)) {
      const used = [...new Set(Object.values(config.clusters).flatMap((c) => (c.connection ? [c.connection] : [])))];
      throw new UsageError(
        `no cluster of ${safeLine(config.file)} uses connection ${safeLine(given)}`,
        used.length ? `pick one of: ${used.join(", ")}` : "its clusters use the PROXMOX_* environment: leave --connection out",
      );
    }
    return given;
  }
  const names = [...new Set(Object.values(config.clusters).map((c) => c.connection ?? "(PROXMOX_* environment)"))];
  if (names.length > 1) {
    throw new UsageError(
      `the NetBox config's clusters use ${names.length} connections (${names.join(", ")}); access check reads one cluster at a time`,
      `add --connection NAME, e.g. pvectl access check -c ${safeLine(config.file)} --connection ${names.find((n) => !n.startsWith("(")) ?? "NAME"} --token ...`,
    );
  }
  return Object.values(config.clusters)[0]?.connection;
}

/** `access check -c`: what the token lacks in PVE of what the config's sync, serve and decommission need. */
export async function checkNetboxConfig(
  config: NetboxConfig,
  subject: string,
  connection: string | undefined,
  options: NetboxNeedsOptions,
): Promise<AccessCheck> {
  const on = connectionOf(config, connection);
  const clients = pveClients(config);
  try {
    const client: PveClient = clients.get(on);
    return await checkNetboxAccess(client, config, subject, { ...options, ...(on !== undefined ? { connection: on } : {}) });
  } finally {
    await clients.close();
  }
}

/** The NetBox token's permissions, one line per object type and action. */
export function renderNetboxPermissions(needs: NetboxAccessNeeds): string {
  if (needs.netbox.length === 0) return "";
  const width = Math.max(...needs.netbox.map((p) => `${p.objectType} ${p.action}`.length));
  const lines = ["NetBox token (object permissions of its user: object type, action, commands, why):"];
  for (const p of needs.netbox) lines.push(`  ${`${p.objectType} ${p.action}`.padEnd(width)}  ${p.commands.join(", ")}: ${p.why}`);
  return `${lines.join("\n")}\n`;
}
