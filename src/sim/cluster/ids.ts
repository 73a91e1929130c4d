// Generated identifiers: MAC addresses (datacenter prefix, BC:24:11 by default) and UUIDs.

export interface HexSource {
  hex(bytes: number): string;
}

/** A locally administered unicast MAC whose leading octets are replaced by `prefix`. */
export function generateMac(random: HexSource, prefix: string): string {
  const hex = random.hex(6).toUpperCase();
  const octets = hex.match(/../g) ?? [];
  const first = Number.parseInt(octets[0] ?? "02", 16);
  octets[0] = ((first & 0xfe) | 0x02).toString(16).toUpperCase().padStart(2, "0");
  const prefixOctets = prefix
    .toUpperCase()
    .split(":")
    .filter((p) => p !== "");
  prefixOctets.forEach((p, i) => {
    if (i < 6) octets[i] = p;
  });
  return octets.join(":");
}

/** A random (version 4) UUID in lowercase. */
export function generateUuid(random: HexSource): string {
  const h = random.hex(16).split("");
  h[12] = "4";
  h[16] = ((Number.parseInt(h[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  const s = h.join("");
  return [s.slice(0, 8), s.slice(8, 12), s.slice(12, 16), s.slice(16, 20), s.slice(20, 32)].join("-");
}

/**
 * The parts as one flat string. A template literal or `+` builds a rope (a tree of pieces),
 * and every value kept in a guest's config lives as long as the guest: with 10,000 guests the
 * ropes of their generated values took 9 MB. Array.prototype.join writes one flat string.
 */
export function flat(...parts: Array<string | number>): string {
  return parts.join("");
}
