// The registry of object families: the cluster objects a spec may declare besides guests
// (backup jobs, access objects ...). Each family is one folder that exports one definition
// (resources/object-family.ts, the contract); registering it is one line in FAMILIES. The spec
// loader, the engine, the application and the CLI's renderers reach a family only through the
// functions below, never its folder. A family the spec does not declare is not managed at all.
import type { z } from "zod";
import type { ApiReader } from "../api/endpoints/index.js";
import type { ObjectIntent, ObjectKind } from "../plan/intent.js";
import type { ApiCall, ObjectPlan, ParamValue, PrivilegeNeed } from "../plan/types.js";
import { ACCESS } from "./access/family.js";
import { BACKUP_JOBS } from "./backup-job/family.js";
import { HA_RULES } from "./ha-rule/family.js";
import type {
  FamilyDefinition,
  FamilyPlans,
  ObjectPlanOptions,
  ObjectSection,
  SectionEntry,
  SectionInput,
  SpecIssue,
  WrittenFile,
} from "./object-family.js";

export type { FamilyPlans, ObjectPlanOptions, SecretFileState, SectionEntry, SectionInput, WrittenFile } from "./object-family.js";
// What the backup commands (list, destroy's notes, NetBox's vmid quarantine) read of the
// backup-job family besides managing it.
export { type CoverableGuest, coveredByEnabledJobs, type LiveBackupJob, readBackupJobs } from "./backup-job/index.js";
export type { DesiredBackupJobs, JobPlans } from "./backup-job/index.js";

/** Every family, one line each, in the order their sections appear in a spec file (and its JSON Schema). */
const FAMILIES = [BACKUP_JOBS, ACCESS, HA_RULES] as const;

type Family = (typeof FAMILIES)[number];
type EntryOf<F> = F extends FamilyDefinition<string, infer E, unknown> ? E : never;
type DesiredOf<F> = F extends FamilyDefinition<string, SectionEntry, infer D> ? D : never;
type ShownOf<F> = F extends FamilyDefinition<string, SectionEntry, unknown, infer S> ? S : never;

/** The top-level spec keys the families declare ("backupJobs", "access"). */
export type ObjectSectionKey = Family["section"]["key"];
/** The families' sections of a loaded spec, by key: absent when no file writes it. */
export type ObjectSections = { [F in Family as F["section"]["key"]]?: EntryOf<F>[] };
/** What `show` and `import` write under each family's key. */
export type ShownSections = { [F in Family as F["section"]["key"]]?: ShownOf<F> };
/** The families' objects as the engine compares them, by section key: absent when not managed. */
export type DesiredObjects = { [F in Family as F["section"]["key"]]?: DesiredOf<F> };

/** A family with its types forgotten: every loop below works on any family alike. */
type AnyFamily = FamilyDefinition<string, SectionEntry, unknown>;

const ALL: readonly AnyFamily[] = FAMILIES;

/** Every family in the order their objects are planned and run (each phase keeps this order). */
const PLAN_ORDER: readonly AnyFamily[] = [...ALL.filter((f) => f.plannedFirst), ...ALL.filter((f) => !f.plannedFirst)];

function declared(family: AnyFamily, objects: DesiredObjects): unknown {
  const byKey: Partial<Record<string, unknown>> = objects;
  return byKey[family.section.key];
}

function familyOf(kind: ObjectKind): AnyFamily {
  const family = ALL.find((f) => f.kinds.includes(kind));
  if (!family) throw new Error(`no object family registers kind ${kind}`);
  return family;
}

// ---- the spec side: sections of a spec file ----

/** Every family's section key, in spec order ("backupJobs", "access"). */
export function specSectionKeys(): string[] {
  return ALL.map((f) => f.section.key);
}

/** The object kinds every family registers, in spec order. */
export function objectKinds(): ObjectKind[] {
  return ALL.flatMap((f) => f.kinds);
}

/** Every entry of the declared sections, in spec order (their connections say which clusters the spec uses). */
export function objectSectionEntries(sections: ObjectSections): SectionEntry[] {
  const byKey: Partial<Record<string, SectionEntry[]>> = sections;
  return ALL.flatMap((f) => byKey[f.section.key] ?? []);
}

/**
 * The sections' entries on one connection (every entry when `connection` is undefined). A
 * declared section stays declared with none of its entries on the connection: a family the
 * spec declares is managed there too (a declared empty list deletes pvectl's objects).
 */
