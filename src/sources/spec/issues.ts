// Turns zod's validation issues into messages a person can act on: what is wrong, in plain
// words, with a "did you mean" for misspelt keys and values. A pointer to the right field when
// someone writes PVE's or another tool's name for something comes from the guest kind whose
// entry it is (its spec section's `unknownKeyMessage`).
import { z } from "zod";
import type { SpecIssue, SpecPath } from "./errors.js";
import { guestKinds, type UnknownKeyMessage } from "../../resources/index.js";
import { ownEntry } from "../../resources/spec-section/own.js";
import { didYouMean } from "../../resources/spec-section/suggest.js";
import type { YamlDocument } from "./yaml-source.js";

type Issue = z.core.$ZodIssue;

/** Secret-looking keys refused in a connection, and what to write instead. */
const INLINE_SECRET_KEYS: Record<string, string> = {
  password: "passwordEnv: VARIABLE` or `passwordFile: path",
  tokenSecret: "tokenSecretEnv: VARIABLE` or `tokenSecretFile: path",
  token_secret: "tokenSecretEnv: VARIABLE` or `tokenSecretFile: path",
  secret: "tokenSecretEnv: VARIABLE` or `tokenSecretFile: path",
  api_password: "passwordEnv: VARIABLE` or `passwordFile: path",
  api_token_secret: "tokenSecretEnv: VARIABLE` or `tokenSecretFile: path",
};

export function inlineSecretMessage(key: string): string | undefined {
  const instead = ownEntry(INLINE_SECRET_KEYS, key);
  if (!instead) return undefined;
  return `inline secrets are not accepted: a spec file ends up in version control, reviews and logs. Put the secret in an environment variable or a file readable only by you, and write \`${instead}\``;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

function childSchema(schema: z.ZodType, step: string | number): z.ZodType | undefined {
  const current = unwrap(schema);
  if (current instanceof z.ZodObject) return ownEntry(current.shape as Record<string, z.ZodType>, String(step));
  if (current instanceof z.ZodArray) return current.element as z.ZodType;
  if (current instanceof z.ZodRecord) return current.valueType as z.ZodType;
  if (current instanceof z.ZodUnion) {
    for (const option of current.options as z.ZodType[]) {
      const child = childSchema(option, step);
      if (child) return child;
    }
  }
  return undefined;
}

/** The keys an object accepts at `path` of `root` (empty when there is no object there). */
export function allowedKeysAt(root: z.ZodType, path: SpecPath): string[] {
  let schema: z.ZodType | undefined = root;
  for (const step of path) {
    schema = schema ? childSchema(schema, step) : undefined;
  }
  if (!schema) return [];
  const current = unwrap(schema);
  if (current instanceof z.ZodObject) return Object.keys(current.shape);
  if (current instanceof z.ZodUnion) {
    return (current.options as z.ZodType[]).flatMap((option) => {
      const inner = unwrap(option);
      return inner instanceof z.ZodObject ? Object.keys(inner.shape) : [];
    });
  }
  return [];
}

/**
 * For a spec file: the wording of the guest kind whose entry holds the key (`vms[0]...` asks
 * the qemu kind, `containers[0]...` the lxc kind), at the path inside that entry.
 */
export const guestSectionKeyMessage: UnknownKeyMessage = (parent, key, allowed) => {
  const [section, index] = parent;
  if (typeof index !== "number") return undefined;
  const kind = guestKinds().find((k) => k.spec.key === section);
  return kind?.spec.unknownKeyMessage(parent.slice(2), key, allowed);
};

/** What to say about one unknown key at `parent`; `hints`: the wording of the schema's own sections. */
function unknownKeyMessage(parent: SpecPath, key: string, allowed: string[], hints: UnknownKeyMessage): string {
  if (parent.length === 2 && parent[0] === "connections") {
    const secret = inlineSecretMessage(key);
    if (secret) return secret;
  }
  if (parent[parent.length - 1] === "cloudInit" && (key === "password" || key === "cipassword")) {
    return "a cloud-init password in a spec file ends up in version control and logs; give `sshKeys` instead, or set the password out of band";
  }
  return hints(parent, key, allowed) ?? `unknown key \`${key}\`${didYouMean(key, allowed)}`;
}

/** Long runs of slot names read better as ranges: "scsi0-scsi30, virtio0-virtio15". */
function compactList(values: string[]): string {
  const slot = /^([a-z]+)(\d+)$/;
  if (values.length <= 12 || !values.every((v) => slot.test(v))) return values.join(", ");
  const ranges = new Map<string, string[]>();
  for (const value of values) {
    const base = (slot.exec(value) as RegExpExecArray)[1] as string;
    ranges.set(base, [...(ranges.get(base) ?? []), value]);
  }
  return [...ranges.values()].map((run) => (run.length === 1 ? run[0] : `${run[0]}-${run[run.length - 1]}`)).join(", ");
}

/** A value as messages echo it: long ones cut, so a pasted blob does not flood the terminal. */
function shown(text: string): string {
  return text.length <= 80 ? text : `${text.slice(0, 60)}… (${text.length} characters)`;
}

function describeValue(value: unknown): string {
  if (value === null) return "null (an empty value)";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return `the string "${shown(value)}"`;
  return `${typeof value} ${String(value)}`;
}

const EXPECTED_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "a mapping",
  record: "a mapping",
};

