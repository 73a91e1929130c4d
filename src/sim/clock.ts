// The simulated wall clock: real time plus an offset the admin API can push forward (e.g. to
// expire a 2-hour ticket in a test). It deliberately runs at real speed even when realistic
// timing uses a time scale: a scaled clock would expire tickets after 7200 x scale real
// seconds and break long benchmark runs of clients that renew tickets hourly.
export class SimClock {
  private readonly offsetAtStart: number;
  private offsetSeconds = 0;

  /** `startEpoch`: simulated seconds since the epoch at start (default: now). */
  constructor(startEpoch = Date.now() / 1000) {
    this.offsetAtStart = startEpoch - Date.now() / 1000;
  }

  /** Simulated seconds since the epoch (fractional). */
  nowPrecise(): number {
    return Date.now() / 1000 + this.offsetAtStart + this.offsetSeconds;
  }

  /** Simulated whole seconds since the epoch (what PVE shows everywhere). */
  now(): number {
    return Math.floor(this.nowPrecise());
  }

  advance(seconds: number): void {
    this.offsetSeconds += seconds;
  }
}
