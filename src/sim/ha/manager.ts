// The simulated HA manager (CRM + LRM as a client observes them). It acts at once, whenever
// something it watches changes (a resource or rule written, a crm command, a node going down
// or coming back, one of its own tasks ending), rather than every 10 seconds: tests stay fast
// and deterministic, and every effect still goes through a task (qmstart, qmshutdown, qmigrate,
// vzmigrate ... run as root@pam on the guest's node) that takes time with realistic timing.
// Fencing is immediate: a failed node's resources are recovered elsewhere at once.
import type { SimCluster } from "../cluster/model.js";
import type { GuestState, HaServiceState } from "../cluster/types.js";
import type { TaskManager } from "../contract.js";
import { startMigration } from "../handlers/migrate-task.js";
import { type CompiledRules, compileRules, selectNode } from "./placement.js";
import { haGuests, requestedState, sidOf } from "./sid.js";

const HA_USER = "root@pam";

/** The manager's service status entry for a configured, not ignored resource. */
export function serviceOf(guest: GuestState): HaServiceState {
  if (!guest.haService) {
    guest.haService = guest.status === "running" ? { state: "started", running: 1 } : { state: "stopped" };
  }
  return guest.haService;
}

export function compiledRules(model: SimCluster): CompiledRules {
  return compileRules(model.state.haRules ?? [], model.nodeNames());
}

function label(guest: GuestState): string {
  return guest.type === "qemu" ? "VM" : "CT";
}

/** HA resources per node (the basic scheduler counts them, targets included). */
function nodeLoad(model: SimCluster): Map<string, number> {
  const load = new Map<string, number>();
  for (const g of haGuests(model)) {
    if (!g.haService) continue;
    for (const node of new Set([g.node, g.haService.target].filter((n): n is string => n !== undefined))) {
      load.set(node, (load.get(node) ?? 0) + 1);
    }
  }
  return load;
}

function placedServices(model: SimCluster): Map<string, { node: string; target?: string }> {
  const placed = new Map<string, { node: string; target?: string }>();
  for (const g of haGuests(model)) {
    if (!g.haService) continue;
    placed.set(sidOf(g), g.haService.target ? { node: g.node, target: g.haService.target } : { node: g.node });
  }
  return placed;
}

function choose(model: SimCluster, rules: CompiledRules, guest: GuestState, preference: "none" | "best-score"): string | undefined {
  return selectNode(rules, {
    sid: sidOf(guest),
    current: guest.node,
    failback: guest.haOptions?.failback === undefined || Number(guest.haOptions.failback) === 1,
    online: model.nodeNames().filter((n) => model.isNodeOnline(n)),
    placed: placedServices(model),
    load: nodeLoad(model),
    preference,
  });
}

/** Starts a power task of the LRM; `done` runs when it has ended. */
function powerTask(model: SimCluster, tasks: TaskManager, guest: GuestState, action: "start" | "stop", done: (ok: boolean) => void): void {
  const qemu = guest.type === "qemu";
  const ss = serviceOf(guest);
  ss.inflight = action;
  tasks.start({
    node: guest.node,
    type: action === "start" ? (qemu ? "qmstart" : "vzstart") : qemu ? "qmshutdown" : "vzshutdown",
    id: String(guest.vmid),
    kind: action === "start" ? "start" : "shutdown",
    user: HA_USER,
    onFailure: () => {
      delete ss.inflight;
      done(false);
    },
    work: () => {
      delete ss.inflight;
      try {
        if (action === "start") {
          if (guest.config.template === 1) throw new Error(`you can't start a ${qemu ? "vm" : "CT"} if it's a template`);
          if (guest.config.lock !== undefined) throw new Error(`${label(guest)} is locked (${guest.config.lock})`);
          if (guest.status !== "running") model.markRunning(guest);
        } else if (guest.status === "running") {
          model.markStopped(guest);
        }
      } catch (err) {
        done(false);
        throw err;
      }
      done(true);
    },
  });
}

