// Per-node task load, for tests and benchmarks that must show a client never pushed a node past
// its worker slots: PVE queues nothing for a client, so tasks a node holds beyond its slots are
// the client's overload, visible as tasks submitted and not finished.

/** One node's load now and its highest since the last reset. */
export interface NodeTaskLoad {
  /** Tasks submitted and not finished: running plus queued for a worker slot. */
  inFlight: number;
  /** Tasks holding a worker slot (in the instant profile: whose work has not returned yet). */
  running: number;
  peakInFlight: number;
  peakRunning: number;
}

export class TaskLoad {
  private readonly nodes = new Map<string, NodeTaskLoad>();

  private node(name: string): NodeTaskLoad {
    let load = this.nodes.get(name);
    if (!load) {
      load = { inFlight: 0, running: 0, peakInFlight: 0, peakRunning: 0 };
      this.nodes.set(name, load);
    }
    return load;
  }

  submitted(node: string, delta: 1 | -1): void {
    const load = this.node(node);
    load.inFlight = Math.max(0, load.inFlight + delta);
    load.peakInFlight = Math.max(load.peakInFlight, load.inFlight);
  }

  running(node: string, delta: 1 | -1): void {
    const load = this.node(node);
    load.running = Math.max(0, load.running + delta);
    load.peakRunning = Math.max(load.peakRunning, load.running);
  }

  /** A copy, by node name, of every node that ran a task. */
  snapshot(): Record<string, NodeTaskLoad> {
    return Object.fromEntries([...this.nodes].map(([name, load]) => [name, { ...load }]));
  }

  /** Peaks start again from the current load (tasks still in flight keep counting). */
  resetPeaks(): void {
    for (const load of this.nodes.values()) {
      load.peakInFlight = load.inFlight;
      load.peakRunning = load.running;
    }
  }

  /** Every task was dropped (state load, reset, close). */
  clear(): void {
    this.nodes.clear();
  }
}
