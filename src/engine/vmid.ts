// vmids for guests the spec gives none: PVE's /cluster/nextid gives the first free id, then
// ids are handed out locally (skipping every id the cluster uses) so parallel creates do not
// all get the same answer. PVE's create is the atomic check: on "already exists" the caller
// marks the id used and asks again.
//
// A range (NetBox's `clusters.<c>.vmidRange`) replaces nextid: ids come from the range only,
// lowest free first. Reserved ids (freed recently, in quarantine) are never handed out, so a
// new guest does not take the id of one destroyed an hour ago.
import { getNextVmid } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import { PvectlError } from "../util/errors.js";

export interface VmidPolicy {
  /** Inclusive bounds ids are taken from; absent: PVE's nextid and up. */
  range?: readonly [number, number];
  /** Ids never handed out (recently freed). */
  reserved?: Iterable<number>;
}

/** Every id of the range is used or reserved. */
export class VmidRangeFullError extends PvectlError {
  readonly kind = "vmid-range-full";

  constructor(range: readonly [number, number], reserved: number) {
    super(
      `no free vmid in the range ${range[0]}-${range[1]}: every id is used${reserved > 0 ? ` or was freed recently (${reserved} in quarantine)` : ""}; widen the range or shorten the quarantine`,
    );
    this.name = "VmidRangeFullError";
  }
}

export class VmidAllocator {
  readonly #client: PveClient;
  readonly #used: Set<number>;
  readonly #reserved: Set<number>;
  readonly #range: readonly [number, number] | undefined;
  #next: number | undefined;
  #refresh: Promise<number> | undefined;

  constructor(client: PveClient, used: Iterable<number>, policy: VmidPolicy = {}) {
    this.#client = client;
    this.#used = new Set(used);
    this.#reserved = new Set(policy.reserved ?? []);
    this.#range = policy.range;
    if (this.#range) this.#next = this.#range[0];
  }

  async allocate(): Promise<number> {
    if (this.#next === undefined) await this.#fromServer();
    let id = this.#next!;
    while (this.#used.has(id) || this.#reserved.has(id)) id += 1;
    if (this.#range && id > this.#range[1]) throw new VmidRangeFullError(this.#range, this.#reserved.size);
    this.#used.add(id);
    this.#next = id + 1;
    return id;
  }

  /** The id turned out to be taken (someone else created it meanwhile): never hand it out again. */
  async collided(id: number): Promise<void> {
    this.#used.add(id);
    if (!this.#range) await this.#fromServer();
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
