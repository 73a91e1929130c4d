// Nested pools (PVE 8.1+, `parent/child`, at most three levels): PVE creates a child only
// under an existing parent and deletes a pool only once it holds no child pool (Pool.pm). The
// pool kind learns both: a child whose parent neither exists nor is listed is a problem of the
// plan, a parent that keeps a child is kept, and apply creates parents first, deletes children
// first.
import type { ObjectPlan } from "../../plan/types.js";
import type { CommentedKind } from "./plan-commented.js";
import type { DesiredPool, LivePool } from "./model.js";

/** `team/web` -> `team`; a top-level pool has none. */
export function parentPool(id: string): string | undefined {
  const slash = id.lastIndexOf("/");
  return slash < 0 ? undefined : id.slice(0, slash);
}

/** How deep a pool is (0 for a top-level one): apply orders pool steps by it. */
export function poolDepth(id: string): number {
  return id.split("/").length - 1;
}

/** A live pool that stays after the plan: listed, foreign, holding members, or joined by guests. */
function stays(l: LivePool, desired: DesiredPool[] | undefined, inUse: string[]): boolean {
  return (desired ?? []).some((d) => d.id === l.id) || !l.marked || l.members > 0 || inUse.includes(l.id);
}

/** The pool kind with PVE's nesting rules on top. */
export function withNesting(
  kind: CommentedKind<DesiredPool, LivePool>,
  desired: DesiredPool[] | undefined,
  live: LivePool[],
  inUse: string[],
): CommentedKind<DesiredPool, LivePool> {
  const known = (id: string) => (desired ?? []).some((d) => d.id === id) || live.some((l) => l.id === id);
  return {
    ...kind,
    problems: (d, l) => {
      const parent = parentPool(d.id);
      const own = kind.problems?.(d, l) ?? [];
      if (l !== undefined || parent === undefined || known(parent)) return own;
      return [
        ...own,
        `pool ${d.id}: its parent pool ${parent} does not exist and access.pools does not create it (PVE creates a nested pool only under its parent)`,
      ];
    },
    keep: (l) => {
      const child =
        live.find((c) => parentPool(c.id) === l.id && stays(c, desired, inUse)) ?? (desired ?? []).find((c) => parentPool(c.id) === l.id);
      if (child !== undefined)
        return `pool ${l.id} is pvectl's and no longer in access.pools, but its child pool ${child.id} stays: it is kept (PVE deletes a pool only without child pools)`;
      return kind.keep?.(l);
    },
  };
}

/** Pool steps in apply order among themselves: creates and changes parent first, deletes child first. */
export function byNesting(a: ObjectPlan, b: ObjectPlan, deleting: boolean): number {
  if (a.kind !== "access-pool" || b.kind !== "access-pool") return 0;
  const order = poolDepth(a.key) - poolDepth(b.key);
  return deleting ? -order : order;
}
