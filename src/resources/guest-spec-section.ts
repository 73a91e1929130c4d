// The spec side of the guest-kind contract: the top-level section of a spec file a kind's
// guests are written in (`vms:`, `containers:`). The spec loader (sources/spec/) knows no kind
// by name: it assembles the file's schema from each registered kind's section, reads each
// section's entries through it, and checks identities across every kind's entries at once.
import type { z } from "zod";
import type { GuestSpecBase } from "./spec-section/guest-base.js";
import type { IssueSink, SourceLocation, SpecPath } from "./spec-section/issues.js";

/** What every kind's spec entry carries: the base fields, and its kind as the spec names it (`vm`, `container`). */
export interface GuestSpecEntry extends GuestSpecBase {
  kind: string;
}

/** What to say about a key a schema refused, or undefined to leave the wording to the caller's general rules. */
export type UnknownKeyMessage = (within: SpecPath, key: string, allowed: string[]) => string | undefined;

export interface GuestSpecSection<Key extends string, S extends GuestSpecEntry, D> {
  /** The section's key in a spec file and in the loaded spec document (`vms`). */
  key: Key;
  /** How the JSON Schema describes the section ("QEMU virtual machines."). */
  description: string;
  /** The zod schema of one entry (strict: unknown keys are errors), built once and shared. */
  schema(): z.ZodType;
  /**
   * One entry as its schema accepted it, normalized, with every check of its values PVE would
   * make; problems go to `sink` at `path` and below. Undefined: the entry cannot be used, and
   * is left out of the checks across guests.
   */
  normalize(raw: unknown, path: SpecPath, source: SourceLocation, sink: IssueSink): S | undefined;
  /** The entry's field that holds its name (`name`, `hostname`): where a name used twice is reported. */
  nameField: string;
  /** How messages name one entry ("vm 100 (web1)"). */
  describe(entry: S): string;
  /** The wording for a key the schema refused at `within` (a path inside one entry; [] is the entry itself). */
  unknownKeyMessage: UnknownKeyMessage;
  /** The entry as the engine compares it. */
  toDesired(entry: S): D;
}
