// /cluster/ha/status/current and /manager_status (PVE::API2::HA::Status) from the simulated HA
// manager. The CRM is active (master = the first online node) while any HA resource exists;
// with none, PVE's idle CRM has no master and no node status, and only quorum and fencing show.
// An offline node's LRM shows an old timestamp; its node status is `unknown` once fenced.
import type { SimCluster } from "../cluster/model.js";
import type { GuestState } from "../cluster/types.js";
import type { HandlerContext, Router } from "../contract.js";
import { serviceOf } from "../ha/manager.js";
import { haGuests, requestedState, sidOf } from "../ha/sid.js";
import { sim } from "./context.js";

/** How long ago an offline node's LRM last wrote its status (PVE calls > 30 s "dead"). */
const DEAD_LRM_AGE = 60;

/** Perl's scalar localtime (the nodes run on UTC here): `Sun Dec  6 04:49:34 2026`. */
function localtime(seconds: number): string {
  const d = new Date(seconds * 1000);
  const day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][d.getUTCDay()];
  const month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][d.getUTCMonth()];
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${day} ${month} ${String(d.getUTCDate()).padStart(2, " ")} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

function tracked(model: SimCluster): GuestState[] {
  return haGuests(model).filter((g) => g.hastate !== "ignored");
}

function masterNode(model: SimCluster): string | undefined {
  if (haGuests(model).length === 0) return undefined;
  return model.nodeNames().find((n) => model.isNodeOnline(n));
}

/** count_active_services: resources on (or moving to) the node that the LRM must run. */
function activeOn(model: SimCluster, node: string): number {
  return tracked(model).filter((g) => {
    const ss = serviceOf(g);
    if (g.node !== node && ss.target !== node) return false;
    return !["stopped", "freeze", "error", "request_start"].includes(ss.state);
  }).length;
}

function lrmStatus(model: SimCluster, node: string, now: number): Record<string, unknown> {
  const online = model.isNodeOnline(node);
  const state = online && activeOn(model, node) > 0 ? "active" : "wait_for_agent_lock";
  return { mode: "active", state, timestamp: online ? now : now - DEAD_LRM_AGE, results: {} };
}

function serviceStatus(model: SimCluster): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const g of tracked(model)) {
    const ss = serviceOf(g);
    out[sidOf(g)] = {
      node: g.node,
      state: ss.state,
      uid: `${g.vmid.toString(36)}${ss.state}`,
      ...(ss.target ? { target: ss.target } : {}),
      ...(ss.running ? { running: ss.running } : {}),
    };
  }
  return out;
}

function managerStatus(model: SimCluster, now: number): Record<string, unknown> {
  const master = masterNode(model);
  if (!master) return {};
  const nodeStatus = Object.fromEntries(model.nodeNames().map((n) => [n, model.isNodeOnline(n) ? "online" : "unknown"]));
  return { master_node: master, timestamp: now, node_status: nodeStatus, service_status: serviceStatus(model) };
}

/** get_verbose_service_state. */
function verboseState(g: GuestState): string {
  const req = requestedState(g);
  if (req === "ignored") return "ignored";
  const ss = g.haService;
  if (!ss) return "queued";
  if (ss.state === "stopped" && req === "started") return "starting";
  if (ss.state === "stopped" && req === "disabled") return "disabled";
  if (ss.state === "started") return ss.running ? (req === "started" ? "started" : "stopping") : "starting";
  if (ss.state === "error" && req === "disabled") return "clearing error flag";
  return ss.state;
}

function serviceEntry(g: GuestState): Record<string, unknown> {
  const sid = sidOf(g);
  const ss = g.hastate === "ignored" ? undefined : g.haService;
  const state = verboseState(g);
  const options = g.haOptions ?? {};
  return {
    id: `service:${sid}`,
    type: "service",
    sid,
    node: g.node,
    ...(ss ? { crm_state: ss.state } : {}),
    state,
    status: `${sid} (${g.node}, ${state})`,
    request_state: requestedState(g),
    failback: options.failback ?? 1,
    max_relocate: options.max_relocate ?? 1,
    max_restart: options.max_restart ?? 1,
    ...(options.comment !== undefined ? { comment: options.comment } : {}),
  };
}

function current(ctx: HandlerContext): Array<Record<string, unknown>> {
  const model = sim(ctx);
  const now = Math.floor(ctx.now());
  const local = model.nodeNames()[0] ?? "localhost";
  const master = masterNode(model);
  const out: Array<Record<string, unknown>> = [{ id: "quorum", type: "quorum", node: local, status: "OK", quorate: 1 }];
  if (master) out.push({ id: "master", type: "master", node: master, status: `${master} (active, ${localtime(now)})`, timestamp: now });
  const armed = master ? "armed" : "standby";
  out.push({
    id: "fencing",
    type: "fencing",
    node: master ?? local,
    status: `${armed} (CRM watchdog ${master ? "active" : "standby"})`,
    "armed-state": armed,
  });
  if (!master) return [...out, ...haGuests(model).map(serviceEntry)];
  for (const node of [...model.nodeNames()].sort()) {
    const lrm = lrmStatus(model, node, now);
    const alive = model.isNodeOnline(node);
    const active = lrm.state === "active";
    const status = alive ? (active ? "active" : "idle") : "old timestamp - dead?";
    const watchdog = alive && active ? "watchdog active" : "watchdog standby";
    out.push({
      id: `lrm:${node}`,
      type: "lrm",
      node,
      status: `${node} (${status}, ${watchdog}, ${localtime(lrm.timestamp as number)})`,
      timestamp: lrm.timestamp,
    });
  }
  return [...out, ...haGuests(model).map(serviceEntry)];
}

function managerStatusHandler(ctx: HandlerContext): Record<string, unknown> {
  const model = sim(ctx);
  const now = Math.floor(ctx.now());
  const status = managerStatus(model, now);
  const lrm: Record<string, unknown> = {};
  for (const node of Object.keys((status.node_status as Record<string, string> | undefined) ?? {}).sort())
    lrm[node] = lrmStatus(model, node, now);
  return {
    manager_status: status,
    quorum: { node: model.nodeNames()[0] ?? "localhost", quorate: 1 },
    ...(Object.keys(lrm).length > 0 ? { lrm_status: lrm } : {}),
  };
}

export function registerHaStatusHandlers(router: Router): void {
  router.add("GET", "/cluster/ha/status/current", current);
  router.add("GET", "/cluster/ha/status/manager_status", managerStatusHandler);
}
