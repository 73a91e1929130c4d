// What to say about an unknown key of a `containers:` entry: the field it belongs to when it
// is PVE's or the `proxmox` module's name for one, the escape hatch for another PVE key, the
// refusal of an inline password, or a did-you-mean.
import { guestKeySchema } from "../../pve/guest-schema.js";
import { ctOwnedKeyHint, PROXMOX_MODULE_NAMES } from "./spec-owned-keys.js";
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
