// What to say about a key a `containers:` entry's schema refused: the field it belongs to when
// it is PVE's or the `proxmox` module's name for one, the escape hatch for another PVE key, the
// refusal of an inline password, a did-you-mean; inside `nics`, which slots exist and what a
// container NIC calls its MAC.
import { guestKeySchema } from "../../pve/guest-schema.js";
import type { SpecPath } from "../spec-section/issues.js";
import { ctOwnedKeyHint, PROXMOX_MODULE_NAMES } from "./spec-owned-keys.js";
import { lxcSlotNames } from "./spec-facts.js";
import { ownEntry } from "../spec-section/own.js";
import { didYouMean } from "../spec-section/suggest.js";

export function unknownContainerKeyMessage(key: string, allowed: string[]): string {
  if (key === "password") {
    return `inline secrets are not accepted: write ${ctOwnedKeyHint("password") ?? "`passwordEnv` or `passwordFile`"}, naming where the password is kept`;
  }
  const module = ownEntry(PROXMOX_MODULE_NAMES, key);
  if (module) return `unknown key \`${key}\`; here it is ${module}`;
  const owned = ctOwnedKeyHint(key);
  if (owned) return `unknown key \`${key}\`; write it as ${owned}`;
  if (guestKeySchema("lxc", key)) {
    return `\`${key}\` is a PVE container config key without a field of its own here: put it under \`extraConfig\` (e.g. \`extraConfig: { ${key}: ... }\`)`;
  }
  return `unknown key \`${key}\`${didYouMean(key, allowed)}`;
}

/**
 * An unknown key under `nics` (`within` ends at it) that is no NIC slot. Also used where a
 * container's fields are written outside a spec file (NetBox templates).
 */
export function ctNicSlotMessage(within: SpecPath, key: string): string | undefined {
  if (within[within.length - 1] !== "nics" || !/^net\d+$/.test(key)) return undefined;
  const names = lxcSlotNames("net");
  return `\`${key}\` is not a NIC slot: NIC slots are ${names[0]}-${names[names.length - 1]}`;
}

/** An unknown key at `within` inside one `containers:` entry ([] is the entry itself). */
export function ctKeyMessage(within: SpecPath, key: string, allowed: string[]): string | undefined {
  if (within.length === 0) return unknownContainerKeyMessage(key, allowed);
  if (within.length === 2 && within[0] === "nics" && key === "macaddr") return "unknown key `macaddr`; a container NIC's MAC is `hwaddr`";
  return ctNicSlotMessage(within, key);
}
