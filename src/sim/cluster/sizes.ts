// Disk sizes in PVE's notation: "32G", "528K", "+10G", bare numbers are bytes.

const UNITS: Record<string, number> = { K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };

/** Parses `12`, `1.5G`, `528K` into bytes; undefined when malformed. */
export function parseDiskSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([KMGT])?$/.exec(text);
  if (!m) return undefined;
  const unit = m[2] ? (UNITS[m[2]] ?? 1) : 1;
  return Math.round(Number(m[1]) * unit);
}

/** Prints bytes the way PVE writes `size=` (largest unit that divides evenly). */
export function formatDiskSize(bytes: number): string {
  for (const unit of ["T", "G", "M", "K"]) {
    const factor = UNITS[unit] ?? 1;
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor}${unit}`;
  }
  return String(bytes);
}

export const GiB = 1024 ** 3;
export const MiB = 1024 ** 2;
