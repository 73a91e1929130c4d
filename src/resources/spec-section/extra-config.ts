// The escape hatch every guest kind offers (`extraConfig:`): any config key of PVE's schema
// that the kind's structured model does not own, checked the way PVE's API would check it, so
// a typo fails while the spec is read instead of halfway through an apply. The order of the
// checks and their messages are one for all kinds; what differs (the schema, the keys a kind
// owns, how a value is stored) comes from the kind.
import { subSchemaOf } from "../../pve/guest-schema.js";
import { parsePropertyString } from "../../pve/property-string.js";
import { type ParamValue, validateValue } from "../../pve/validate.js";
import { volumeIdProblem } from "../../pve/volume-id.js";
import { expandIndexedName } from "../../schema/index.js";
import type { ParamSchema } from "../../schema/types.js";
import { didYouMean } from "./suggest.js";

export type ExtraConfigCheck =
  | { ok: true; value: string | number }
  | { ok: false; message: string /** Which part is wrong, for the position. */; part: "key" | "value" };

/** What a kind tells the shared check. */
export interface ExtraConfigRules {
  /** How messages name the guest ("VM", "container"). */
  noun: string;
  /** The config parameters of the kind's update endpoint (every key, for suggestions). */
  params(): Record<string, ParamSchema>;
  /** The schema of one concrete key (`net0`, `hookscript`); undefined: not a key of the kind. */
  keySchema(key: string): ParamSchema | undefined;
  /** Where the spec writes a key the structured model owns; undefined: not owned. */
  ownedKeyHint(key: string): string | undefined;
  /** Keys PVE keeps itself or that belong to a single API call. */
  notSettable(key: string): boolean;
  /** The checked value as the kind's desired model holds it. */
  stored(checked: ParamValue | undefined, written: string | number | boolean): string | number;
}

/** Keys whose volumes PVE only reads from a storage's snippets folder (check_hookscript, cicustom). */
const SNIPPET_KEYS = new Set(["hookscript", "cicustom"]);
const VOLUME_ID_FORMAT = "pve-volume-id";

/**
 * The storage layer's verdict on the volume ids in a value the schema already accepted: the
 * value itself (`hookscript`) or property-string parts (`cicustom: user=...`) of format
 * pve-volume-id. The schema's format check only looks at `STORAGE:` in front.
 */
function volumeIdsProblem(key: string, schema: ParamSchema, value: string): string | undefined {
  const content = SNIPPET_KEYS.has(key) ? "snippets" : undefined;
  if (schema.format === VOLUME_ID_FORMAT) return volumeIdProblem(value, content);
  const sub = subSchemaOf(schema);
  if (!sub) return undefined;
  const parts = parsePropertyString(value, sub, key);
  for (const [name, part] of Object.entries(parts)) {
    const problem = sub[name]?.format === VOLUME_ID_FORMAT ? volumeIdProblem(String(part), content) : undefined;
    if (problem) return `${name}=${String(part)} ${problem}`;
  }
  return undefined;
}

function oneLine(message: string): string {
  return message
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("; ");
}

/** The extraConfig check of one kind: each entry checked, its value as the kind stores it. */
export function extraConfigChecker(rules: ExtraConfigRules): (key: string, value: string | number | boolean) => ExtraConfigCheck {
  let settable: string[] | undefined;
  // Every concrete key that may appear in extraConfig, for "did you mean"; built on first use.
  const settableKeys = (): string[] => {
    settable ??= Object.entries(rules.params()).flatMap(([key, schema]) =>
      expandIndexedName(key, schema).filter(
        (name) => name !== "node" && name !== "vmid" && !rules.notSettable(name) && !rules.ownedKeyHint(name),
      ),
    );
    return settable;
  };
  return (key, value) => {
    const owned = rules.ownedKeyHint(key);
    if (owned)
      return {
        ok: false,
        part: "key",
        message: `\`${key}\` has a place of its own in the spec: write it as ${owned}, not under extraConfig`,
      };
    if (key === "node" || key === "vmid" || rules.notSettable(key)) {
      return {
        ok: false,
        part: "key",
        message: `\`${key}\` cannot be set through a spec (PVE keeps it itself or it belongs to a single API call)`,
      };
    }
    const schema = rules.keySchema(key);
    if (!schema)
      return {
        ok: false,
        part: "key",
        message: `\`${key}\` is not a ${rules.noun} config key in PVE's schema${didYouMean(key, settableKeys())}`,
      };
    const result = validateValue(schema, value, key, { lenientBooleans: true });
    if (result.error !== undefined)
      return { ok: false, part: "value", message: `PVE would refuse ${JSON.stringify(value)} for \`${key}\`: ${oneLine(result.error)}` };
    const volumeProblem = volumeIdsProblem(key, schema, String(result.value ?? value));
    if (volumeProblem)
      return { ok: false, part: "value", message: `PVE would refuse ${JSON.stringify(value)} for \`${key}\`: ${volumeProblem}` };
    return { ok: true, value: rules.stored(result.value, value) };
  };
}
