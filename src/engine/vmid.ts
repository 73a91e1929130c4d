// vmids for guests the spec gives none: PVE's /cluster/nextid gives the first free id, then
// ids are handed out locally (skipping every id the cluster uses) so parallel creates do not
// all get the same answer. PVE's create is the atomic check: on "already exists" the caller
// marks the id used and asks again.
import { getNextVmid } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";

export class VmidAllocator {
  readonly #client: PveClient;
  readonly #used: Set<number>;
  #next: number | undefined;
  #refresh: Promise<number> | undefined;

  constructor(client: PveClient, used: Iterable<number>) {
    this.#client = client;
    this.#used = new Set(used);
  }

  async allocate(): Promise<number> {
    if (this.#next === undefined) await this.#fromServer();
    let id = this.#next!;
    while (this.#used.has(id)) id += 1;
    this.#used.add(id);
    this.#next = id + 1;
    return id;
  }

  /** The id turned out to be taken (someone else created it meanwhile): never hand it out again. */
  async collided(id: number): Promise<void> {
    this.#used.add(id);
    await this.#fromServer();
  }

  /** The create of `id` failed without creating anything: it may be handed out again. */
  release(id: number): void {
    this.#used.delete(id);
    if (this.#next !== undefined && id < this.#next) this.#next = id;
  }

  async #fromServer(): Promise<void> {
    // Concurrent callers share one request.
    this.#refresh ??= getNextVmid(this.#client);
    try {
      const id = await this.#refresh;
      this.#next = Math.max(id, this.#next ?? 0);
    } finally {
      this.#refresh = undefined;
    }
  }
}
