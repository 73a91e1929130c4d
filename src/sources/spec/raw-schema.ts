// The shape of a spec file as a user writes it (before normalization), as a zod schema.
// It is both the validator (strict: unknown keys are errors) and the source of the JSON Schema
// that editors use for completion. Each guest kind and object family declares its own section's
// schema; this file puts them together with the connections, in the registries' order.
import { z } from "zod";
import { guestKinds } from "../../resources/index.js";
import { objectSectionSchemas } from "../../resources/objects.js";
import { CONNECTION_NAME, FINGERPRINT, TOKEN_NAME, USER_ID, envName, pattern } from "../../resources/spec-section/zod-values.js";

export { SPEC_PATTERNS } from "../../resources/spec-section/zod-values.js";

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
  // Each registered guest kind's section (vms, containers ...): a list of its entries.
  const guestSections: Record<string, z.ZodType> = Object.fromEntries(
    guestKinds().map((kind) => [kind.spec.key, z.array(kind.spec.schema()).optional().describe(kind.spec.description)]),
  );
  // Each registered object family's section (backupJobs, access ...), in the registry's order.
  const objectSections: Record<string, z.ZodType> = Object.fromEntries(objectSectionSchemas());
  const file = z
    .strictObject({
      version: z.literal(1).optional().describe("Spec format version (1)."),
      connections: z
        .record(pattern(CONNECTION_NAME, "letters, digits, '.', '-' and '_'"), connection)
        .optional()
        .describe("Named cluster connections."),
      ...guestSections,
      ...objectSections,
    })
    .describe("A pvectl spec file: the desired state of guests on Proxmox VE clusters.");
  return { file, connection };
}

/** The zod schemas of a spec file and of one connection (built once from the PVE facts; each guest kind's entry schema is its own). */
export function specSchemas(): ReturnType<typeof buildSpecFileSchema> {
  cached ??= buildSpecFileSchema();
  return cached;
}

export type RawConnection = z.output<ReturnType<typeof buildSpecFileSchema>["connection"]>;
