// HA resources (/cluster/ha/resources, PVE::API2::HA::Resources). A resource is kept on its
// guest (`hastate` = the requested state as written, `haOptions` = the other options as
// written); GET shows what the config holds (no defaults filled in) plus the file's digest.
// Every change lets the simulated HA manager (sim/ha/manager.ts) act at once. PVE 9 has
// migrated HA groups to rules: `group` is refused as PVE refuses it then.
import { createHash } from "node:crypto";
import { splitList } from "../../pve/index.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestConfig, GuestState } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { motionInfo, queueHaMotion } from "../ha/commands.js";
import { runHaManager } from "../ha/manager.js";
import { guestOfSid, haGuests, haManaged, haTypeOf, isConfigured, parseSid, sidOf } from "../ha/sid.js";
import { sim, str } from "./context.js";

export { haManaged };

/** What status/current `ha.state` and /cluster/resources `hastate` show: the manager's state, else the written one. */
export function haStatusState(guest: GuestState): string | undefined {
  if (guest.hastate === undefined) return undefined;
  return guest.haService?.state ?? guest.hastate;
}

const OPTION_KEYS = ["state", "comment", "failback", "max_restart", "max_relocate"];
const GROUPS_MIGRATED = "invalid parameter 'group': ha groups have been migrated to rules";

/** A requested state written by the guest APIs (create with ha-managed, hastart/hastop) and acted on. */
export function applyHaState(model: SimCluster, ctx: HandlerContext, guest: GuestState, state: string): void {
  guest.hastate = state;
  guest.haOptions = { ...(guest.haOptions ?? {}), state };
  runHaManager(model, ctx.tasks);
}

/** resources.cfg as PVE writes it (its SHA-1 is the `digest`). */
function resourcesText(model: SimCluster): string {
  return haGuests(model)
    .map((g) => {
      const options = Object.entries(g.haOptions ?? {});
      return `${haTypeOf(g)}: ${g.vmid}\n${options.map(([k, v]) => `\t${k} ${v}\n`).join("")}`;
    })
    .join("\n");
}

export function resourcesDigest(model: SimCluster): string {
  return createHash("sha1").update(resourcesText(model)).digest("hex");
}

function entry(model: SimCluster, guest: GuestState): Record<string, unknown> {
  return { ...(guest.haOptions ?? {}), sid: sidOf(guest), type: haTypeOf(guest), digest: resourcesDigest(model) };
}

function list(ctx: HandlerContext): Array<Record<string, unknown>> {
  const model = sim(ctx);
  const type = str(ctx, "type");
  return haGuests(model)
    .filter((g) => type === undefined || haTypeOf(g) === type)
    .map((g) => entry(model, g));
}

