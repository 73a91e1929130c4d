// A container's escape hatch: any config key of PVE's container schema the structured model
// does not own (tty, cmode, hookscript, dev0 ...), checked by the check every kind shares.
import { guestConfigEndpoint, guestKeySchema } from "../../pve/guest-schema.js";
import { canonical } from "../formats.js";
import { type ExtraConfigCheck, extraConfigChecker } from "../spec-section/extra-config.js";
import { ctNotSettable, ctOwnedKeyHint } from "./spec-owned-keys.js";

const checkAgainstSchema = extraConfigChecker({
  noun: "container",
  params: () => guestConfigEndpoint("lxc").params,
  keySchema: (key) => guestKeySchema("lxc", key),
  ownedKeyHint: ctOwnedKeyHint,
  notSettable: ctNotSettable,
  stored: (checked, written) =>
    typeof checked === "number" ? checked : canonical(typeof checked === "string" ? checked : String(written)),
});

/**
 * What pve-container checks of a passthrough device (`devN`) beyond its schema: a path is given
 * (update_pct_config: "Path is not defined for passthrough device"), under /dev/ and without
 * `.` or `..` steps (verify_lxc_dev_string).
 */
function deviceProblem(key: string, value: string): string | undefined {
  if (!/^dev\d+$/.test(key)) return undefined;
  const path = value
    .split(",")
    .map((part) => part.trim())
    .map((part) => (part.startsWith("path=") ? part.slice(5) : part.includes("=") ? undefined : part))
    .find((part) => part !== undefined);
  if (path === undefined)
    return `PVE would refuse ${JSON.stringify(value)} for \`${key}\`: a passthrough device needs its path (e.g. /dev/ttyUSB0)`;
  if (/\/\.\.?(?:\/|$)/.test(path) || !path.startsWith("/dev/"))
    return `PVE would refuse ${JSON.stringify(value)} for \`${key}\`: ${path} is not a valid device path (a path under /dev/, without . or .. steps)`;
  return undefined;
}

/** Checks one container extraConfig entry; the value comes back as PVE stores it (booleans 1/0), canonical text. */
export function checkCtExtraConfig(key: string, value: string | number | boolean): ExtraConfigCheck {
  const checked = checkAgainstSchema(key, value);
  if (!checked.ok) return checked;
  const problem = deviceProblem(key, String(checked.value));
  return problem === undefined ? checked : { ok: false, part: "value", message: problem };
}
