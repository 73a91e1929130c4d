// The PVE API client: connection, auth, TLS, errors, retries, task waiting, accounting.
export { PveClient } from "./client.js";
export type { PveFailureClass } from "./classify.js";
export {
  isPveError,
  lockHeldError,
  type PermissionFailure,
  PveError,
  type PveErrorKind,
  parsePermissionFailure,
  type TaskFailure,
} from "./errors.js";
export { clientOptionsFromEnv, normalizeFingerprint, type PveClientOptions } from "./options.js";
export { type EndpointStat, formatStats } from "./stats.js";
export { type TaskApi, type TaskOutcome, TaskWatcher, type TaskWatcherOptions } from "./task-watcher.js";
export type { TaskResult, WaitOptions } from "./tasks.js";
export type { Envelope, HttpMethod } from "./transport.js";