/** For fields that PVE or proxmox_kvm write as one string: how to write them as a list. */
const LIST_EXAMPLES: Record<string, string> = {
  boot: "the boot order as a list of slots, e.g. `boot: [scsi0, ide2, net0]` (not PVE's `order=scsi0;ide2`)",
  sshKeys: 'one key per entry, e.g. `sshKeys: ["ssh-ed25519 AAAA... you@host"]`',
  tags: "e.g. `tags: [web, production]`",
  nameservers: "e.g. `nameservers: [10.0.0.1, 10.0.0.2]`",
  searchDomains: "e.g. `searchDomains: [example.com]`",
  detach: "e.g. `detach: [scsi1]`",
};

function valueAt(data: unknown, path: SpecPath): unknown {
  let current = data;
  for (const step of path) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, step)) return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}

function hasOwnPath(data: unknown, path: SpecPath): boolean {
  if (path.length === 0) return true;
  const parent = valueAt(data, path.slice(0, -1));
  return parent !== null && typeof parent === "object" && Object.hasOwn(parent, path[path.length - 1] as PropertyKey);
}

function valueMessage(issue: Issue, data: unknown, path: SpecPath): string {
  const input = valueAt(data, path);
  switch (issue.code) {
    case "invalid_type": {
      // A custom message (e.g. "32 has no unit") is kept as written.
      if (!issue.message.startsWith("Invalid input")) return issue.message;
      if (!hasOwnPath(data, path)) return "is required";
      if (issue.expected === "boolean" && typeof input === "string" && /^(yes|no|on|off|y|n)$/i.test(input)) {
        return `expected true or false, got the string "${input}" (YAML 1.2 reads yes/no/on/off as strings)`;
      }
      const listHint =
        issue.expected === "array" && typeof input === "string" ? ownEntry(LIST_EXAMPLES, String(path[path.length - 1])) : undefined;
      if (listHint) return `expected a list, got ${describeValue(input)}; write ${listHint}`;
      return `expected ${ownEntry(EXPECTED_WORDS, issue.expected) ?? issue.expected}, got ${describeValue(input)}`;
    }
    case "too_small":
      if (issue.origin === "string") return "must not be empty";
      if (issue.origin === "array") return `must have at least ${issue.minimum} entries`;
      return `must be at least ${issue.minimum}, got ${String(input)}`;
    case "too_big":
      if (issue.origin === "string") return `must be at most ${issue.maximum} characters long`;
      if (issue.origin === "array") return `must have at most ${issue.maximum} entries`;
      return `must be at most ${issue.maximum}, got ${String(input)}`;
    case "invalid_value": {
      const allowed = issue.values.map(String);
      if (
        path[path.length - 1] === "state" &&
        typeof input === "string" &&
        ["started", "running", "stopped", "restarted"].includes(input)
      ) {
        return `\`${input}\` is not a state: \`state\` is present or absent; the power state is \`power: running\` or \`power: stopped\``;
      }
      if (allowed.length === 1) return `must be ${allowed[0]}, got ${describeValue(input)}`;
      const suggestion = typeof input === "string" ? didYouMean(input, allowed) : "";
      // A list or mapping where a word belongs is named as such, never printed as [object Object].
      const given = input !== null && typeof input === "object" ? describeValue(input) : `\`${shown(String(input))}\``;
      return `${given} is not one of ${compactList(allowed)}${suggestion}`;
    }
    case "invalid_key": {
      const inner = issue.issues[0];
      return `\`${String(path[path.length - 1])}\` is not a valid name${inner ? `: ${inner.message.replace(/^`[^`]*` is not valid: /, "")}` : ""}`;
    }
    default:
      return issue.message;
  }
}

/**
 * The spec issues for zod's issues on one YAML document checked against `root`. `hints` words
 * unknown keys where the schema's own sections know better (by the path of the key's parent);
 * without it, or when it has nothing to say, the general wording is used.
 */
export function specIssuesFromZod(
  issues: readonly Issue[],
  root: z.ZodType,
  data: unknown,
  doc: YamlDocument,
  hints: UnknownKeyMessage = () => undefined,
): SpecIssue[] {
  const out: SpecIssue[] = [];
  for (const issue of issues) {
    const path: SpecPath = issue.path as Array<string | number>;
    if (issue.code === "unrecognized_keys") {
      const allowed = allowedKeysAt(root, issue.path as Array<string | number>);
      for (const key of issue.keys) {
        const keyPath = [...path, key];
        out.push({ location: doc.locate(keyPath, "key"), path: keyPath, message: unknownKeyMessage(path, key, allowed, hints) });
      }
      continue;
    }
    out.push({
      location: doc.locate(path, issue.code === "invalid_key" ? "key" : "value"),
      path,
      message: valueMessage(issue, data, path),
    });
  }
  return out;
}
