// Every API request the simulator answered, with counts per endpoint (method + schema path
// template), so benchmarks can report how many calls a tool made and of which kind.
export interface AccessLogEntry {
  /** Real time, ms since the epoch. */
  time: number;
  method: string;
  /** Concrete path below /api2/json. */
  path: string;
  /** Schema template, e.g. "/nodes/{node}/qemu"; the concrete path when unknown. */
  endpoint: string;
  status: number;
  durationMs: number;
  /** Authenticated id, when known. */
  user?: string;
}

export interface AccessLogSummary {
  total: number;
  /** "GET /nodes/{node}/qemu" -> number of requests. */
  byEndpoint: Record<string, number>;
  /** "GET /nodes/{node}/qemu" -> total server time in ms (incl. injected latency). */
  msByEndpoint: Record<string, number>;
  /** "200" -> number of responses. */
  byStatus: Record<string, number>;
  entries: AccessLogEntry[];
}

/** Requests kept one by one (the counts cover every request); older ones are dropped. */
const MAX_ENTRIES = 20_000;
const TRIM_BATCH = 2_000;

export class AccessLog {
  private entries: AccessLogEntry[] = [];
  private byEndpoint = new Map<string, number>();
  private msByEndpoint = new Map<string, number>();
  private byStatus = new Map<string, number>();
  private total = 0;

  record(entry: AccessLogEntry): void {
    this.total++;
    const key = `${entry.method} ${entry.endpoint}`;
    this.byEndpoint.set(key, (this.byEndpoint.get(key) ?? 0) + 1);
    this.msByEndpoint.set(key, (this.msByEndpoint.get(key) ?? 0) + entry.durationMs);
    this.byStatus.set(String(entry.status), (this.byStatus.get(String(entry.status)) ?? 0) + 1);
    this.entries.push(entry);
    // Trimmed in batches: dropping one entry per request moved every kept entry each time,
    // which halved the request rate of a long-running simulator.
    if (this.entries.length >= MAX_ENTRIES + TRIM_BATCH) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  summary(options: { entries?: boolean } = {}): AccessLogSummary {
    const sorted = (m: Map<string, number>) => Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)));
    return {
      total: this.total,
      byEndpoint: sorted(this.byEndpoint),
      msByEndpoint: Object.fromEntries(
        [...this.msByEndpoint].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, Math.round(v * 10) / 10]),
      ),
      byStatus: sorted(this.byStatus),
      entries: options.entries === false ? [] : this.entries.slice(-MAX_ENTRIES),
    };
  }

  reset(): void {
    this.entries = [];
    this.byEndpoint.clear();
    this.msByEndpoint.clear();
    this.byStatus.clear();
    this.total = 0;
  }
}
