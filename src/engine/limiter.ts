// A counting semaphore per key (per node): at most `limit` holders at once, FIFO. A holder
// that only waits (a lock held by a backup, for minutes) steps `outside` its slot meanwhile,
// so the other guests of the node keep going.
export class KeyedLimiter {
  readonly #limit: (key: string) => number;
  readonly #active = new Map<string, number>();
  readonly #queues = new Map<string, Array<() => void>>();

  constructor(limit: (key: string) => number) {
    this.#limit = limit;
  }

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    await this.#acquire(key);
    try {
      return await fn();
    } finally {
      this.#release(key);
    }
  }

  /** Runs `fn` with the caller's slot given up, then queues for a slot again. Only for a caller inside `run(key)`. */
  async outside<T>(key: string, fn: () => Promise<T>): Promise<T> {
    this.#release(key);
    try {
      return await fn();
    } finally {
      await this.#acquire(key);
    }
  }

  #acquire(key: string): Promise<void> {
    const active = this.#active.get(key) ?? 0;
    if (active < this.#limit(key)) {
      this.#active.set(key, active + 1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const queue = this.#queues.get(key) ?? [];
      queue.push(resolve);
      this.#queues.set(key, queue);
    });
  }

  #release(key: string): void {
    const next = this.#queues.get(key)?.shift();
    // The slot passes straight to the next waiter; the count stays the same.
    if (next) next();
    else this.#active.set(key, (this.#active.get(key) ?? 1) - 1);
  }
}
