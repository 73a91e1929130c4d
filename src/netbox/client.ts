// A typed NetBox REST client: token auth (v1 `Token <key>`, v2 `Bearer nbt_<key>.<token>`),
// pagination that follows every page, filters (repeated values = OR), PATCH with optional
// If-Match, and errors that say what to do (see errors.ts). Types come from NetBox's own
// OpenAPI schema (src/netbox/generated/types.ts). The connections are util/http's, the same
// keep-alive pool, TLS check and timeouts as the PVE client's.
import { readFileSync } from "node:fs";
import { errorCode, exchange, type HttpResponse } from "../util/http/exchange.js";
import { ConnectionPool } from "../util/http/pool.js";
import { certificatePolicy } from "../util/http/tls.js";
import { NetboxConnectionError, NetboxError } from "./errors.js";
import type {
  AvailableIP,
  Cluster,
  ClusterType,
  ClusterTypeRequest,
  CustomField,
  IPAddress,
  JournalEntry,
  MACAddress,
  MACAddressRequest,
  Platform,
  PlatformRequest,
  Prefix,
  Site,
  Tag,
  TagRequest,
  VirtualDisk,
  VirtualDiskRequest,
  VirtualMachineWithConfigContext,
  VLAN,
  VMInterface,
  WritableClusterRequest,
  WritableCustomFieldRequest,
  WritableIPAddressRequest,
  WritableJournalEntryRequest,
  WritablePrefixRequest,
  WritableVirtualMachineWithConfigContextRequest,
  WritableVLANRequest,
  WritableVMInterfaceRequest,
} from "./generated/types.js";

/** Each endpoint pvectl uses, with the object NetBox returns and the body it accepts. */
export interface NetboxEndpoints {
  "virtualization/virtual-machines": { read: VirtualMachineWithConfigContext; write: WritableVirtualMachineWithConfigContextRequest };
  "virtualization/interfaces": { read: VMInterface; write: WritableVMInterfaceRequest };
  "virtualization/virtual-disks": { read: VirtualDisk; write: VirtualDiskRequest };
  "virtualization/clusters": { read: Cluster; write: WritableClusterRequest };
  "virtualization/cluster-types": { read: ClusterType; write: ClusterTypeRequest };
  "dcim/sites": { read: Site; write: { name: string; slug: string; [k: string]: unknown } };
  "dcim/platforms": { read: Platform; write: PlatformRequest };
  "dcim/mac-addresses": { read: MACAddress; write: MACAddressRequest };
  "ipam/ip-addresses": { read: IPAddress; write: WritableIPAddressRequest };
  "ipam/prefixes": { read: Prefix; write: WritablePrefixRequest };
  "ipam/vlans": { read: VLAN; write: WritableVLANRequest };
  "extras/tags": { read: Tag; write: TagRequest };
  "extras/custom-fields": { read: CustomField; write: WritableCustomFieldRequest };
  "extras/journal-entries": { read: JournalEntry; write: WritableJournalEntryRequest };
}
export type NetboxPath = keyof NetboxEndpoints;
export type ReadOf<P extends NetboxPath> = NetboxEndpoints[P]["read"];
export type WriteOf<P extends NetboxPath> = NetboxEndpoints[P]["write"];

export type FilterValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Filters = Record<string, FilterValue>;

export interface NetboxClientOptions {
  /** NetBox base URL, e.g. https://netbox.example.com (with or without a trailing /api). */
  url: string;
  /** v1 key (40 hex, sent as `Token`) or v2 token `nbt_<key>.<token>` (sent as `Bearer`). */
  token: string;
  /** PEM text of a CA to trust, or `caFile` to read it from. */
  ca?: string;
  caFile?: string;
  /** Skip TLS verification (loud and explicit; never the default). */
  insecure?: boolean;
  /** Page size for list requests (NetBox caps it at MAX_PAGE_SIZE, default 1000). */
  pageSize?: number;
  /** Longest wait for NetBox's answer (headers, then each piece of the body); default 30 s. */
  timeoutMs?: number;
  /** Requests at once, each on its own connection (default 8); the rest wait their turn. */
  connections?: number;
}

/** How long a connection (TLS handshake included) may take at most: what the client on undici allowed. */
const CONNECT_TIMEOUT_MS = 10_000;

