// HA resources (/cluster/ha/resources): a guest under HA reports `hastate`, starts and stops
// through `hastart` / `hastop` tasks, and is destroyed only with `purge`. The simulated HA
// manager acts at once: requesting `started` starts the guest, `stopped`/`disabled` stop it.
import { splitList } from "../../pve/index.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestConfig, GuestState } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { sim, str } from "./context.js";

const OPTION_KEYS = ["comment", "group", "max_restart", "max_relocate", "failback"];

export function haManaged(guest: GuestState): boolean {
  return guest.hastate !== undefined && guest.hastate !== "ignored";
}

/** Applies a requested HA state the way the HA manager would (immediately). */
export function applyHaState(model: SimCluster, guest: GuestState, state: string): void {
  guest.hastate = state === "enabled" ? "started" : state;
  if (guest.hastate === "started" && guest.status !== "running" && guest.config.template !== 1) model.markRunning(guest);
  if ((guest.hastate === "stopped" || guest.hastate === "disabled") && guest.status === "running") model.markStopped(guest);
}

function parseSid(sid: string): { type: "vm" | "ct"; vmid: number } {
  const m = /^(?:(vm|ct):)?(\d+)$/.exec(sid);
  if (!m) throw new PveApiError(400, "Parameter verification failed.", { sid: `unable to parse service id '${sid}'` });
  return { type: (m[1] as "vm" | "ct" | undefined) ?? "vm", vmid: Number(m[2]) };
}

function resourceGuest(model: SimCluster, sid: string, mustBeManaged: boolean): { guest: GuestState; sid: string } {
  const parsed = parseSid(sid);
  const guest = model.guest(parsed.vmid);
  const normal = `${guest?.type === "lxc" ? "ct" : parsed.type}:${parsed.vmid}`;
  if (mustBeManaged && guest?.hastate === undefined) throw new PveApiError(500, `no such resource '${normal}'`);
  if (!guest) throw new PveApiError(500, `no such resource '${normal}'`);
  return { guest, sid: normal };
}

function entry(guest: GuestState): Record<string, unknown> {
  const type = guest.type === "qemu" ? "vm" : "ct";
  return { sid: `${type}:${guest.vmid}`, type, state: guest.hastate, max_restart: 1, max_relocate: 1, ...(guest.haOptions ?? {}) };
}

function list(ctx: HandlerContext): Array<Record<string, unknown>> {
  const model = sim(ctx);
  const type = str(ctx, "type");
  return model.state.guests
    .filter((g) => g.hastate !== undefined)
    .filter((g) => type === undefined || (type === "vm") === (g.type === "qemu"))
    .sort((a, b) => a.vmid - b.vmid)
    .map(entry);
}

function options(ctx: HandlerContext): GuestConfig {
  const out: GuestConfig = {};
  for (const key of OPTION_KEYS) {
    const value = ctx.params[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function create(ctx: HandlerContext): null {
  const model = sim(ctx);
  const sid = str(ctx, "sid") ?? "";
  const parsed = parseSid(sid);
  const guest = model.guest(parsed.vmid);
  if (!guest || (parsed.type === "ct") !== (guest.type === "lxc")) {
    throw new PveApiError(500, `${parsed.type === "ct" ? "CT" : "VM"} ${parsed.vmid} does not exist`);
  }
  if (guest.hastate !== undefined) throw new PveApiError(500, `resource ID '${parsed.type}:${parsed.vmid}' already defined`);
  guest.haOptions = options(ctx);
  applyHaState(model, guest, str(ctx, "state") ?? "started");
  return null;
}

function read(ctx: HandlerContext): Record<string, unknown> {
  return entry(resourceGuest(sim(ctx), str(ctx, "sid") ?? "", true).guest);
}

function update(ctx: HandlerContext): null {
  const model = sim(ctx);
  const { guest } = resourceGuest(model, str(ctx, "sid") ?? "", true);
  guest.haOptions = { ...(guest.haOptions ?? {}), ...options(ctx) };
  for (const key of splitList(str(ctx, "delete") ?? "")) delete guest.haOptions[key];
  const state = str(ctx, "state");
  if (state !== undefined) applyHaState(model, guest, state);
  return null;
}

function remove(ctx: HandlerContext): null {
  const { guest } = resourceGuest(sim(ctx), str(ctx, "sid") ?? "", true);
  delete guest.hastate;
  delete guest.haOptions;
  return null;
}

export function registerHaHandlers(router: Router): void {
  router.add("GET", "/cluster/ha/resources", list);
  router.add("POST", "/cluster/ha/resources", create);
  router.add("GET", "/cluster/ha/resources/{sid}", read);
  router.add("PUT", "/cluster/ha/resources/{sid}", update);
  router.add("DELETE", "/cluster/ha/resources/{sid}", remove);
}
