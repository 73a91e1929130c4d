// A guest's config as PVE writes it to /etc/pve (description as leading comments, keys sorted,
// [PENDING] and one section per snapshot); its SHA1 is the `digest` clients send back.
import { createHash } from "node:crypto";
import type { GuestConfig, GuestState } from "./types.js";

function section(config: GuestConfig): string {
  let text = "";
  const description = config.description;
  if (typeof description === "string" && description !== "") {
    for (const line of description.split("\n")) text += `#${encodeURIComponent(line).replace(/%20/g, " ")}\n`;
  }
  for (const key of Object.keys(config).sort()) {
    if (key === "description") continue;
    text += `${key}: ${config[key]}\n`;
  }
  return text;
}

export function configText(guest: GuestState): string {
  let text = section(guest.config);
  const deletes = Object.entries(guest.pendingDelete);
  if (Object.keys(guest.pending).length > 0 || deletes.length > 0) {
    text += "\n[PENDING]\n";
    const pending: GuestConfig = { ...guest.pending };
    if (deletes.length > 0) pending.delete = deletes.map(([k, force]) => (force ? `!${k}` : k)).join(",");
    text += section(pending);
  }
  for (const snap of [...guest.snapshots].sort((a, b) => a.name.localeCompare(b.name))) {
    const cfg: GuestConfig = { ...snap.config, snaptime: snap.snaptime };
    if (snap.description) cfg.description = snap.description;
    if (snap.parent) cfg.parent = snap.parent;
    if (snap.vmstate) cfg.vmstate = 1;
    text += `\n[${snap.name}]\n${section(cfg)}`;
  }
  return text;
}

export function configDigest(guest: GuestState): string {
  return createHash("sha1").update(configText(guest)).digest("hex");
}
