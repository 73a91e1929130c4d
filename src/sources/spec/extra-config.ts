// The escape hatch: any VM config key of PVE's schema that the structured model does not own
// (rng0, spice_enhancements, args, hookscript ...), checked against the schema the way PVE's
// own API would check it, so a typo fails here instead of halfway through an apply.
import { type ParamValue, validateValue } from "../../pve/validate.js";
import { expandIndexedName } from "../../schema/index.js";
import { isNotSettable, ownedKeyHint } from "./owned-keys.js";
import { configKeySchema, qemuConfigEndpoint } from "./pve-facts.js";
import { didYouMean } from "./suggest.js";

export type ExtraConfigCheck = { ok: true; value: string | number } | { ok: false; message: string; /** Which part is wrong, for the position. */ part: "key" | "value" };

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
  if (owned) return { ok: false, part: "key", message: `\`${key}\` has a place of its own in the spec: write it as ${owned}, not under extraConfig` };
  if (key === "node" || key === "vmid" || isNotSettable(key)) {
    return { ok: false, part: "key", message: `\`${key}\` cannot be set through a spec (PVE keeps it itself or it belongs to a single API call)` };
  }
  const schema = configKeySchema(key);
  if (!schema) {
    return { ok: false, part: "key", message: `\`${key}\` is not a VM config key in PVE's schema${didYouMean(key, extraConfigKeys())}` };
  }
  const result = validateValue(schema, value, key, { lenientBooleans: true });
  if (result.error !== undefined) {
    return { ok: false, part: "value", message: `PVE would refuse ${JSON.stringify(value)} for \`${key}\`: ${oneLine(result.error)}` };
  }
  const checked: ParamValue | undefined = result.value;
  if (typeof checked === "string" || typeof checked === "number") return { ok: true, value: checked };
  return { ok: true, value: String(value) };
}
