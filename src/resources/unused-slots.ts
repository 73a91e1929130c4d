// Which `unusedN` key PVE gives a volume a guest lets go of. Moving a volume (without
// `delete`) and removing a mount point or disk both keep the volume as the lowest free unusedN
// (add_unused_volume, the same for containers and VMs); deleting that key frees it again. A plan that destroys
// such a volume names its key in advance, so the planner replays the same bookkeeping in
// step order. The steps that destroy are data-loss-risk ones, which run all together (with
// --allow-data-loss) or not at all, so the replay assumes every step runs; the config digest
// guards against changes made meanwhile.
export class UnusedSlots {
  readonly #taken: Set<number>;

  constructor(unused: Record<string, string>) {
    this.#taken = new Set(Object.keys(unused).map((k) => Number(k.slice("unused".length))));
  }

  /** The key the next volume let go of gets (the lowest free one). */
  take(): string {
    let i = 0;
    while (this.#taken.has(i)) i += 1;
    this.#taken.add(i);
    return `unused${i}`;
  }

  /** The key is deleted (its volume destroyed): PVE gives it to the next volume let go of. */
  free(key: string): void {
    this.#taken.delete(Number(key.slice("unused".length)));
  }
}