/** The options a request writes (`state` too: `hastate` holds it with its default applied). */
function options(ctx: HandlerContext): GuestConfig {
  const out: GuestConfig = {};
  for (const key of OPTION_KEYS) {
    const value = ctx.params[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** PVE::HA::Resources::PVEVM/PVECT `exists` and `verify_name`. */
function resourceGuest(model: SimCluster, type: string, name: string): GuestState {
  if (type !== "vm" && type !== "ct") throw new PveApiError(500, `unknown section type '${type}'`);
  if (!/^[1-9][0-9]+$/.test(name)) throw new PveApiError(500, "invalid VMID");
  const guest = model.guest(Number(name));
  if (!guest) throw new PveApiError(500, `resource '${type}:${name}' does not exist in cluster`);
  if (haTypeOf(guest) !== type) {
    throw new PveApiError(500, `resource '${type}:${name}' - guest with ID ${name} is not a ${type === "vm" ? "VM" : "container"}`);
  }
  return guest;
}

/** check_service_state: a resource in the error state takes nothing but `disabled`. */
function checkServiceState(model: SimCluster, sid: string, requested?: string): void {
  const guest = guestOfSid(model, sid);
  if (!guest || !haManaged(guest) || guest.haService?.state !== "error") return;
  if (requested === "disabled") return;
  throw new PveApiError(500, `service '${sid}' in error state, must be disabled and fixed first`);
}

function create(ctx: HandlerContext): null {
  const model = sim(ctx);
  const { sid, type, name } = parseSid(model, str(ctx, "sid") ?? "");
  const paramType = str(ctx, "type");
  if (paramType && paramType !== type) throw new PveApiError(500, "types does not match");
  if (ctx.params.group !== undefined) throw new PveApiError(500, GROUPS_MIGRATED);
  const guest = resourceGuest(model, type, name);
  if (guest.hastate !== undefined) throw new PveApiError(500, `create resource failed: resource ID '${sid}' already defined`);
  guest.haOptions = options(ctx);
  guest.hastate = str(ctx, "state") ?? "started";
  runHaManager(model, ctx.tasks);
  return null;
}

function read(ctx: HandlerContext): Record<string, unknown> {
  const model = sim(ctx);
  const { sid } = parseSid(model, str(ctx, "sid") ?? "");
  const guest = guestOfSid(model, sid);
  if (!guest?.hastate) throw new PveApiError(500, `no such resource '${sid}'`);
  return entry(model, guest);
}

function update(ctx: HandlerContext): null {
  const model = sim(ctx);
  const { sid } = parseSid(model, str(ctx, "sid") ?? "");
  if (ctx.params.group !== undefined) throw new PveApiError(500, GROUPS_MIGRATED);
  checkServiceState(model, sid, str(ctx, "state"));
  const fail = (message: string): never => {
    throw new PveApiError(500, `update resources config failed: ${message}`);
  };
  const digest = str(ctx, "digest");
  if (digest !== undefined && digest !== resourcesDigest(model))
    fail("detected modified configuration - file changed by other user? Try again.");
  const guest = guestOfSid(model, sid);
  if (!guest?.hastate) return fail(`no such resource '${sid}'`);
  const next = { ...(guest.haOptions ?? {}), ...options(ctx) };
  for (const key of splitList(str(ctx, "delete") ?? "")) {
    if (!OPTION_KEYS.includes(key) && key !== "group") fail(`no such option '${key}'`);
    delete next[key];
  }
  guest.haOptions = next;
  guest.hastate = String(next.state ?? "started");
  runHaManager(model, ctx.tasks);
  return null;
}

/** DELETE with purge (the default): the resource leaves every rule; a rule left empty goes. */
function remove(ctx: HandlerContext): null {
  const model = sim(ctx);
  const { sid } = parseSid(model, str(ctx, "sid") ?? "");
  if (!isConfigured(model, sid)) throw new PveApiError(500, `cannot delete service '${sid}', not HA managed!`);
  const guest = guestOfSid(model, sid) as GuestState;
  delete guest.hastate;
  delete guest.haOptions;
  delete guest.haService;
  if (ctx.params.purge === undefined || Number(ctx.params.purge) === 1) purgeFromRules(model, sid);
  runHaManager(model, ctx.tasks);
  return null;
}

export function purgeFromRules(model: SimCluster, sid: string): void {
  if (!model.state.haRules) return;
  for (const rule of model.state.haRules) rule.resources = rule.resources.filter((r) => r !== sid);
  model.state.haRules = model.state.haRules.filter((r) => r.resources.length > 0);
}

/** POST …/{sid}/migrate and …/relocate: a crm command, answered with what moves along and what blocks. */
function motion(task: "migrate" | "relocate") {
  return (ctx: HandlerContext): Record<string, unknown> => {
    const model = sim(ctx);
    const { sid } = parseSid(model, str(ctx, "sid") ?? "");
    const node = str(ctx, "node") ?? "";
    const guest = guestOfSid(model, sid);
    if (!guest || !haManaged(guest)) throw new PveApiError(500, `resource '${sid}' is not HA managed`);
    checkServiceState(model, sid);
    // what the API reports is read before the CRM sees the command
    const info = motionInfo(model, sid);
    queueHaMotion(model, ctx.tasks, sid, task, node);
    const blocking = info.blockingByNode[node];
    return {
      sid,
      "requested-node": node,
      ...(info.comigrated.length > 0 ? { "comigrated-resources": info.comigrated } : {}),
      ...(blocking ? { "blocking-resources": blocking } : {}),
    };
  };
}

export function registerHaHandlers(router: Router): void {
  router.add("GET", "/cluster/ha/resources", list);
  router.add("POST", "/cluster/ha/resources", create);
  router.add("GET", "/cluster/ha/resources/{sid}", read);
  router.add("PUT", "/cluster/ha/resources/{sid}", update);
  router.add("DELETE", "/cluster/ha/resources/{sid}", remove);
  router.add("POST", "/cluster/ha/resources/{sid}/migrate", motion("migrate"));
  router.add("POST", "/cluster/ha/resources/{sid}/relocate", motion("relocate"));
}
