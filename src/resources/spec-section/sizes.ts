// Sizes as a spec writes them (`32G`, `1.5 GiB`, memory as `2048` or `2G`), read into bytes or
// MiB the same way for every guest kind, with the same messages when one cannot be held.
import { tryParseSize } from "../../pve/size.js";
import type { IssueSink, SpecPath } from "./issues.js";

const MIB = 1024 * 1024;

/** Largest size pvectl can hold exactly (2^53 - 1 bytes), as written in a spec. */
const MAX_SIZE_TEXT = "8192T (8 PiB)";

/** Bytes of a shape-checked size (`32G`, `1.5 GiB`); undefined after reporting one too large to hold. */
function bytesOf(value: string, what: string, path: SpecPath, sink: IssueSink, note = ""): number | undefined {
  const bytes = tryParseSize(value.replace(/\s+/g, "").replace(/iB$/, ""));
  if (bytes === undefined) sink.add(path, `\`${value}\` is too large for ${what}: at most ${MAX_SIZE_TEXT} can be written${note}`);
  return bytes;
}

/** MiB from `2048` (MiB already) or `2G`; undefined after reporting when it is not whole MiB. */
export function toMiB(value: number | string, path: SpecPath, sink: IssueSink): number | undefined {
  if (typeof value === "number") return value;
  const what = String(path[path.length - 1]);
  const bytes = bytesOf(value, what, path, sink, ", and PVE further limits memory to what the host CPU can address");
  if (bytes === undefined) return undefined;
  if (bytes % MIB !== 0) {
    sink.add(path, `\`${value}\` is not a whole number of MiB; PVE sets ${what} in MiB (e.g. 1536M or 2G)`);
    return undefined;
  }
  return bytes / MIB;
}

export function sizeBytes(value: string, path: SpecPath, sink: IssueSink): number | undefined {
  const bytes = bytesOf(value, "a disk", path, sink);
  if (bytes === undefined) return undefined;
  if (bytes < MIB) {
    sink.add(path, `\`${value}\` is too small: a disk has at least 1M (sizes are written with a unit, e.g. 32G)`);
    return undefined;
  }
  return bytes;
}
