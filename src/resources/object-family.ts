// The object-family contract: everything the spec loader, the engine, the application and the
// CLI's renderers may ask of one family of cluster objects that are not guests (backup jobs,
// access objects ...). A family is one folder under resources/ that exports one definition of
// this shape; resources/objects.ts registers it in one line, and every other layer reaches the
// family only through that registry.
import type { z } from "zod";
import type { ApiReader } from "../api/endpoints/index.js";
import type { ObjectIntent, ObjectKind } from "../plan/intent.js";
import type { ApiCall, ObjectPlan, ParamValue, PrivilegeNeed } from "../plan/types.js";
import type { SourceLocation, SpecIssue, SpecPath } from "./spec-section/issues.js";
import type { IssueSink } from "./spec-section/issues.js";

export type { SourceLocation, SpecIssue, SpecPath };

/** What the engine hands a family's planner besides the family's own desired state. */
export interface ObjectPlanOptions {
  /** `--adopt`: objects pvectl did not create may be managed. */
  adopt?: boolean;
  /** `--show-secret`: a new token without secretFile gets its secret printed once. */
  showSecret?: boolean;
  /** Pools the plan's guests join: never deleted by the same plan. */
  poolsInUse?: string[];
  /** What each secret file a family names holds, by path (the engine reads the files): a lost secret is reset. */
  secretFiles?: ReadonlyMap<string, SecretFileState>;
}

/** What a secret file holds, as the engine read it (a family decides what that means for its objects). */
export type SecretFileState = { holds: "secret" } | { holds: "nothing"; why: string } | { holds: "unknown"; why: string };

export interface FamilyPlans {
  objects: ObjectPlan[];
  /** Spec entries naming an object pvectl did not create (no adopt): why they are refused. */
  refused: Array<{ key: string; message: string }>;
}

/** Where one spec file's section is read from, and where its problems go. */
export interface SectionInput {
  /** The section as the file wrote it (not yet checked). */
  raw: unknown;
  /**
   * The section as the whole file's schema check returned it, when the file passed: its
   * entries need no second check. Undefined when the file failed (the section checks its
   * entries one by one, so one run reports every problem).
   */
  checked: unknown;
  /** Whether the file's schema check found a problem at `path` or under it. */
  hasIssueUnder(path: SpecPath): boolean;
  locate(path: SpecPath, part?: "key" | "value"): SourceLocation;
  sink: IssueSink;
  /** The spec file's directory: paths a section names are relative to it. */
  baseDir: string;
}

/** One entry of a section as loaded: the cluster it belongs to (a connection name), and where it was written. */
export interface SectionEntry {
  connection?: string;
  source: SourceLocation;
}

/**
 * A family's top-level section of a spec file (`backupJobs:`, `access:`): its schema, how one
 * file's section is normalised, and how every file's entries are merged into the spec.
 */
export interface ObjectSection<Key extends string, Entry extends SectionEntry> {
  /** The section's key in a spec file, and in the loaded spec document. */
  key: Key;
  /** The section's zod schema, optional and described (part of the file's schema and its JSON Schema). */
  schema(): z.ZodType;
  /** One file's section: its entries, or undefined when the file's value declares nothing of the family. */
  read(input: SectionInput): Entry[] | undefined;
  /** Every file's entries, checked against each other and the defined connections (sorted names); problems go to `issues`. */
  merge(entries: Entry[], connections: string[], issues: SpecIssue[]): Entry[];
}

/**
 * A family as its folder defines it: typed by its section key, its spec entries, what the
 * engine compares, and what `show`/`import` write under its key.
 */
