// Count and time per endpoint (method + path template), for benchmarks and --verbose.
export interface EndpointStat {
  method: string;
  template: string;
  count: number;
  totalMs: number;
  errors: number;
}

export class EndpointStats {
  readonly #byKey = new Map<string, EndpointStat>();

  record(method: string, template: string, ms: number, failed: boolean): void {
    const key = `${method} ${template}`;
    let stat = this.#byKey.get(key);
    if (!stat) {
      stat = { method, template, count: 0, totalMs: 0, errors: 0 };
      this.#byKey.set(key, stat);
    }
    stat.count += 1;
    stat.totalMs += ms;
    if (failed) stat.errors += 1;
  }

  /** Copies, busiest first. */
  snapshot(): EndpointStat[] {
    return [...this.#byKey.values()].map((s) => ({ ...s })).sort((a, b) => b.count - a.count || b.totalMs - a.totalMs);
  }

  reset(): void {
    this.#byKey.clear();
  }
}
