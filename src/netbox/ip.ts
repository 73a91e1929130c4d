// IPv4/IPv6 address arithmetic for prefixes, containment and available-ips.
// Addresses are bigints so both families share one code path.
export interface Cidr {
  family: 4 | 6;
  address: bigint;
  length: number;
}

function parseV4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let n = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = (n << 8n) | BigInt(Number(p));
  }
  return n;
}

function parseV6(text: string): bigint | null {
  if (!/^[0-9a-fA-F:]+$/.test(text) || text.split("::").length > 2) return null;
  const [head = "", tail] = text.split("::");
  const h = head === "" ? [] : head.split(":");
  const t = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = 8 - h.length - t.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...h, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...t];
  let n = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    n = (n << 16n) | BigInt(Number.parseInt(g, 16));
  }
  return n;
}

/** The address of "10.0.0.5/24" without its prefix length ("10.0.0.5"), as NetBox's IP objects hold it. */
export function hostOf(address: string): string {
  return address.split("/")[0] ?? address;
}

/** Parses "10.0.0.5/24", "10.0.0.5" (host), "2001:db8::1/64". */
export function parseCidr(text: string): Cidr | null {
  const [addr = "", len] = text.trim().split("/");
  const family = addr.includes(":") ? 6 : 4;
  const address = family === 4 ? parseV4(addr) : parseV6(addr);
  const max = family === 4 ? 32 : 128;
  const length = len === undefined ? max : /^\d+$/.test(len) ? Number(len) : Number.NaN;
  if (address === null || !(length >= 0 && length <= max)) return null;
  return { family, address, length };
}

function bits(c: Cidr): number {
  return c.family === 4 ? 32 : 128;
}

export function networkOf(c: Cidr): bigint {
  const host = bits(c) - c.length;
  return (c.address >> BigInt(host)) << BigInt(host);
}

export function contains(prefix: Cidr, ip: Cidr): boolean {
  return prefix.family === ip.family && networkOf({ ...ip, length: prefix.length }) === networkOf(prefix);
}

export function formatAddress(family: 4 | 6, n: bigint): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join(".");
  const groups: string[] = [];
  for (let s = 112n; s >= 0n; s -= 16n) groups.push(((n >> s) & 0xffffn).toString(16));
  // Compress the longest run of zero groups, as Python's ipaddress does.
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== "0") {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > best.len && j - i > 1) best = { at: i, len: j - i };
    i = j;
  }
  if (best.at < 0) return groups.join(":");
  return `${groups.slice(0, best.at).join(":")}::${groups.slice(best.at + best.len).join(":")}`;
}

export function formatCidr(c: Cidr): string {
  return `${formatAddress(c.family, c.address)}/${c.length}`;
}

/**
 * Usable host addresses of a prefix in order, skipping `used`. Like NetBox, the network and
 * broadcast addresses of an IPv4 prefix are excluded unless it is a pool or a /31 or /32;
 * for IPv6 only the subnet-router anycast (first) address is excluded, unless a pool.
 */
export function* freeAddresses(prefix: Cidr, isPool: boolean, used: Set<bigint>): Generator<bigint> {
  const first = networkOf(prefix);
  const size = 1n << BigInt(bits(prefix) - prefix.length);
  let start = first;
  let end = first + size - 1n;
  if (!isPool) {
    if (prefix.family === 4 && prefix.length < 31) {
      start += 1n;
      end -= 1n;
    } else if (prefix.family === 6 && prefix.length < 127) start += 1n;
  }
  for (let a = start; a <= end; a++) if (!used.has(a)) yield a;
}
