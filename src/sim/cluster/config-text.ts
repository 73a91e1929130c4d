// A guest's config as PVE writes it to /etc/pve (pve/config-file: description as leading
// comments, keys sorted, the pending section and one section per snapshot); its SHA1 is the
// `digest` clients send back.
import { createHash } from "node:crypto";
import { type ConfigSection, printConfigFile } from "../../pve/config-file.js";
import type { GuestConfig, GuestState } from "./types.js";

function section(config: GuestConfig): ConfigSection {
  const out: ConfigSection = {};
  for (const [key, value] of Object.entries(config)) out[key] = String(value);
  return out;
}

export function configText(guest: GuestState): string {
  const pending = section(guest.pending);
  const deletes = Object.entries(guest.pendingDelete);
  if (deletes.length > 0) pending.delete = deletes.map(([k, force]) => (force ? `!${k}` : k)).join(",");
  const snapshots: Record<string, ConfigSection> = {};
  for (const snap of guest.snapshots) {
    const s = section(snap.config);
    s.snaptime = String(snap.snaptime);
    if (snap.description) s.description = snap.description;
    else delete s.description;
    if (snap.parent) s.parent = snap.parent;
    if (snap.vmstate) s.vmstate = "1";
    snapshots[snap.name] = s;
  }
  const special: Record<string, ConfigSection> = guest.cloudinit ? { cloudinit: section(guest.cloudinit) } : {};
  return printConfigFile({ kind: guest.type, current: section(guest.config), pending, special, snapshots });
}

export function configDigest(guest: GuestState): string {
  return createHash("sha1").update(configText(guest)).digest("hex");
}
