// Bounds on what one spec may make pvectl do. A spec can come from a pull request, so a hostile
// or broken file must be refused quickly with a clear message, not exhaust memory, the stack
// or the CPU. Documented in docs/spec.md ("Limits and diagnostics").

/** Largest spec file read (bytes); checked before parsing. Real specs are a few kilobytes. */
export const MAX_SPEC_BYTES = 10 * 1024 * 1024;

/** Deepest nesting of maps and lists; a valid spec nests about 6 levels. */
export const MAX_NESTING_DEPTH = 64;

/**
 * How much data YAML aliases (`*name`) may copy, as the yaml library counts it: a guard against
 * "billion laughs" files whose few lines expand to gigabytes.
 */
export const MAX_ALIAS_COUNT = 1000;

/** YAML documents (`---`) in one file. */
export const MAX_DOCUMENTS = 1000;

/** "10 MB" */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MB` : `${bytes} bytes`;
}

/** The message for a spec file larger than MAX_SPEC_BYTES. */
export function tooLargeMessage(bytes: number): string {
  return `the file is ${formatBytes(bytes)}; pvectl reads spec files of at most ${formatBytes(MAX_SPEC_BYTES)}. Split it into several files (a directory of specs is read as one)`;
}
