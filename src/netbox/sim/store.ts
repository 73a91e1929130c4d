// The simulator's state: one table of rows per resource, ids allocated per table like
// PostgreSQL sequences (never reused), and a clock for `created`/`last_updated`.
export type Row = { id: number; created: string; last_updated: string } & Record<string, unknown>;

export class Store {
  private tables = new Map<string, Map<number, Row>>();
  private sequences = new Map<string, number>();
  private lastStamp = 0;

  table(name: string): Map<number, Row> {
    let t = this.tables.get(name);
    if (!t) {
      t = new Map();
      this.tables.set(name, t);
    }
    return t;
  }

  nextId(name: string): number {
    const id = (this.sequences.get(name) ?? 0) + 1;
    this.sequences.set(name, id);
    return id;
  }

  /** Strictly increasing timestamps, so an ETag derived from `last_updated` changes on every write. */
  now(): string {
    const ms = Math.max(Date.now(), this.lastStamp + 1);
    this.lastStamp = ms;
    // NetBox prints microseconds: 2026-12-02T10:00:00.123000Z
    return new Date(ms).toISOString().replace("Z", "000Z");
  }

  rows(name: string): Row[] {
    return [...this.table(name).values()];
  }

  get(name: string, id: number): Row | undefined {
    return this.table(name).get(id);
  }

  /** A deep copy of every table, so a bulk request can be undone as a whole (all-or-none). */
  snapshot(): Map<string, Map<number, Row>> {
    return structuredClone(this.tables);
  }

  restore(snapshot: Map<string, Map<number, Row>>): void {
    this.tables = snapshot;
  }
}