export function objectSectionsOn(sections: ObjectSections, connection: string | undefined): ObjectSections {
  const byKey: Partial<Record<string, SectionEntry[]>> = sections;
  const out: Record<string, SectionEntry[]> = {};
  for (const f of ALL) {
    const entries = byKey[f.section.key];
    if (entries !== undefined) out[f.section.key] = connection === undefined ? entries : entries.filter((e) => e.connection === connection);
  }
  // Each key keeps a subset of its own family's entries.
  return out as ObjectSections;
}

/** The files the sections' entries would have pvectl write (checked against the secret policy before anything is sent). */
export function writtenFilesOf(sections: ObjectSections): WrittenFile[] {
  const byKey: Partial<Record<string, SectionEntry[]>> = sections;
  return ALL.flatMap((f) => {
    const entries = byKey[f.section.key];
    return entries === undefined ? [] : (f.writtenFiles?.(entries) ?? []);
  });
}

/** Each family's section schema by key, in spec order: the spec file's schema includes them. */
export function objectSectionSchemas(): Array<[string, z.ZodType]> {
  return ALL.map((f) => [f.section.key, f.section.schema()]);
}

/** One file's sections, by key: only those the file declares. */
export function readObjectSections(
  record: Record<string, unknown>,
  input: (raw: unknown, key: string) => SectionInput,
): Map<string, SectionEntry[]> {
  const out = new Map<string, SectionEntry[]>();
  for (const { section } of ALL) {
    const entries = section.read(input(record[section.key], section.key));
    if (entries !== undefined) out.set(section.key, entries);
  }
  return out;
}

/** Every file's sections merged (checked across files; problems go to `issues`): a section is present when any file declares it. */
export function mergeObjectSections(
  files: ReadonlyArray<ReadonlyMap<string, SectionEntry[]>>,
  connections: string[],
  issues: SpecIssue[],
): ObjectSections {
  const out: Record<string, SectionEntry[]> = {};
  for (const { section } of ALL as ReadonlyArray<{ section: ObjectSection<string, SectionEntry> }>) {
    if (files.every((file) => !file.has(section.key))) continue;
    out[section.key] = section.merge(
      files.flatMap((file) => file.get(section.key) ?? []),
      connections,
      issues,
    );
  }
  // Each section's entries are what its own read and merge returned: the registry's types hold.
  return out as ObjectSections;
}

/** The cluster objects a spec's sections declare, as the engine compares them. */
export function desiredObjectsOf(sections: ObjectSections): DesiredObjects {
  const byKey: Partial<Record<string, SectionEntry[]>> = sections;
  const out: Record<string, unknown> = {};
  for (const f of ALL) {
    const entries = byKey[f.section.key];
    const desired = entries === undefined ? undefined : f.desired(entries);
    if (desired !== undefined) out[f.section.key] = desired;
  }
  // Each key holds what its own family's `desired` returned.
  return out as DesiredObjects;
}

// ---- the engine side: planning, running, privileges ----

/** The spec declares some cluster object (planning reads them). */
export function declaresObjects(desired: DesiredObjects): boolean {
  return ALL.some((f) => declared(f, desired) !== undefined);
}

/** Plans each declared family in plan order (one after the other); families the spec does not declare are not read. */
export async function planObjectFamilies(api: ApiReader, desired: DesiredObjects, options: ObjectPlanOptions): Promise<FamilyPlans[]> {
  const out: FamilyPlans[] = [];
  for (const family of PLAN_ORDER) {
    const mine = declared(family, desired);
    if (mine !== undefined) out.push(await family.plan(api, mine, options));
  }
  return out;
}

/** Privileges planning itself needs (reading whole lists). */
export function objectReadNeeds(desired: DesiredObjects): PrivilegeNeed[] {
  return PLAN_ORDER.flatMap((f) => {
    const mine = declared(f, desired);
    return mine === undefined ? [] : (f.readNeeds?.(mine) ?? []);
  });
}

/** After a failure that may have landed: is the object now as the step wanted it? */
export function objectLanded(api: ApiReader, intent: ObjectIntent): Promise<boolean> {
  return familyOf(intent.object).landed(api, intent);
}

/** What an object kind checks inside its handlers beyond the endpoint's own check, per call. */
export function objectCallNeeds(intent: ObjectIntent, params: Record<string, ParamValue>): PrivilegeNeed[] {
  return familyOf(intent.object).callNeeds(intent, params);
}

/** The secret files the declared objects write to (the engine reads what each holds before planning). */
export function secretFilesOf(desired: DesiredObjects): string[] {
  return PLAN_ORDER.flatMap((f) => {
    const mine = declared(f, desired);
    return mine === undefined ? [] : (f.secretFiles?.(mine) ?? []);
  });
}

