// Remembers which inputs a pure check accepted, so that a spec of thousands of VMs written
// from one template (the same disks, NICs and options over and over) runs each distinct check
// once. Only acceptance is remembered: a refused input is checked again, so its problems are
// reported at each place it is written, exactly as without the memo.

/** Past this many distinct inputs the memo starts over: a memo must not grow without bound. */
const MAX_REMEMBERED = 20_000;

export class AcceptedInputs {
  private readonly seen = new Set<string>();

  /** Runs `check` unless `input` passed it before; remembers `input` when `check` reports no problem. */
  check(input: string, check: () => boolean): void {
    if (this.seen.has(input)) return;
    if (!check()) return;
    if (this.seen.size >= MAX_REMEMBERED) this.seen.clear();
    this.seen.add(input);
  }
}

/** The results of a pure conversion by input; a conversion that throws is not remembered. */
export class PureResults<T> {
  private readonly results = new Map<string, T>();

  get(input: string, compute: () => T): T {
    const known = this.results.get(input);
    if (known !== undefined) return known;
    const result = compute();
    if (this.results.size >= MAX_REMEMBERED) this.results.clear();
    this.results.set(input, result);
    return result;
  }
}
