// Which `unusedN` key PVE gives a volume a container lets go of. Moving a volume (without
// `delete`) and deleting a mount point both keep the volume as the lowest free unusedN
// (pve-container's add_unused_volume). A plan that then destroys that volume names the key in
// advance; the steps run in plan order and the config digest guards against changes
// meanwhile, so the same keys are handed out here in the same order.
export class UnusedSlots {
  readonly #taken: Set<number>;

  constructor(unused: Record<string, string>) {
    this.#taken = new Set(Object.keys(unused).map((k) => Number(k.slice("unused".length))));
  }

  /** The key the next volume let go of will get. */
  next(): string {
    let i = 0;
    while (this.#taken.has(i)) i += 1;
    this.#taken.add(i);
    return `unused${i}`;
  }
}
