// Shared by the SDN handlers: which view a listing reads, entries as PVE prints them (id and
// digest added), options taken from the request, and PVE's wrapped error messages.
import { createHash } from "node:crypto";
import { splitList } from "../../pve/index.js";
import { type SdnEntry, type SdnKind, sdnView } from "../cluster/sdn.js";
import type { SdnSection } from "../cluster/types.js";
import { type HandlerContext, PveApiError } from "../contract.js";
import { flag, sim, str } from "./context.js";

/** Request keys that are never stored in a section. */
const NOT_OPTIONS = new Set(["zone", "vnet", "subnet", "digest", "delete", "lock-token", "running", "pending", "node"]);

/** The sections of one kind as this request asks to see them (edited, running or pending). */
export function viewOf(ctx: HandlerContext, kind: SdnKind): { sections: Record<string, SdnEntry>; digest: string } {
  const sections = sdnView(sim(ctx).state, kind, { running: flag(ctx, "running"), pending: flag(ctx, "pending") });
  // PVE's digest is the config file's SHA-1; any stable hash of the sections serves clients
  return { sections, digest: createHash("sha1").update(JSON.stringify(sections)).digest("hex") };
}

/** The request's options for a section (ids and control parameters left out). */
export function optionsOf(ctx: HandlerContext, skip: string[] = []): SdnSection {
  const out: SdnSection = {};
  for (const [key, value] of Object.entries(ctx.params)) {
    if (value === undefined || NOT_OPTIONS.has(key) || skip.includes(key)) continue;
    out[key] = value;
  }
  return out;
}

/** Applies an update: new values, then `delete` (SectionConfig's delete_from_config). */
export function updateSection(ctx: HandlerContext, section: SdnSection, fixed: string[]): void {
  Object.assign(section, optionsOf(ctx, fixed));
  for (const key of splitList(str(ctx, "delete") ?? "")) {
    if (!fixed.includes(key)) delete section[key];
  }
}

/** lock_sdn_config's wrapping: "create sdn zone object failed: <reason>". */
export function sdnFailure(action: string, what: string, reason: string): PveApiError {
  return new PveApiError(500, `${action} sdn ${what} object failed: ${reason}`);
}

/** `digest` on a copy of the section plus its id key(s). */
export function entry(section: SdnEntry, ids: Record<string, string>, digest: string): Record<string, unknown> {
  return { ...section, ...ids, digest };
}
