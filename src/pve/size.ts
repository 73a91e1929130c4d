// Disk sizes as PVE writes them: `32G`, `512M`, `1.5T`, `4096` (a bare number is bytes),
// with binary units K/M/G/T (powers of 1024). Arithmetic is done on bigint so that
// fractional inputs (`1.5G`) and sizes up to petabytes are exact; results are returned as
// `number` only while they are safe integers.
import { PveFormatError } from "./errors.js";

const UNIT_BYTES: Record<string, bigint> = {
  K: 1024n,
  M: 1024n ** 2n,
  G: 1024n ** 3n,
  T: 1024n ** 4n,
};

// PVE's `disk-size` format (pve-common parse_size): digits, optional fraction, optional unit.
const SIZE_RE = /^(\d+)(?:\.(\d+))?([KMGT])?$/;
// The `size` parameter of PUT .../resize: the same, with an optional leading `+`.
const RESIZE_RE = /^(\+)?(\d+(?:\.\d+)?[KMGT]?)$/;

const SIZE_HINT = "Write a whole number of bytes or a number with a unit K, M, G or T (powers of 1024), e.g. 32G or 512M.";

/** Bytes of a size string, exactly; fractions of a byte are dropped as PVE does (`int()`). */
export function parseSizeBytes(text: string): bigint {
  const m = SIZE_RE.exec(text);
  if (!m) {
    throw new PveFormatError("disk size", text, `value does not look like a valid disk size: ${text}`, SIZE_HINT);
  }
  const [, whole, fraction = "", unit] = m;
  const multiplier = unit ? (UNIT_BYTES[unit] as bigint) : 1n;
  const scale = 10n ** BigInt(fraction.length);
  const scaled = BigInt(whole as string) * scale + BigInt(fraction || "0");
  return (scaled * multiplier) / scale;
}

/** Bytes of a size string as a number; refuses sizes beyond 2^53 - 1 bytes (8 PiB). */
export function parseSize(text: string): number {
  return toSafeNumber(parseSizeBytes(text), text);
}

/** The same as `parseSize`, but `undefined` instead of an error. */
export function tryParseSize(text: string): number | undefined {
  try {
    return parseSize(text);
  } catch {
    return undefined;
  }
}

/**
 * PVE's printing of a byte count (pve-common format_size): the largest unit K/M/G/T that
 * divides it exactly, else plain bytes. Zero prints as `0T`, exactly as PVE does.
 */
export function formatSize(bytes: number | bigint): string {
  let value: bigint;
  if (typeof bytes === "bigint") {
    value = bytes;
  } else {
    if (!Number.isSafeInteger(bytes)) {
      throw new PveFormatError("byte count", String(bytes), "not a whole number of bytes", "Give sizes as whole bytes.");
    }
    value = BigInt(bytes);
  }
  if (value < 0n) {
    throw new PveFormatError("byte count", String(bytes), "negative size", "Sizes cannot be negative.");
  }
  let amount = value;
  for (const unit of ["", "K", "M", "G"]) {
    if (amount % 1024n !== 0n) return `${amount}${unit}`;
    amount /= 1024n;
  }
  return `${amount}T`;
}

/** A resize request: an absolute new size, or (`+10G`) an amount to grow by. */
export interface ResizeRequest {
  relative: boolean;
  bytes: number;
}

/** Reads the `size` parameter of a disk resize (`+10G`, `64G`, `1073741824`). */
export function parseResize(text: string): ResizeRequest {
  const m = RESIZE_RE.exec(text);
  if (!m) {
    throw new PveFormatError(
      "resize value",
      text,
      "value does not match the regex pattern",
      "Use `+<size>` to grow by an amount or `<size>` for the new total, e.g. +10G or 64G.",
    );
  }
  return { relative: m[1] === "+", bytes: parseSize(m[2] as string) };
}

/** Prints a resize request the way PVE accepts it (`+10G`, `64G`). */
export function formatResize(request: ResizeRequest): string {
  return `${request.relative ? "+" : ""}${formatSize(request.bytes)}`;
}

/** Bytes of one GiB, for the `STORAGE:SIZE_IN_GiB` allocation syntax. */
export const GIB = 1024 ** 3;

function toSafeNumber(bytes: bigint, text: string): number {
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new PveFormatError("disk size", text, "size is too large (more than 8 PiB)", SIZE_HINT);
  }
  return Number(bytes);
}
