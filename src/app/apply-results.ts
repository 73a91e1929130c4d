// What running a plan gives back and the rules it runs by: the events of the run (progress),
// the report per guest and object, the guard rails that hold steps back, and the error a
// refused preflight throws. A renderer of progress and reports reads these.
export type { ApplyEvent } from "../engine/apply.js";
export { PreflightFailedError } from "../engine/errors.js";
export { DEFERRED_REBOOT, type GuardRails, refusal, skipReasons } from "../engine/guard-rails.js";
export type { ApplyReport, GuestReport, GuestResult, ObjectReport, StepReport } from "../engine/report.js";
export type { CreateWait, SettleOptions } from "../engine/creates.js";
