// GET /nodes/{node}/rrddata, /nodes/{node}/qemu/{vmid}/rrddata, /nodes/{node}/lxc/{vmid}/rrddata:
// the history graphs' data (figures in cluster/rrd.ts).
import { guestRrd, nodeRrd } from "../cluster/rrd.js";
import type { GuestType } from "../cluster/types.js";
import type { HandlerContext, Router } from "../contract.js";
import { nodeParam, pathGuest, sim, str } from "./context.js";

function guestHandler(type: GuestType) {
  return (ctx: HandlerContext) => guestRrd(sim(ctx), pathGuest(ctx, type), str(ctx, "timeframe") ?? "hour", str(ctx, "cf") ?? "AVERAGE");
}

export function registerRrdHandlers(router: Router): void {
  router.add("GET", "/nodes/{node}/rrddata", (ctx) => {
    const model = sim(ctx);
    return nodeRrd(model, model.requireNode(nodeParam(ctx)), str(ctx, "timeframe") ?? "hour", str(ctx, "cf") ?? "AVERAGE");
  });
  router.add("GET", "/nodes/{node}/qemu/{vmid}/rrddata", guestHandler("qemu"));
  router.add("GET", "/nodes/{node}/lxc/{vmid}/rrddata", guestHandler("lxc"));
}
