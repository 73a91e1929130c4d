// The shape of a spec file as a user writes it (before normalization), as a zod schema.
// It is both the validator (strict: unknown keys are errors) and the source of the JSON Schema
// that editors use for completion. Each guest kind and object family declares its own section's
// schema; this file puts them together with the connections.
import { z } from "zod";
import { vmSchema } from "../../resources/qemu/spec-schema.js";
import { ctSchema } from "../../resources/lxc/spec-schema.js";
import { objectSectionSchemas } from "../../resources/objects.js";
import { CONNECTION_NAME, FINGERPRINT, TOKEN_NAME, USER_ID, envName, pattern } from "../../resources/spec-section/zod-values.js";

export { SPEC_PATTERNS } from "../../resources/spec-section/zod-values.js";
export type { RawAgent, RawVm } from "../../resources/qemu/spec-schema.js";

function connectionSchema() {
  return z
    .strictObject({
      host: z.string().min(1).describe("Host name or address of any cluster node."),
      port: z.number().int().min(1).max(65535).optional().describe("Default 8006."),
      user: pattern(USER_ID, "user@realm, e.g. automation@pve").optional(),
      tokenId: pattern(TOKEN_NAME, "the token name only (the part after `!`), e.g. pvectl").optional(),
      passwordEnv: envName().optional().describe("Environment variable holding the password."),
      passwordFile: z.string().min(1).optional().describe("File holding the password."),
      tokenSecretEnv: envName().optional().describe("Environment variable holding the token secret."),
      tokenSecretFile: z.string().min(1).optional().describe("File holding the token secret."),
      fingerprint: pattern(FINGERPRINT, "a SHA-256 fingerprint, 32 hex byte pairs separated by ':'")
        .optional()
        .describe("Pin the server certificate by its SHA-256 fingerprint."),
      caPath: z.string().min(1).optional().describe("PEM file of the CA that signed the cluster certificate."),
      validateCerts: z.boolean().optional().describe("Default true. false sends credentials to whoever answers."),
    })
    .meta({ id: "Connection", description: "A cluster connection. Secrets are referenced (env var or file), never written inline." });
}

let cached: ReturnType<typeof buildSpecFileSchema> | undefined;

function buildSpecFileSchema() {
  const connection = connectionSchema();
  const vm = vmSchema();
  const ct = ctSchema();
  // Each registered object family's section (backupJobs, access ...), in the registry's order.
  const objectSections: Record<string, z.ZodType> = Object.fromEntries(objectSectionSchemas());
  const file = z
    .strictObject({
      version: z.literal(1).optional().describe("Spec format version (1)."),
      connections: z
        .record(pattern(CONNECTION_NAME, "letters, digits, '.', '-' and '_'"), connection)
        .optional()
        .describe("Named cluster connections."),
      vms: z.array(vm).optional().describe("QEMU virtual machines."),
      containers: z.array(ct).optional().describe("LXC containers."),
      ...objectSections,
    })
    .describe("A pvectl spec file: the desired state of guests on Proxmox VE clusters.");
  return { file, vm, ct, connection };
}

/** The zod schemas of a spec file, one VM and one connection (built once from the PVE facts). */
export function specSchemas(): ReturnType<typeof buildSpecFileSchema> {
  cached ??= buildSpecFileSchema();
  return cached;
}

export type RawSpecFile = z.output<ReturnType<typeof buildSpecFileSchema>["file"]>;
export type RawConnection = z.output<ReturnType<typeof buildSpecFileSchema>["connection"]>;
