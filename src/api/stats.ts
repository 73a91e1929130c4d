// Count and time per endpoint (method + path template), for benchmarks and --verbose.
// Calls made with a concrete path are grouped under their template when stats are read,
// so the schema is only loaded by whoever asks for the figures.
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

  /** Copies, busiest first; `templateOf` maps a concrete path to its template (undefined: keep it). */
  snapshot(templateOf?: (path: string) => string | undefined): EndpointStat[] {
    const merged = new Map<string, EndpointStat>();
    for (const stat of this.#byKey.values()) {
      const template = (!stat.template.includes("{") && templateOf?.(stat.template)) || stat.template;
      const key = `${stat.method} ${template}`;
      const into = merged.get(key);
      if (into) {
        into.count += stat.count;
        into.totalMs += stat.totalMs;
        into.errors += stat.errors;
      } else merged.set(key, { ...stat, template });
    }
    return [...merged.values()].sort((a, b) => b.count - a.count || b.totalMs - a.totalMs);
  }

  reset(): void {
    this.#byKey.clear();
  }
}

/** A plain-text table of the figures, for `--verbose` and benchmark output. */
export function formatStats(stats: EndpointStat[]): string {
  if (stats.length === 0) return "no API calls";
  const rows = stats.map((s) => [
    `${s.method} ${s.template}`,
    String(s.count),
    (s.totalMs / s.count).toFixed(1),
    s.totalMs.toFixed(0),
    String(s.errors),
  ]);
  const header = ["endpoint", "calls", "avg ms", "total ms", "errors"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}
