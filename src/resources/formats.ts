// The few PVE text formats the resource modules read and write, behind one small seam:
// sizes, tags and volume ids come from src/pve; what is added here is the engine's
// normalization (canonical numbers and booleans) and a schema-free split of property strings
// used to compare both sides in one form.
import { formatSize, normaliseTags, printTags as printTagList, splitList, storageOfVolume, tryParseSize } from "../pve/index.js";

/** `32G`, `104858K`, `1.5T`, `512` (bytes) -> bytes. Undefined when unreadable. */
export const sizeToBytes = tryParseSize;

/** Bytes -> the largest unit that divides exactly (`34359738368` -> `32G`), as PVE writes sizes. */
export const bytesToSize = formatSize;

export { storageOfVolume };

/** Bytes for display: `32 GiB`, `1.5 GiB`, `512 MiB`. */
export function humanSize(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i += 1;
  }
  return `${Number(value.toFixed(2))} ${units[i]}`;
}

/** Canonical text for a config value: numbers without trailing zeros, booleans as 1/0. */
export function canonical(value: string | number | boolean): string {
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") return String(value);
  const trimmed = value.trim();
  if (/^-?\d+(\.\d+)?$/.test(trimmed) && !/^0\d/.test(trimmed)) return String(Number(trimmed));
  if (trimmed === "true") return "1";
  if (trimmed === "false") return "0";
  return trimmed;
}

/**
 * Splits a property string (`local-lvm:vm-100-disk-0,iothread=1,size=32G`) into keys.
 * A part without `=` is the value of `defaultKey` (PVE's default_key). A part `model=MAC`
 * for NIC models is left as is; the NIC parser resolves it.
 */
export function splitPropertyString(text: string, defaultKey: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (text.trim() === "") return out;
  for (const part of text.split(",")) {
    const eq = part.indexOf("=");
    if (eq === -1) out[defaultKey] = part;
    else out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

/** Joins keys back: the leading value first (if given), then the others sorted, as PVE prints them. */
export function joinPropertyString(leading: string | undefined, rest: Record<string, string>): string {
  const parts = leading !== undefined ? [leading] : [];
  for (const key of Object.keys(rest).sort()) parts.push(`${key}=${rest[key]}`);
  return parts.join(",");
}

/** PVE accepts tags separated by `;`, `,` or spaces; returns them unique and sorted, as PVE keeps them. */
export function parseTags(text: string | undefined): string[] {
  if (!text) return [];
  try {
    return normaliseTags(text);
  } catch {
    // A tag PVE would refuse today (an old config): keep it rather than fail the whole read.
    return [...new Set(splitList(text))].sort();
  }
}

export function printTags(tags: string[]): string {
  return printTagList(normaliseTags(tags));
}
