// The simulated wall clock. It runs at real speed scaled by the time scale (so with
// timeScale 0.1 a 30-second task takes 3 real seconds and the clock advances 30 s during it),
// plus an offset the admin API can push forward (e.g. to expire a 2-hour ticket in a test).
export class SimClock {
  private readonly realStart = Date.now();
  private offsetSeconds = 0;

  constructor(
    /** Simulated seconds since the epoch at start. */
    private readonly startEpoch: number,
    /** Real seconds per simulated second (1 = real time). */
    private readonly timeScale: number,
  ) {}

  /** Simulated seconds since the epoch (fractional). */
  nowPrecise(): number {
    const realElapsed = (Date.now() - this.realStart) / 1000;
    return this.startEpoch + realElapsed / this.timeScale + this.offsetSeconds;
  }

  /** Simulated whole seconds since the epoch (what PVE shows everywhere). */
  now(): number {
    return Math.floor(this.nowPrecise());
  }

  advance(seconds: number): void {
    this.offsetSeconds += seconds;
  }

  /** Real milliseconds that correspond to `simSeconds` of simulated time. */
  realMs(simSeconds: number): number {
    return simSeconds * 1000 * this.timeScale;
  }
}
