// Typed access to the request for guest handlers: the concrete cluster model and parameters.
import { SimCluster } from "../cluster/model.js";
import type { GuestState, GuestType } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type StartTaskOptions } from "../contract.js";

/** The guest model behind `ctx.cluster` (the platform is always started with a SimCluster). */
export function sim(ctx: HandlerContext): SimCluster {
  if (!(ctx.cluster instanceof SimCluster)) throw new PveApiError(500, "simulator cluster model unavailable");
  return ctx.cluster;
}

export function str(ctx: HandlerContext, name: string): string | undefined {
  const v = ctx.params[name];
  return v === undefined ? undefined : String(v);
}

export function num(ctx: HandlerContext, name: string): number | undefined {
  const v = ctx.params[name];
  if (v === undefined) return undefined;
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? n : undefined;
}

export function flag(ctx: HandlerContext, name: string): boolean {
  const v = ctx.params[name];
  return v === 1 || v === "1";
}

export function nodeParam(ctx: HandlerContext): string {
  return str(ctx, "node") ?? "";
}

export function vmidParam(ctx: HandlerContext, name = "vmid"): number {
  return num(ctx, name) ?? 0;
}

/** `skiplock` (and other root-only options) may only be used by root@pam. */
export function rootOnly(ctx: HandlerContext, ...names: string[]): void {
  for (const name of names) {
    if (ctx.params[name] !== undefined && (ctx.auth.userid !== "root@pam" || ctx.auth.tokenid !== undefined)) {
      throw new PveApiError(400, "Parameter verification failed.", { [name]: "Only root may use this option." });
    }
  }
}

/** The guest named by the path's node and vmid. */
export function pathGuest(ctx: HandlerContext, type: GuestType): GuestState {
  return sim(ctx).requireGuest(nodeParam(ctx), vmidParam(ctx), type);
}

export function guestLabel(guest: GuestState): "VM" | "CT" {
  return guest.type === "qemu" ? "VM" : "CT";
}

/** Starts a worker task on the path's node for this guest. */
export function startGuestTask(
  ctx: HandlerContext,
  options: {
    type: string;
    vmid: number | string;
    kind: string;
    bytes?: number;
    work: StartTaskOptions["work"];
    /** Undo what the handler set up when the task fails without running `work` (injected failure, stop). */
    onFailure?: () => void;
  },
): string {
  const undo = options.onFailure;
  return ctx.tasks.start({
    node: nodeParam(ctx),
    type: options.type,
    id: String(options.vmid),
    kind: options.kind,
    ...(options.bytes !== undefined ? { bytes: options.bytes } : {}),
    work: options.work,
    ...(undo ? { onFailure: () => undo() } : {}),
  });
}

/** Parameters that steer an API call but are not config options. */
export const CONTROL_PARAMS = new Set([
  "node",
  "vmid",
  "digest",
  "delete",
  "revert",
  "skiplock",
  "force",
  "background_delay",
  "current",
  "snapshot",
]);

/** True when `key` is a settable option of the endpoint (`net3` matches `net[n]` within its index range). */
export function isKnownOption(ctx: HandlerContext, key: string): boolean {
  if (CONTROL_PARAMS.has(key)) return false;
  const params = ctx.endpoint.params;
  if (params[key] !== undefined) return true;
  const m = /^([a-z_]+)(\d+)$/.exec(key);
  if (!m) return false;
  const indexed = params[`${m[1]}[n]`];
  if (!indexed) return false;
  const n = Number(m[2]);
  return !indexed.index || (n >= indexed.index.min && n <= indexed.index.max);
}