/** The family of a call's object, when it is one and the family says what losing its secret means. */
function secretLossOf(intent: ApiCall["intent"]) {
  return intent.kind === "object" ? familyOf(intent.object).secretLoss : undefined;
}

/**
 * What apply says when a call revealing a one-time secret lost it after it landed (`what`: the
 * step's subject; `removed`: the object was removed again; `rest`: the step's calls that did not run).
 */
export function lostSecretText(call: ApiCall, what: string, removed: boolean, rest: ApiCall[]): string {
  const loss = secretLossOf(call.intent);
  if (loss) return loss.lost(what, removed, rest);
  return removed
    ? `${what}: PVE created it, but its answer (with the secret, shown only once) was lost; it was removed again since nobody has its secret. Run apply again to create it anew`
    : `${what}: PVE created it, but its answer (with the secret, shown only once) was lost, and removing it failed: nobody has its secret. Delete it by hand and run apply again`;
}

/** What apply says when a call after `secretCall`'s delivered secret failed; undefined: the error says it all. */
export function afterSecretDeliveredText(secretCall: ApiCall, error: string, stepId: string, rest: ApiCall[]): string | undefined {
  return secretLossOf(secretCall.intent)?.afterDelivery(error, stepId, rest);
}

/** Pools the objects section creates (before the guests run): guests may join them in the same apply. */
export function poolsCreatedBy(objects: ObjectPlan[]): string[] {
  return PLAN_ORDER.flatMap((f) => f.poolsCreated?.(objects) ?? []);
}

/** What `access needs` lists for one declared family: reading its objects, and every call managing them. */
export interface FamilyNeeds {
  operation: string;
  reads: Array<PrivilegeNeed & { user: string }>;
  calls: Array<{ object: string; call: ApiCall }>;
}

/** Each declared family's needs for `access needs`, in spec order. */
export function objectAccessNeeds(desired: DesiredObjects): FamilyNeeds[] {
  return ALL.flatMap((f) => {
    const mine = declared(f, desired);
    if (mine === undefined || f.accessNeeds === undefined) return [];
    return [{ operation: f.accessNeeds.operation, reads: f.accessNeeds.reads(mine), calls: f.accessNeeds.everyCall(mine) }];
  });
}

/** What `access needs` may derive privileges for besides guests ("backup jobs"), in spec order. */
export function accessNeedsPlurals(): string[] {
  return ALL.flatMap((f) => (f.accessNeeds ? [f.accessNeeds.plural] : []));
}

// ---- show and import ----

/** `pvectl import`'s flag for one family: every object of it under its section key. */
export interface ObjectImportFlag {
  key: ObjectSectionKey;
  flag: string;
  description: string;
  /** `--all` asks for the family too; these words say so in its help. */
  inAll?: string;
}

/** Each family's import flag, in spec order. */
export function objectImportFlags(): ObjectImportFlag[] {
  return FAMILIES.map((f) => ({ key: f.section.key, ...f.show.importFlag }));
}

/** The live state of each declared object in the spec's shape, by section key (plan order), and what does not exist. */
export async function showObjects(api: ApiReader, sections: ObjectSections): Promise<{ sections: ShownSections; missing: string[] }> {
  const byKey: Partial<Record<string, SectionEntry[]>> = sections;
  const out: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const f of PLAN_ORDER) {
    const entries = byKey[f.section.key];
    if (entries === undefined) continue;
    const shown = await f.show.declared(api, entries);
    if (shown.section !== undefined) out[f.section.key] = shown.section;
    missing.push(...shown.missing);
  }
  // Each key holds what its own family's `show` returned.
  return { sections: out as ShownSections, missing };
}

/** Every object of the asked families in the spec's shape, by section key (plan order): what `import` writes. */
export async function importObjects(api: ApiReader, wanted: Partial<Record<ObjectSectionKey, boolean>>): Promise<ShownSections> {
  const asked: Partial<Record<string, boolean>> = wanted;
  const out: Record<string, unknown> = {};
  for (const f of PLAN_ORDER) if (asked[f.section.key]) out[f.section.key] = await f.show.everything(api);
  return out as ShownSections;
}

// ---- rendering ----

/** How a plan line names an object of `kind` ("backup job", "API token"). */
export function objectNoun(kind: ObjectKind): string {
  return familyOf(kind).render.nouns[kind] ?? kind;
}

/** Why an object of `kind` is someone else's, for the kinds that carry no marker of their own; undefined: the marker says it. */
export function foreignText(kind: ObjectKind): string | undefined {
  return familyOf(kind).render.foreign?.[kind];
}
