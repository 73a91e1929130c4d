// One diff for every access kind that carries pvectl's marker in its comment (groups, users,
// tokens, pools): create the missing, update the fields the spec names that differ, adopt an
// unmarked one only with `adopt`, delete pvectl's that the spec no longer lists, and list the
// others as not managed.
import type { ObjectKind } from "../../plan/intent.js";
import type { FieldChange, ObjectPlan, ParamValue, Step, StepDraft } from "../../plan/types.js";
import { markedComment, OBJECT_MARKER } from "../object-marker.js";

export interface KindPlans {
  objects: ObjectPlan[];
  /** Spec entries naming an object pvectl did not create (no adopt): why they are refused. */
  refused: Array<{ key: string; message: string }>;
}

function numbered(kind: ObjectKind, key: string, drafts: StepDraft[]): Step[] {
  return drafts.map((draft, i) => ({ id: `${kind}:${key}/${i + 1}-${draft.action}`, ...draft }));
}

/** A planned object; the spec's own (created or updated) run before the guests. */
export function objectPlan(
  kind: ObjectKind,
  key: string,
  exists: boolean,
  drafts: StepDraft[],
  extra: Partial<ObjectPlan> = {},
): ObjectPlan {
  return { kind, key, exists, steps: numbered(kind, key, drafts), errors: [], warnings: [], ...extra };
}

export function adoptionRefusal(noun: string, id: string, where: string | undefined): string {
  const at = where ? ` (${where})` : "";
  return `${noun} ${id}${at} exists but was not created by pvectl (no ${OBJECT_MARKER} marker at the end of its comment); add \`adopt: true\` to its spec entry to manage it`;
}

/** The fields of an update: PVE keys to send and what the plan shows. */
export interface FieldDiff {
  params: Record<string, ParamValue>;
  changes: FieldChange[];
}

export function emptyDiff(): FieldDiff {
  return { params: {}, changes: [] };
}

/** Adds `key` to the diff when the wanted value (undefined: not managed) differs from the live one. */
export function compareField(
  diff: FieldDiff,
  field: string,
  key: string,
  want: ParamValue | undefined,
  have: ParamValue,
  show: (v: ParamValue) => string = String,
): void {
  if (want === undefined || want === have) return;
  diff.params[key] = want;
  diff.changes.push({ field, before: show(have), after: show(want) });
}

/** The comment write of an update: the marker when missing (adoption), the text when it differs. */
export function compareComment(diff: FieldDiff, want: string | undefined, live: { comment?: string; marked: boolean }): void {
  if (live.marked && (want === undefined || want === (live.comment ?? ""))) return;
  diff.params.comment = markedComment(want ?? live.comment);
  if (want !== undefined && want !== (live.comment ?? ""))
    diff.changes.push({ field: "comment", ...(live.comment !== undefined ? { before: live.comment } : {}), after: want });
}

export interface CommentedKind<D, L> {
  kind: ObjectKind;
  noun: string;
  desiredKey(d: D): string;
  liveKey(l: L): string;
  create(d: D): StepDraft;
  /** The update of `l` towards `d` (comment handled by the caller); `adopting`: it gets the marker. */
  update(d: D, l: L, diff: FieldDiff, adopting: boolean): StepDraft;
  /** The fields that differ, except the comment. */
  diff(d: D, l: L): FieldDiff;
  delete(l: L): StepDraft;
  /** Why pvectl's object `l`, no longer in the spec, cannot be deleted (a pool with guests). */
  keep?(l: L): string | undefined;
  /** Problems of a create or update that block it (a token without a place for its secret). */
  problems?(d: D, l: L | undefined): string[];
  /** A step that makes the existing `l` anew, planned instead of any update (a token whose secret is lost). */
  replace?(d: D, l: L): StepDraft | undefined;
  /** What the plan says about a listed object without changing it. */
  warnings?(d: D, l: L | undefined): string[];
}

interface Owned {
  marked: boolean;
  comment?: string;
}

interface Spec {
  adopt: boolean;
  where?: string;
  comment?: string;
}

function planOne<D extends Spec, L extends Owned>(
  k: CommentedKind<D, L>,
  d: D,
  live: L | undefined,
  adoptAll: boolean,
  out: KindPlans,
): void {
  const key = k.desiredKey(d);
  const errors = k.problems?.(d, live) ?? [];
  if (live === undefined) {
    out.objects.push(objectPlan(k.kind, key, false, errors.length ? [] : [k.create(d)], { phase: "before-guests", errors }));
    return;
  }
  if (!live.marked && !d.adopt && !adoptAll) {
    const message = adoptionRefusal(k.noun, key, d.where);
    out.objects.push(objectPlan(k.kind, key, true, [], { errors: [`left alone: ${message}`] }));
    out.refused.push({ key, message });
    return;
  }
  const warnings = k.warnings?.(d, live) ?? [];
  const replaced = errors.length ? undefined : k.replace?.(d, live);
  if (replaced !== undefined) {
    out.objects.push(objectPlan(k.kind, key, true, [replaced], { phase: "before-guests", errors, warnings }));
    return;
  }
  const diff = k.diff(d, live);
  compareComment(diff, d.comment, live);
  const drafts = Object.keys(diff.params).length === 0 || errors.length ? [] : [k.update(d, live, diff, !live.marked)];
  out.objects.push(objectPlan(k.kind, key, true, drafts, { phase: "before-guests", errors, warnings }));
}

/** Plans one commented kind; `desired` undefined: not managed, nothing planned. */
export function planCommented<D extends Spec, L extends Owned>(
  k: CommentedKind<D, L>,
  desired: D[] | undefined,
  live: L[],
  adoptAll: boolean,
): KindPlans {
  const out: KindPlans = { objects: [], refused: [] };
  if (desired === undefined) return out;
  const byKey = new Map(live.map((l) => [k.liveKey(l), l]));
  for (const d of desired) planOne(k, d, byKey.get(k.desiredKey(d)), adoptAll, out);
  const wanted = new Set(desired.map((d) => k.desiredKey(d)));
  for (const l of live) {
    const key = k.liveKey(l);
    if (wanted.has(key)) continue;
    if (!l.marked) {
      out.objects.push(objectPlan(k.kind, key, true, [], { foreign: true }));
      continue;
    }
    const kept = k.keep?.(l);
    out.objects.push(objectPlan(k.kind, key, true, kept ? [] : [k.delete(l)], kept ? { warnings: [kept] } : {}));
  }
  return out;
}
