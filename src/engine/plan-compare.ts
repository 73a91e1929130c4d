// Compares a saved plan with the plan recomputed from its spec and the live cluster. Apply
// runs the recomputed plan, and only when the two are equal: every guest, every step, in the
// same order, with the same ids, actions, severities, API calls and parameters, deleted volumes
// and displayed changes. Values are compared in a canonical form (object keys sorted), so
// formatting or key order in the file does not matter, but any edit does.
import type { GuestPlan, ObjectPlan, Plan, Step } from "../plan/types.js";

/** JSON with object keys sorted and `undefined` members left out: equal values, equal strings. */
export function canonical(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) out[key] = sortKeys(member);
  }
  return out;
}

/** The members of two objects whose canonical values differ. */
function differingFields(a: object, b: object, ignore: string[] = []): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !ignore.includes(k)).sort();
  return keys.filter((k) => canonical((a as Record<string, unknown>)[k]) !== canonical((b as Record<string, unknown>)[k]));
}

function show(value: unknown): string {
  return value === undefined ? "(none)" : typeof value === "string" ? value : canonical(value);
}

/** The first place two values differ, as `calls[0].body.memory (saved 1, recomputed 2)`. */
function firstDifference(a: unknown, b: unknown, where: string): string {
  const scalar = (v: unknown) => v === undefined || v === null || typeof v !== "object";
  if (scalar(a) || scalar(b) || Array.isArray(a) !== Array.isArray(b)) return `${where} (saved ${show(a)}, recomputed ${show(b)})`;
  if (Array.isArray(a) && Array.isArray(b)) {
    const i = a.findIndex((item, n) => canonical(item) !== canonical(b[n]));
    if (i < 0 || a.length !== b.length) return `${where} (saved ${a.length} entries, recomputed ${b.length})`;
    return firstDifference(a[i], b[i], `${where}[${i}]`);
  }
  const field = differingFields(a as object, b as object)[0]!;
  return firstDifference((a as Record<string, unknown>)[field], (b as Record<string, unknown>)[field], `${where}.${field}`);
}

function compareStep(key: string, saved: Step, fresh: Step): string[] {
  const fields = differingFields(saved, fresh);
  if (fields.length === 0) return [];
  const record = (step: Step) => step as unknown as Record<string, unknown>;
  const detail = fields.map((f) => firstDifference(record(saved)[f], record(fresh)[f], f));
  return [`${key}: step ${saved.id} differs from the recomputed plan in ${detail.join(", ")}`];
}

function compareSteps(saved: { key: string; steps: Step[] }, fresh: { key: string; steps: Step[] }): string[] {
  const savedIds = saved.steps.map((s) => s.id);
  const freshIds = fresh.steps.map((s) => s.id);
  const problems: string[] = [];
  for (const step of saved.steps) {
    if (!freshIds.includes(step.id)) problems.push(`${saved.key}: step ${step.id} (${step.action}) is not in the recomputed plan`);
  }
  for (const step of fresh.steps) {
    if (!savedIds.includes(step.id))
      problems.push(`${saved.key}: the recomputed plan has step ${step.id} (${step.action}), which the saved plan lacks`);
  }
  if (problems.length > 0) return problems;
  if (canonical(savedIds) !== canonical(freshIds))
    return [`${saved.key}: the saved plan runs the steps in another order than the recomputed plan`];
  return saved.steps.flatMap((step, i) => compareStep(saved.key, step, fresh.steps[i]!));
}

function compareGuest(saved: GuestPlan, fresh: GuestPlan): string[] {
  // The digest is checked on its own (with a clearer message); warnings do not change what runs.
  const fields = differingFields(saved, fresh, ["steps", "digest", "warnings"]);
  const problems = fields.map((f) => {
    const a = (saved as unknown as Record<string, unknown>)[f];
    const b = (fresh as unknown as Record<string, unknown>)[f];
    return `${saved.key}: ${f} differs (saved ${show(a)}, recomputed ${show(b)})`;
  });
  return [...problems, ...compareSteps(saved, fresh)];
}

/** The objects section (backup jobs ...): the same objects, in the same order, with equal steps. */
function compareObjects(saved: ObjectPlan[], fresh: ObjectPlan[]): string[] {
  const name = (o: ObjectPlan) => `${o.kind} ${o.key}`;
  const freshByName = new Map(fresh.map((o) => [name(o), o]));
  const savedNames = new Set(saved.map(name));
  const problems: string[] = [];
  for (const object of saved) {
    const other = freshByName.get(name(object));
    if (!other) {
      problems.push(`${name(object)} is in the saved plan but not in the recomputed plan`);
      continue;
    }
    const fields = differingFields(object, other, ["steps", "warnings"]);
    const record = (o: ObjectPlan) => o as unknown as Record<string, unknown>;
    problems.push(
      ...fields.map((f) => `${name(object)}: ${f} differs (saved ${show(record(object)[f])}, recomputed ${show(record(other)[f])})`),
    );
    problems.push(...compareSteps({ key: name(object), steps: object.steps }, { key: name(other), steps: other.steps }));
  }
  for (const object of fresh)
    if (!savedNames.has(name(object))) problems.push(`${name(object)} is in the recomputed plan but not in the saved plan`);
  if (problems.length === 0 && canonical(saved.map(name)) !== canonical(fresh.map(name)))
    problems.push("the saved plan lists the objects in another order than the recomputed plan");
  return problems;
}

/** Every difference between the saved and the recomputed plan; empty when they are equal. */
export function comparePlans(saved: Plan, fresh: Plan): string[] {
  return [...compareGuests(saved, fresh), ...compareObjects(saved.objects ?? [], fresh.objects ?? [])];
}

function compareGuests(saved: Plan, fresh: Plan): string[] {
  const freshByKey = new Map(fresh.guests.map((g) => [g.key, g]));
  const savedKeys = new Set(saved.guests.map((g) => g.key));
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const guest of saved.guests) {
    if (seen.has(guest.key)) problems.push(`${guest.key} appears more than once in the saved plan`);
    seen.add(guest.key);
    const other = freshByKey.get(guest.key);
    if (!other) problems.push(`${guest.key} is in the saved plan but not in the spec's plan`);
    else problems.push(...compareGuest(guest, other));
  }
  for (const guest of fresh.guests) {
    if (!savedKeys.has(guest.key)) problems.push(`${guest.key} is in the spec's plan but not in the saved plan`);
  }
  if (problems.length === 0 && canonical(saved.guests.map((g) => g.key)) !== canonical(fresh.guests.map((g) => g.key))) {
    problems.push("the saved plan lists the guests in another order than the recomputed plan");
  }
  return problems;
}
