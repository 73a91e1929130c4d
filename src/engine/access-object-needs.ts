// What managing the spec's cluster objects needs, family by family (resources/objects.ts):
// reading them, and every call the family can make on them (create, update, delete of each),
// through callNeeds, the function preflight uses.
import { type DesiredObjects, objectAccessNeeds } from "../resources/objects.js";
import type { ScopedNeed } from "./access-needs.js";
import { callNeeds } from "./privileges.js";

export function objectNeeds(objects: DesiredObjects): ScopedNeed[] {
  const out: ScopedNeed[] = [];
  for (const family of objectAccessNeeds(objects)) {
    out.push(...family.reads.map(({ user, ...need }) => ({ ...need, operation: "read", user })));
    for (const { object, call } of family.calls)
      out.push(...callNeeds(call).map((n) => ({ ...n, operation: family.operation, user: object })));
  }
  return out;
}
