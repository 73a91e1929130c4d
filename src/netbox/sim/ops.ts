// Writes against the simulator's store: create, update (PUT/PATCH), delete with cascades,
// and NetBox's all-or-none bulk variants.
import { badRequest, type FieldErrors, HttpError, notFound } from "./errors.js";
import { isRecord, parseBody } from "./parse.js";
import type { ResourceDef, SimContext } from "./resource.js";
import type { Row } from "./store.js";

export function createRow(ctx: SimContext, def: ResourceDef, body: unknown): Row {
  const row = parseBody(ctx, def, body, undefined, false);
  row.id = ctx.store.nextId(def.path);
  ctx.store.table(def.path).set(row.id, row);
  def.afterWrite?.(row, undefined, ctx);
  ctx.changed?.(def, "created", row, undefined);
  return row;
}

export function updateRow(ctx: SimContext, def: ResourceDef, id: number, body: unknown, partial: boolean): Row {
  const before = ctx.store.get(def.path, id);
  if (!before) throw notFound();
  const row = parseBody(ctx, def, body, before, partial);
  ctx.store.table(def.path).set(id, row);
  def.afterWrite?.(row, before, ctx);
  ctx.changed?.(def, "updated", row, before);
  return row;
}

export function deleteRow(ctx: SimContext, def: ResourceDef, id: number): void {
  const row = ctx.store.get(def.path, id);
  if (!row) throw notFound();
  def.beforeDelete?.(row, ctx);
  ctx.changed?.(def, "deleted", undefined, row);
  ctx.store.table(def.path).delete(id);
}

/**
 * Runs `each` over a list body as one transaction: any failure restores the store and
 * answers 400 with one error object per item (empty for the items that were fine).
 */
export function bulk<T>(ctx: SimContext, items: unknown, each: (item: unknown) => T): T[] {
  if (!Array.isArray(items)) throw badRequest({ non_field_errors: ["Expected a list of items."] });
  const snapshot = ctx.store.snapshot();
  const results: T[] = [];
  const errors: (FieldErrors | Record<string, never>)[] = [];
  let failed: HttpError | undefined;
  for (const item of items) {
    try {
      results.push(each(item));
      errors.push({});
    } catch (err) {
      if (!(err instanceof HttpError)) {
        ctx.store.restore(snapshot);
        throw err;
      }
      if (err.status !== 400) failed ??= err;
      errors.push(isRecord(err.body) ? (err.body as FieldErrors) : {});
    }
  }
  const anyError = failed !== undefined || errors.some((e) => Object.keys(e).length > 0);
  if (!anyError) return results;
  ctx.store.restore(snapshot);
  if (failed) throw failed;
  throw new HttpError(400, errors);
}

export function bulkItemId(item: unknown): number {
  if (!isRecord(item) || typeof item.id !== "number") throw badRequest({ id: ["This field is required."] });
  return item.id;
}
