// What POST …/qemu/{vmid}/clone and …/lxc/{vmid}/clone share: their common parameters and the
// checks made before anything else (VM.Allocate on the new vmid or its pool, the pool and the
// target node exist). A template is linked-cloned unless `full` says otherwise; any other
// guest is copied in full.
import type { SimCluster } from "../cluster/model.js";
import type { GuestState, GuestType } from "../cluster/types.js";
import type { HandlerContext } from "../contract.js";
import { flag, num, pathGuest, sim, str } from "./context.js";
import { checkAllocate, checkPoolExists } from "./qemu-create.js";

export interface CloneRequest {
  source: GuestState;
  model: SimCluster;
  newid: number;
  pool: string | undefined;
  /** The node the clone is created on (default: the source's node). */
  target: string;
  storageId: string | undefined;
  isTemplate: boolean;
  full: boolean;
}

export function readCloneRequest(ctx: HandlerContext, type: GuestType): CloneRequest {
  const source = pathGuest(ctx, type);
  const model = sim(ctx);
  const newid = num(ctx, "newid") ?? 0;
  const pool = str(ctx, "pool");
  const target = str(ctx, "target") ?? source.node;
  const isTemplate = source.config.template === 1;
  const full = ctx.params.full !== undefined ? flag(ctx, "full") : !isTemplate;
  checkAllocate(ctx, newid, pool);
  checkPoolExists(model, pool);
  model.requireNode(target);
  return { source, model, newid, pool, target, storageId: str(ctx, "storage"), isTemplate, full };
}