export interface RequestOptions {
  query?: Filters;
  body?: unknown;
  /** ETag for If-Match (NetBox >= 4.6 answers 412 when the object changed). */
  ifMatch?: string;
  /** Names the object in error messages, e.g. "virtual machine web-01 (id 3)". */
  subject?: string;
}

export interface NetboxResponse<T> {
  status: number;
  body: T;
  etag: string | undefined;
  apiVersion: string | undefined;
}

interface Page<T> {
  count: number | null;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface NetboxStatus {
  "netbox-version": string;
  [key: string]: unknown;
}

/** "Token <key>" for v1 keys, "Bearer <token>" for v2 (nbt_...) tokens; a full header value is kept. */
export function authorizationHeader(token: string): string {
  const t = token.trim();
  if (/^(Token|Bearer)\s+/i.test(t)) return t;
  return t.startsWith("nbt_") ? `Bearer ${t}` : `Token ${t}`;
}

export function encodeQuery(query: Filters | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) params.append(key, v === null ? "null" : String(v));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export class NetboxClient {
  readonly baseUrl: string;
  private readonly auth: string;
  /** undefined when the URL is not http(s): every request then says so (why: `invalidUrl`). */
  private readonly pool: ConnectionPool | undefined;
  private readonly invalidUrl: string | undefined;
  private readonly pageSize: number;
  private readonly timeoutMs: number;
  private versionCache: { major: number; minor: number; full: string } | undefined;

  constructor(options: NetboxClientOptions) {
    this.baseUrl = options.url.replace(/\/+$/, "").replace(/\/api$/, "");
    this.auth = authorizationHeader(options.token);
    this.pageSize = options.pageSize ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    const ca = options.ca ?? (options.caFile ? readFileSync(options.caFile, "utf8") : undefined);
    const origin = originOf(this.baseUrl);
    if (typeof origin === "string") this.invalidUrl = origin;
    else {
      this.pool = new ConnectionPool({
        ...origin,
        connections: options.connections ?? 8,
        connectTimeoutMs: Math.min(this.timeoutMs, CONNECT_TIMEOUT_MS),
        // The system's CAs unless a CA is given; `insecure` accepts any certificate (no pin for NetBox).
        ...(origin.protocol === "https" ? { tls: certificatePolicy({ ...(ca ? { ca } : {}), verify: !options.insecure }) } : {}),
      });
    }
  }

  /** One HTTP exchange; `path` is relative to /api/ ("virtualization/virtual-machines/3/") or absolute ("/api/..."). */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<NetboxResponse<T>> {
    const rel = path.startsWith("/") ? path : `/api/${path}`;
    const target = `${rel}${encodeQuery(options.query)}`;
    const headers: Record<string, string> = { Authorization: this.auth, Accept: "application/json" };
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    if (options.ifMatch) headers["If-Match"] = options.ifMatch;
    if (!this.pool) throw new NetboxConnectionError(this.baseUrl, this.invalidUrl ?? "ERR_INVALID_URL");
    let res: HttpResponse;
    try {
      res = await exchange(this.pool, {
        url: this.baseUrl + target,
        method,
        headers,
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        timeoutMs: this.timeoutMs,
      });
    } catch (err) {
      throw new NetboxConnectionError(this.baseUrl, errorCode(err) ?? (err instanceof Error ? err.message : String(err)));
    }
    const text = res.text;
    let body: unknown = text;
    if (text.length > 0) {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        body = text.slice(0, 300);
      }
    } else body = undefined;
    if (res.status >= 400) {
      throw new NetboxError({
        status: res.status,
        method,
        path: target,
        body,
        ...(options.subject ? { subject: options.subject } : {}),
      });
    }
    const header = (name: string) => {
      const v = res.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    return { status: res.status, body: body as T, etag: header("etag"), apiVersion: header("api-version") };
  }

  /** Every object matching the filters, following NetBox's pages to the end. */
  async list<P extends NetboxPath>(path: P, filters: Filters = {}): Promise<ReadOf<P>[]> {
    const out: ReadOf<P>[] = [];
    for await (const item of this.iterate(path, filters)) out.push(item);
    return out;
  }

  /**
   * Pages through a list. The next page is requested with the query of NetBox's `next` link
   * but against our own base URL: behind a TLS-terminating proxy NetBox often builds `next`
   * with the wrong scheme or host.
   */
  async *iterate<P extends NetboxPath>(path: P, filters: Filters = {}): AsyncGenerator<ReadOf<P>> {
    let query: Filters = { limit: this.pageSize, ...filters };
    for (;;) {
      const { body } = await this.request<Page<ReadOf<P>>>("GET", `${path}/`, { query });
      for (const item of body.results) yield item;
      if (!body.next) return;
      const next = new URL(body.next).searchParams;
      query = {};
      for (const key of new Set(next.keys())) query[key] = next.getAll(key);
    }
  }

  async get<P extends NetboxPath>(path: P, id: number, subject?: string): Promise<ReadOf<P>> {
    return (await this.request<ReadOf<P>>("GET", `${path}/${id}/`, subject ? { subject } : {})).body;
  }

  /** The object and its ETag (NetBox >= 4.6), for a later `patch(..., { ifMatch })`. */
  async getWithEtag<P extends NetboxPath>(path: P, id: number): Promise<{ object: ReadOf<P>; etag: string | undefined }> {
    const res = await this.request<ReadOf<P>>("GET", `${path}/${id}/`);
    return { object: res.body, etag: res.etag };
  }

  async create<P extends NetboxPath>(path: P, body: WriteOf<P>, subject?: string): Promise<ReadOf<P>> {
    return (await this.request<ReadOf<P>>("POST", `${path}/`, { body, ...(subject ? { subject } : {}) })).body;
  }

  async patch<P extends NetboxPath>(
    path: P,
    id: number,
    body: Partial<WriteOf<P>>,
    options: { ifMatch?: string; subject?: string } = {},
  ): Promise<ReadOf<P>> {
    return (await this.request<ReadOf<P>>("PATCH", `${path}/${id}/`, { body, ...options })).body;
  }

  /** `patch`, with the object's new ETag (NetBox >= 4.6) for the next conditional write. */
  async patchWithEtag<P extends NetboxPath>(
    path: P,
    id: number,
    body: Partial<WriteOf<P>>,
    options: { ifMatch?: string; subject?: string } = {},
  ): Promise<{ object: ReadOf<P>; etag: string | undefined }> {
    const res = await this.request<ReadOf<P>>("PATCH", `${path}/${id}/`, { body, ...options });
    return { object: res.body, etag: res.etag };
  }

  async delete(path: NetboxPath, id: number, subject?: string): Promise<void> {
    await this.request("DELETE", `${path}/${id}/`, subject ? { subject } : {});
  }

  async status(): Promise<NetboxStatus> {
    return (await this.request<NetboxStatus>("GET", "status/")).body;
  }

  /** NetBox's version from /api/status/, cached (used to pick MAC objects vs `mac_address`). */
  async version(): Promise<{ major: number; minor: number; full: string }> {
    if (!this.versionCache) {
      const full = String((await this.status())["netbox-version"] ?? "0.0");
      const [major = 0, minor = 0] = full.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
      this.versionCache = { major, minor, full };
    }
    return this.versionCache;
  }

  async atLeast(major: number, minor: number): Promise<boolean> {
    const v = await this.version();
    return v.major > major || (v.major === major && v.minor >= minor);
  }

  async availableIps(prefixId: number, limit = 50): Promise<AvailableIP[]> {
    return (await this.request<AvailableIP[]>("GET", `ipam/prefixes/${prefixId}/available-ips/`, { query: { limit } })).body;
  }

  /** Allocates the next free address of a prefix atomically (409 when the prefix is full). */
  async allocateIp(prefixId: number, body: Partial<WritableIPAddressRequest> = {}, subject?: string): Promise<IPAddress> {
    const res = await this.request<IPAddress>("POST", `ipam/prefixes/${prefixId}/available-ips/`, {
      body,
      ...(subject ? { subject } : {}),
    });
    return res.body;
  }

  /** Lets the requests in flight finish, then closes the connections. */
  async close(): Promise<void> {
    await this.pool?.close();
  }
}

/** Where the pool connects for `baseUrl`, or the code that says why it cannot. */
function originOf(baseUrl: string): { protocol: "https" | "http"; host: string; port: number } | string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return "ERR_INVALID_URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "UNSUPPORTED_PROTOCOL";
  const protocol = url.protocol === "https:" ? "https" : "http";
  // URL keeps an IPv6 address in brackets; a socket wants it bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return { protocol, host, port: url.port ? Number(url.port) : protocol === "https" ? 443 : 80 };
}
