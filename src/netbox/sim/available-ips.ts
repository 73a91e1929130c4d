// /api/ipam/prefixes/{id}/available-ips/: list free addresses, or allocate the next ones
// atomically (201), 409 when the prefix has not enough room, as NetBox does.
import { HttpError, notFound } from "./errors.js";
import { type Cidr, contains, formatAddress, freeAddresses, parseCidr } from "../ip.js";
import { isRecord } from "./parse.js";
import type { SimContext } from "./resource.js";
import { str } from "./resource.js";
import { bulk, createRow } from "./ops.js";
import { MAX_PAGE_SIZE, PAGINATE_COUNT } from "./query.js";

function prefixOf(ctx: SimContext, id: number): { cidr: Cidr; isPool: boolean } {
  const row = ctx.store.get("ipam/prefixes", id);
  const cidr = row ? parseCidr(str(row, "prefix")) : null;
  if (!row || !cidr) throw notFound();
  return { cidr, isPool: row.is_pool === true };
}

function usedIn(ctx: SimContext, prefix: Cidr): Set<bigint> {
  const used = new Set<bigint>();
  for (const ip of ctx.store.rows("ipam/ip-addresses")) {
    const c = parseCidr(str(ip, "address"));
    if (c && contains(prefix, c)) used.add(c.address);
  }
  return used;
}

function take(ctx: SimContext, prefixId: number, n: number): string[] {
  const { cidr, isPool } = prefixOf(ctx, prefixId);
  const out: string[] = [];
  for (const a of freeAddresses(cidr, isPool, usedIn(ctx, cidr))) {
    if (out.length >= n) break;
    out.push(`${formatAddress(cidr.family, a)}/${cidr.length}`);
  }
  return out;
}

export function listAvailableIps(ctx: SimContext, prefixId: number, params: URLSearchParams): unknown[] {
  const raw = Number(params.get("limit") ?? PAGINATE_COUNT);
  const limit = Number.isInteger(raw) && raw > 0 ? Math.min(raw, MAX_PAGE_SIZE) : PAGINATE_COUNT;
  return take(ctx, prefixId, limit).map((address) => ({
    family: address.includes(":") ? 6 : 4,
    address,
    vrf: null,
    description: "",
  }));
}

export function allocateAvailableIps(
  ctx: SimContext,
  prefixId: number,
  body: unknown,
): { many: boolean; rows: ReturnType<typeof createRow>[] } {
  const many = Array.isArray(body);
  const requests = many ? (body as unknown[]) : [body ?? {}];
  const free = take(ctx, prefixId, requests.length);
  if (free.length < requests.length) throw new HttpError(409, { detail: "Insufficient resources are available to satisfy the request" });
  const def = ctx.def("ipam/ip-addresses");
  let i = 0;
  const rows = bulk(ctx, requests, (item) => createRow(ctx, def, { ...(isRecord(item) ? item : {}), address: free[i++] }));
  return { many, rows };
}
