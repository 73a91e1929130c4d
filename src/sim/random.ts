// Deterministic randomness for the simulator: everything "random" (UPID pids, token secrets,
// task durations, fault probabilities) comes from one seeded generator so that a run with the
// same --seed and the same requests behaves the same.
import type { Random } from "./contract.js";

/** A small, fast 32-bit generator (mulberry32); quality is ample for simulation. */
export class SeededRandom implements Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  hex(bytes: number): string {
    const out: string[] = [];
    for (let i = 0; i < bytes; i++)
      out.push(
        Math.floor(this.next() * 256)
          .toString(16)
          .padStart(2, "0"),
      );
    return out.join("");
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A version-4-shaped UUID (what PVE uses for token secrets). */
  uuid(): string {
    const h = this.hex(16);
    const variant = ((Number.parseInt(h[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/** A seed for runs that were not given one (printed at start so the run can be repeated). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}
