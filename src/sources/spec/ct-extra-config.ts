// A container's escape hatch: any config key of PVE's container schema the structured model
// does not own (tty, cmode, hookscript, dev0 ...), checked as PVE's API would check it.
import { guestConfigEndpoint, guestKeySchema } from "../../pve/guest-schema.js";
import { validateValue } from "../../pve/validate.js";
import { volumeIdProblem } from "../../pve/volume-id.js";
import { expandIndexedName } from "../../schema/index.js";
import { canonical } from "../../resources/formats.js";
import { ctNotSettable, ctOwnedKeyHint } from "./ct-owned-keys.js";
import type { ExtraConfigCheck } from "./extra-config.js";
import { didYouMean } from "./suggest.js";

let settable: string[] | undefined;

function settableKeys(): string[] {
  settable ??= Object.entries(guestConfigEndpoint("lxc").params).flatMap(([key, schema]) =>
    expandIndexedName(key, schema).filter((name) => name !== "node" && name !== "vmid" && !ctNotSettable(name) && !ctOwnedKeyHint(name)),
  );
  return settable;
}

function oneLine(message: string): string {
  return message
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .join("; ");
}

/** Checks one container extraConfig entry; the value comes back as PVE stores it (booleans 1/0). */
export function checkCtExtraConfig(key: string, value: string | number | boolean): ExtraConfigCheck {
  const owned = ctOwnedKeyHint(key);
  if (owned)
    return {
      ok: false,
      part: "key",
      message: `\`${key}\` has a place of its own in the spec: write it as ${owned}, not under extraConfig`,
    };
  if (key === "node" || key === "vmid" || ctNotSettable(key)) {
    return {
      ok: false,
      part: "key",
      message: `\`${key}\` cannot be set through a spec (PVE keeps it itself or it belongs to a single API call)`,
    };
  }
  const schema = guestKeySchema("lxc", key);
  if (!schema)
    return {
      ok: false,
      part: "key",
      message: `\`${key}\` is not a container config key in PVE's schema${didYouMean(key, settableKeys())}`,
    };
  const result = validateValue(schema, value, key, { lenientBooleans: true });
  if (result.error !== undefined)
    return { ok: false, part: "value", message: `PVE would refuse ${JSON.stringify(value)} for \`${key}\`: ${oneLine(result.error)}` };
  // A hookscript is a volume PVE reads from a storage's snippets folder (check_hookscript).
  const problem = key === "hookscript" ? volumeIdProblem(String(result.value ?? value), "snippets") : undefined;
  if (problem) return { ok: false, part: "value", message: `PVE would refuse ${JSON.stringify(value)} for \`${key}\`: ${problem}` };
  const checked = result.value;
  return { ok: true, value: typeof checked === "number" ? checked : canonical(typeof checked === "string" ? checked : String(value)) };
}