export interface FamilyDefinition<Key extends string, Entry extends SectionEntry, Desired, Shown = unknown> {
  section: ObjectSection<Key, Entry>;
  /** The object kinds of its plan steps. */
  kinds: readonly ObjectKind[];
  /**
   * Whether its objects are planned and run before every other family's (and the guests'):
   * what others name (pools, users) must exist first.
   */
  plannedFirst?: boolean;
  /** What the engine compares, from the section's entries on one connection; undefined: nothing to manage. */
  desired(entries: Entry[]): Desired | undefined;
  /** Reads what the declaration needs and plans it. */
  plan(api: ApiReader, desired: Desired, options: ObjectPlanOptions): Promise<FamilyPlans>;
  /** After a failure that may have landed: is the object now as the step wanted it? */
  landed(api: ApiReader, intent: ObjectIntent): Promise<boolean>;
  /** What a call checks inside its handler beyond the endpoint's own check. */
  callNeeds(intent: ObjectIntent, params: Record<string, ParamValue>): PrivilegeNeed[];
  /** Privileges without which PVE lists only part of what planning reads (a plan from half a list is wrong). */
  readNeeds?(desired: Desired): PrivilegeNeed[];
  /** The secret files its objects write to (the engine reads what each holds before planning). */
  secretFiles?(desired: Desired): string[];
  /** Pools its planned objects create (before the guests run): guests may join them in the same apply. */
  poolsCreated?(objects: ObjectPlan[]): string[];
  /**
   * The files its entries would have pvectl write (a token's secretFile): checked against the
   * operator's secret policy before any client exists (sources/written-files.ts).
   */
  writtenFiles?(entries: Entry[]): WrittenFile[];
  /** What apply says when a call that reveals a one-time secret lost it (absent: no call of the family reveals one). */
  secretLoss?: SecretLoss;
  /** What `access needs` lists for the declared objects (absent: the family adds nothing there). */
  accessNeeds?: FamilyAccessNeeds<Desired>;
  /** `show` and `import`: the live objects in the section's spec shape. */
  show: FamilyShow<Entry, Shown>;
  /** How the CLI names its objects. */
  render: FamilyRender;
}

/** A file a spec entry would have pvectl write, and who asks for it. */
export interface WrittenFile {
  /** Where the file would be written (absolute). */
  path: string;
  /** The spec file that names it: the file may land in its directory tree. */
  specFile: string;
  /** The entry and its place, as a refusal names it ("token deploy@pve!ci (web.yaml:6)"). */
  entry: string;
  /** The entry's key that names the file ("secretFile"). */
  key: string;
}

/**
 * A call whose answer holds a secret PVE shows only once: what apply says when the secret was
 * lost (the answer was lost after the call landed, or it could not be kept), and when a later
 * call of the same step failed after the secret was delivered. `rest`: the step's calls after
 * the one that failed, which did not run.
 */
export interface SecretLoss {
  /** `what`: the step's subject; `removed`: the object was removed again (nobody has its secret). */
  lost(what: string, removed: boolean, rest: ApiCall[]): string;
  /** undefined: nothing of the family's is left undone by `rest`, the call's own error says it all. */
  afterDelivery(error: string, stepId: string, rest: ApiCall[]): string | undefined;
}

export interface FamilyAccessNeeds<Desired> {
  /** The operation its needs are listed under ("backup-job"). */
  operation: string;
  /** What `access needs` says when nothing is declared: "... and no <plural>". */
  plural: string;
  /** Privileges reading the declared objects needs, and who needs them. */
  reads(desired: Desired): Array<PrivilegeNeed & { user: string }>;
  /** Every call managing the declared objects can make (create, update, delete of each), whatever today's plan is. */
  everyCall(desired: Desired): Array<{ object: string; call: ApiCall }>;
}

export interface FamilyShow<Entry, Shown> {
  /**
   * `pvectl import`'s flag that asks for every object of the family (`--backup-jobs`), with its
   * help text; `inAll`: `--all` asks for them too, and its help says so with these words.
   */
  importFlag: { flag: string; description: string; inAll?: string };
  /** The live state of each object the entries declare, in the spec's shape (undefined: no section), and those that do not exist. */
  declared(api: ApiReader, entries: Entry[]): Promise<{ section: Shown | undefined; missing: string[] }>;
  /** Every object of the cluster in the spec's shape (foreign ones with `adopt: true`): what `import` writes. */
  everything(api: ApiReader): Promise<Shown>;
}

export interface FamilyRender {
  /** "backup job", "API token" ...: how a plan line names an object of each kind. */
  nouns: Partial<Record<ObjectKind, string>>;
  /** Why an object is someone else's, for the kinds that carry no marker of their own. */
  foreign?: Partial<Record<ObjectKind, string>>;
}
