// Zod types for the values a spec writes (names, sizes, volume ids, PVE-typed numbers), shared
// by the VM and container schemas so both accept and explain a value the same way.
import { z } from "zod";
import { USER_ID_RE } from "../../pve/auth-id.js";
import { volumeIdProblem } from "../../pve/volume-id.js";
import type { ParamSchema } from "../../schema/types.js";

// ---- value formats (facts of PVE's formats, written as patterns) ----

export const DNS_NAME = /^([a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?\.)*[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$/;
export const NODE_NAME = /^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$/;
export const STORAGE_ID = /^[a-zA-Z][a-zA-Z0-9\-_.]*[a-zA-Z0-9]$/;
/** A pool id as PVE 8.1+ takes it: up to three levels (`team/web/prod`), each letters, digits, '.', '-' and '_'. */
export const POOL_ID = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+){0,2}$/;
/** A pool id, or "" for "in no pool". */
export const POOL_ID_OR_NONE = /^(?:[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+){0,2})?$/;
/** How a pool id is explained where one is refused. */
export const POOL_ID_RULE = "letters, digits, '.', '-' and '_', nested up to three levels with '/' (team/web)";
export const BRIDGE_ID = /^[-_.\w\d]+$/;
export const TAG = /^[a-zA-Z0-9_][a-zA-Z0-9_\-+.]*$/;
export const MAC = /^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$/;
export const SIZE_WITH_UNIT = /^\d+(\.\d+)?\s*[KMGT](iB)?$/;
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const FINGERPRINT = /^([0-9a-fA-F]{2}:){31}[0-9a-fA-F]{2}$|^[0-9a-fA-F]{64}$/;
export const CONNECTION_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/;
/** pve/auth-id.ts: a user id (its length is checked where it is used). */
export const USER_ID = USER_ID_RE;
export const TOKEN_NAME = /^[A-Za-z][A-Za-z0-9.\-_]+$/;
export const VOLUME_ID = /^[a-zA-Z][a-zA-Z0-9\-_.]*[a-zA-Z0-9]:.+$/;
export const IPV4_CIDR = /^(\d{1,3}\.){3}\d{1,3}\/\d{1,2}$/;
export const IPV4 = /^(\d{1,3}\.){3}\d{1,3}$/;
export const IP_ADDRESS = /^((\d{1,3}\.){3}\d{1,3}|[0-9a-fA-F:]*:[0-9a-fA-F:.]*)$/;

export const SPEC_PATTERNS = { SIZE_WITH_UNIT, MAC, TAG, IPV4_CIDR };

export const sizeHint = "a size with a unit: K, M, G or T (powers of 1024), e.g. 32G or 512M";

/** A size string with a unit; a bare number gets told to add one (32 could be bytes or GiB). */
export function sizeString(what: string) {
  return z
    .string({
      error: (issue) =>
        typeof issue.input === "number"
          ? `${issue.input} has no unit; write ${issue.input}G for ${issue.input} GiB (units: K, M, G, T, powers of 1024)`
          : issue.input === undefined
            ? `${what} is required (${sizeHint})`
            : `expected ${sizeHint}`,
    })
    .regex(SIZE_WITH_UNIT, { error: (issue) => `\`${String(issue.input)}\` is not a size; write ${sizeHint}` });
}

/** Memory as MiB (a number, as PVE writes it) or a size with a unit. */
export function memoryValue(minimumMiB: number) {
  return z.union([z.number().int().min(minimumMiB), sizeString("memory")], {
    error: `expected MiB as a whole number (e.g. 2048) or ${sizeHint}`,
  });
}

/** Where the secret's *name* goes: a mistaken paste of the secret itself must not be echoed back. */
export function envName() {
  return z
    .string({ error: "must be the name of an environment variable; write the variable's name here, never the secret itself" })
    .regex(ENV_NAME, {
      error:
        "is not an environment variable name (letters, digits and _, not starting with a digit); write the variable's name here, never the secret itself",
    });
}

/** A volume id PVE's storage layer would read (no `..`, one file name under iso/, import/ ...). */
export function volumeId(explanation: string) {
  return pattern(VOLUME_ID, explanation).superRefine((value, ctx) => {
    const problem = VOLUME_ID.test(value) ? volumeIdProblem(value) : undefined;
    if (problem) ctx.addIssue({ code: "custom", message: `\`${value}\` ${problem}` });
  });
}

export function pattern(regex: RegExp, explanation: string) {
  return z.string().regex(regex, { error: (issue) => `\`${String(issue.input)}\` is not valid: ${explanation}` });
}

/** A zod type for one key of a PVE property string (drive options): type, enum and range. */
export function fromPveParam(schema: ParamSchema): z.ZodType {
  if (schema.enum) return z.enum(schema.enum as [string, ...string[]]);
  switch (schema.type) {
    case "boolean":
      return z.boolean();
    case "integer": {
      let value = z.number().int();
      if (schema.minimum !== undefined) value = value.min(schema.minimum);
      if (schema.maximum !== undefined) value = value.max(schema.maximum);
      return value;
    }
    case "number": {
      let value = z.number();
      if (schema.minimum !== undefined) value = value.min(schema.minimum);
      if (schema.maximum !== undefined) value = value.max(schema.maximum);
      return value;
    }
    default:
      return z.string();
  }
}

// One value schema shared by every slot, so the JSON Schema defines it once ($defs).
export function slotsObject<T extends z.ZodType>(slots: string[], value: T, description: string) {
  const shape: Record<string, z.ZodOptional<T>> = {};
  const optional = value.optional();
  for (const slot of slots) shape[slot] = optional;
  return z.strictObject(shape).describe(description);
}

export function tagsSchema() {
  return z.array(pattern(TAG, "letters, digits and _ - + . (not starting with - + .)"));
}