/** migrate (a VM, online when running) or relocate (stop, migrate offline; the manager starts it again). */
function move(model: SimCluster, tasks: TaskManager, guest: GuestState, kind: string, target: string): void {
  const ss = serviceOf(guest);
  // a state change clears the entry (change_service_state): `running` goes until the LRM reports again
  ss.state = kind;
  ss.target = target;
  ss.inflight = kind;
  delete ss.running;
  const settle = () => {
    delete ss.target;
    delete ss.inflight;
    ss.state = requestedState(guest) === "started" ? "started" : "request_stop";
    if (ss.state === "started" && guest.status === "running") ss.running = 1;
    else delete ss.running;
    runHaManager(model, tasks);
  };
  const migrate = (online: boolean) =>
    startMigration(model, tasks, guest, {
      target,
      online,
      restart: false,
      withLocalDisks: true,
      force: true,
      user: HA_USER,
      onDone: settle,
    });
  // a VM migrates online; a container (PVECT::migrate) and a relocation stop first, then move offline
  if ((kind === "migrate" && guest.type === "qemu") || guest.status !== "running") {
    migrate(guest.status === "running");
    return;
  }
  powerTask(model, tasks, guest, "stop", (ok) => {
    ss.inflight = kind;
    if (ok) migrate(false);
    else settle();
  });
}

/** A resource whose node is down: recovered on another node (fence + recovery, at once). */
function recover(model: SimCluster, rules: CompiledRules, guest: GuestState): void {
  const ss = serviceOf(guest);
  if (requestedState(guest) === "disabled") return;
  const node = choose(model, rules, guest, "best-score");
  if (!node) {
    ss.state = "recovery";
    return;
  }
  guest.node = node;
  delete ss.cmd;
  ss.state = requestedState(guest) === "started" ? "started" : "stopped";
  delete ss.running;
}

function startResource(model: SimCluster, tasks: TaskManager, guest: GuestState): void {
  const ss = serviceOf(guest);
  ss.state = "started";
  delete ss.running;
  powerTask(model, tasks, guest, "start", (ok) => {
    if (ok) ss.running = 1;
    else ss.state = "error";
  });
}

/** One resource's next step (Manager::next_state_*), unless the LRM is busy with it. */
function step(model: SimCluster, tasks: TaskManager, rules: CompiledRules, guest: GuestState): void {
  const ss = serviceOf(guest);
  if (ss.inflight !== undefined) return;
  if (ss.state === "error") {
    // only `disabled` takes a resource out of the error state (next_state_error)
    if (requestedState(guest) !== "disabled") return;
    ss.state = "stopped";
  }
  if (!model.isNodeOnline(guest.node)) recover(model, rules, guest);
  if (!model.isNodeOnline(guest.node)) return;
  const req = requestedState(guest);
  const cmd = ss.cmd;
  delete ss.cmd;
  const wanted = cmd && model.isNodeOnline(cmd[1]) && cmd[1] !== guest.node ? cmd : undefined;
  if (req !== "started") {
    if (guest.status === "running") {
      ss.state = "request_stop";
      delete ss.running;
      powerTask(model, tasks, guest, "stop", () => {
        ss.state = "stopped";
        runHaManager(model, tasks);
      });
      return;
    }
    ss.state = "stopped";
    if (wanted) move(model, tasks, guest, wanted[0], wanted[1]);
    return;
  }
  if (wanted) {
    move(model, tasks, guest, wanted[0], wanted[1]);
    return;
  }
  if (guest.status !== "running") {
    startResource(model, tasks, guest);
    return;
  }
  ss.state = "started";
  ss.running = 1;
  const node = choose(model, rules, guest, "none");
  if (node && node !== guest.node) move(model, tasks, guest, guest.type === "qemu" ? "migrate" : "relocate", node);
}

/** Lets the manager look at every HA resource once. */
export function runHaManager(model: SimCluster, tasks: TaskManager): void {
  const rules = compiledRules(model);
  for (const guest of haGuests(model)) {
    if (guest.hastate === "ignored") {
      delete guest.haService;
      continue;
    }
    step(model, tasks, rules, guest);
  }
}
