// The escape hatch: any VM config key of PVE's schema that the structured model does not own
// (rng0, spice_enhancements, args, hookscript ...), checked against the schema the way PVE's
// own API would check it, so a typo fails here instead of halfway through an apply.
import { subSchemaOf } from "../../pve/guest-schema.js";
import { parsePropertyString } from "../../pve/property-string.js";
import { type ParamValue, validateValue } from "../../pve/validate.js";
import { volumeIdProblem } from "../../pve/volume-id.js";
import type { ParamSchema } from "../../schema/types.js";
import { expandIndexedName } from "../../schema/index.js";
import { isNotSettable, ownedKeyHint } from "./owned-keys.js";
import { configKeySchema, qemuConfigEndpoint } from "./pve-facts.js";
import { didYouMean } from "./suggest.js";

export type ExtraConfigCheck =
  | { ok: true; value: string | number }
  | { ok: false; message: string /** Which part is wrong, for the position. */; part: "key" | "value" };

let settableKeys: string[] | undefined;

/** Every concrete key that may appear in extraConfig (for suggestions). */
function extraConfigKeys(): string[] {
  if (!settableKeys) {
    const names: string[] = [];
    for (const [key, schema] of Object.entries(qemuConfigEndpoint().params)) {
      for (const name of expandIndexedName(key, schema)) {
        if (name === "node" || name === "vmid" || isNotSettable(name) || ownedKeyHint(name)) continue;
        names.push(name);
      }
    }
    settableKeys = names;
  }
  return settableKeys;
}

/** Keys whose volumes PVE only reads from a storage's snippets folder (check_hookscript, cicustom). */
const SNIPPET_KEYS = new Set(["hookscript", "cicustom"]);

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

const VOLUME_ID_FORMAT = "pve-volume-id";

function oneLine(message: string): string {
  return message
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("; ");
}

/** Checks one escape-hatch entry; booleans become 1/0 as PVE stores them. */
export function checkExtraConfig(key: string, value: string | number | boolean): ExtraConfigCheck {
  const owned = ownedKeyHint(key);
  if (owned)
    return {
      ok: false,
      part: "key",
      message: `\`${key}\` has a place of its own in the spec: write it as ${owned}, not under extraConfig`,
    };
  if (key === "node" || key === "vmid" || isNotSettable(key)) {
    return {
      ok: false,
      part: "key",
      message: `\`${key}\` cannot be set through a spec (PVE keeps it itself or it belongs to a single API call)`,
    };
  }
  const schema = configKeySchema(key);
  if (!schema) {
    return { ok: false, part: "key", message: `\`${key}\` is not a VM config key in PVE's schema${didYouMean(key, extraConfigKeys())}` };
  }
  const result = validateValue(schema, value, key, { lenientBooleans: true });
  if (result.error !== undefined) {
    return { ok: false, part: "value", message: `PVE would refuse ${JSON.stringify(value)} for \`${key}\`: ${oneLine(result.error)}` };
  }
  const volumeProblem = volumeIdsProblem(key, schema, String(result.value ?? value));
  if (volumeProblem)
    return { ok: false, part: "value", message: `PVE would refuse ${JSON.stringify(value)} for \`${key}\`: ${volumeProblem}` };
  const checked: ParamValue | undefined = result.value;
  if (typeof checked === "string" || typeof checked === "number") return { ok: true, value: checked };
  return { ok: true, value: String(value) };
}
