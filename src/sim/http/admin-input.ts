// Checking what arrives at the admin API over HTTP against a declared shape, field by field,
// so a bad value ("abc" as a status, 1e308 seconds, a regex that does not compile, a typo in
// a field name) is a clear 400 naming the field, instead of a fault or a clock that misbehaves
// later. The shapes of the fault specs are typed against the specs themselves, so a field
// added to a spec does not compile until it has a rule here.
import type { RequestFaultSpec, TaskFaultSpec } from "../faults/rules.js";

export class AdminInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AdminInputError";
  }
}

export type FieldRule =
  | { kind: "string"; maxLength: number; pattern?: RegExp; hint?: string }
  | { kind: "regex" }
  | { kind: "boolean" }
  | { kind: "integer"; min: number; max: number }
  | { kind: "number"; min: number; max: number }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "integerOrString"; min: number; max: number; pattern: RegExp };

type Rule = FieldRule & { required?: true };

/** One rule per field of T: a field T gains is a compile error until it is described here. */
export type Shape<T> = { [K in keyof Required<T>]: Rule };

function describeRule(rule: FieldRule): string {
  switch (rule.kind) {
    case "string":
      return rule.hint ?? `a string of at most ${rule.maxLength} characters`;
    case "regex":
      return "a regular expression (string)";
    case "boolean":
      return "true or false";
    case "integer":
      return `a whole number from ${rule.min} to ${rule.max}`;
    case "number":
      return `a number from ${rule.min} to ${rule.max}`;
    case "enum":
      return `one of ${rule.values.join(", ")}`;
    case "integerOrString":
      return `a whole number from ${rule.min} to ${rule.max}, or an id string`;
  }
}

function fits(rule: FieldRule, value: unknown): boolean {
  switch (rule.kind) {
    case "string":
      return typeof value === "string" && value.length <= rule.maxLength && (!rule.pattern || rule.pattern.test(value));
    case "regex":
      return typeof value === "string" && value.length <= 1000 && compiles(value);
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return Number.isInteger(value) && (value as number) >= rule.min && (value as number) <= rule.max;
    case "number":
      return typeof value === "number" && Number.isFinite(value) && value >= rule.min && value <= rule.max;
    case "enum":
      return typeof value === "string" && rule.values.includes(value);
    case "integerOrString":
      return fits({ kind: "integer", min: rule.min, max: rule.max }, value) || (typeof value === "string" && rule.pattern.test(value));
  }
}

function compiles(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/** `body` checked against `shape`: an object with known fields only, each fitting its rule. */
export function readShape<T>(body: unknown, shape: Shape<T>, what: string): T {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new AdminInputError(`${what}: the body must be a JSON object`);
  const rules = shape as Record<string, Rule>;
  for (const [field, value] of Object.entries(body)) {
    const rule = rules[field];
    if (!rule) {
      const known = Object.keys(rules);
      throw new AdminInputError(
        `${what}: unknown field '${field}'${known.length ? ` (known: ${known.join(", ")})` : " (send {} or no body)"}`,
      );
    }
    if (!fits(rule, value)) throw new AdminInputError(`${what}: '${field}' must be ${describeRule(rule)}, not ${JSON.stringify(value)}`);
  }
  for (const [field, rule] of Object.entries(rules)) {
    if (rule.required && (body as Record<string, unknown>)[field] === undefined) {
      throw new AdminInputError(`${what}: '${field}' is required (${describeRule(rule)})`);
    }
  }
  return body as T;
}

/** A path segment that must be a whole number (fault ids, vmids). */
export function readIdSegment(segment: string | undefined, min: number, what: string): number {
  const n = Number(segment);
  if (!segment || !/^\d+$/.test(segment) || !Number.isSafeInteger(n) || n < min) {
    throw new AdminInputError(`${what}: '${segment ?? ""}' is not a whole number from ${min}`);
  }
  return n;
}

const TIMES: Rule = { kind: "integer", min: 1, max: 1_000_000_000 };
const MESSAGE: Rule = { kind: "string", maxLength: 1000 };
const NODE_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const VMID: Rule = { kind: "integer", min: 100, max: 999_999_999 };
/** Every lock value of PVE 9's qemu and lxc config schemas. */
const LOCKS = [
  "backup",
  "clone",
  "create",
  "destroyed",
  "disk",
  "fstrim",
  "migrate",
  "mounted",
  "rollback",
  "snapshot",
  "snapshot-delete",
  "suspending",
  "suspended",
];

// A field added to RequestFaultSpec or TaskFaultSpec (a new fault kind) fails to compile
// here ("Property ... is missing") until it gets its rule: that is the point.
export const REQUEST_FAULT_SHAPE: Shape<RequestFaultSpec> = {
  method: { kind: "string", maxLength: 6, pattern: /^(?:GET|POST|PUT|DELETE)$/i, hint: "GET, POST, PUT or DELETE" },
  path: { kind: "regex" },
  status: { kind: "integer", min: 400, max: 599 },
  message: MESSAGE,
  latencyMs: { kind: "integer", min: 0, max: 600_000 },
  drop: { kind: "boolean" },
  dropResponse: { kind: "boolean" },
  responseDelayMs: { kind: "integer", min: 0, max: 3_600_000 },
  times: TIMES,
  probability: { kind: "number", min: 0, max: 1 },
};

export const TASK_FAULT_SHAPE: Shape<TaskFaultSpec> = {
  type: { kind: "string", maxLength: 64, pattern: /^[A-Za-z0-9_-]+$/, hint: "a worker type such as qmstart" },
  vmid: { kind: "integerOrString", min: 0, max: 999_999_999, pattern: /^[A-Za-z0-9._:@-]{1,128}$/ },
  node: { kind: "string", maxLength: 63, pattern: NODE_NAME, hint: "a node name such as pve1" },
  message: MESSAGE,
  times: TIMES,
};

export const LOCK_SHAPE: Shape<{ vmid: number; lock?: string }> = {
  vmid: { ...VMID, required: true },
  lock: { kind: "enum", values: LOCKS },
};

/** Ten years: far enough for any expiry a test wants, small enough to keep dates valid. */
export const CLOCK_SHAPE: Shape<{ seconds: number }> = {
  seconds: { kind: "number", min: 0, max: 10 * 366 * 86_400, required: true },
};

export const TIMING_SHAPE: Shape<{ profile?: "instant" | "realistic"; timeScale?: number; workersPerNode?: number }> = {
  profile: { kind: "enum", values: ["instant", "realistic"] },
  timeScale: { kind: "number", min: 0.001, max: 1000 },
  workersPerNode: { kind: "integer", min: 1, max: 1024 },
};

export const WAIT_SHAPE: Shape<{ timeoutMs?: number }> = {
  timeoutMs: { kind: "integer", min: 1, max: 3_600_000 },
};

export const SAVE_SHAPE: Shape<{ file?: string }> = {
  file: { kind: "string", maxLength: 4096, pattern: /^[^\0]+$/, hint: "a file name" },
};

/** Operations that take no input: no body, or {}. */
export const EMPTY_SHAPE: Shape<Record<never, never>> = {};
