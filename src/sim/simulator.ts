// The simulator's core: one simulated cluster (guest model + access control + tasks) with its
// clock, randomness, faults, access log and state persistence. The HTTP server in
// http/server.ts is a thin transport over it.
import { randomBytes } from "node:crypto";
import { AccessLog } from "./access-log.js";
import { registerAclHandlers } from "./access/handlers-acl.js";
import { registerAuthHandlers } from "./access/handlers-auth.js";
import { registerRealmHandlers } from "./access/handlers-realms.js";
import { registerUserHandlers } from "./access/handlers-users.js";
import { applyAccessConfig } from "./access/config.js";
import { AccessControl } from "./access/service.js";
import { type AccessState, initialAccessState } from "./access/state.js";
import type { SimAdmin } from "./admin.js";
import { checkStateDir } from "./admin-state-path.js";
import { SimClock } from "./clock.js";
import { type ClusterConfig, createClusterModel, loadClusterModel } from "./cluster/index.js";
import type { ClusterModel } from "./contract.js";
import { FaultRegistry } from "./faults/rules.js";
import { registerGuestHandlers } from "./handlers/index.js";
import { validateParams } from "../pve/validate.js";
import { matchEndpoint } from "../schema/index.js";
import type { SimulatorOptions } from "./options.js";
import { SeededRandom, randomSeed } from "./random.js";
import { ApiPipeline } from "./routing/pipeline.js";
import { SimRouter } from "./routing/router.js";
import { readStateFile, type SimState, STATE_FORMAT, writeStateFile } from "./state/state-file.js";
import { registerTaskHandlers } from "./tasks/handlers.js";
import { TaskRunner, type TasksJSON } from "./tasks/manager.js";
import { DEFAULT_TIMING, type TimingOptions } from "./tasks/timing.js";

/** What GET /version reports (PVE 9.1, the schema's version). */
export const SIMULATED_VERSION = { version: "9.1.1", release: "9.1", repoid: "42bd7ea2" };

const SAVE_DEBOUNCE_MS = 100;

/** The guest model gets the cluster config without the platform's `access` section. */
function withoutAccess(config: ClusterConfig | undefined): ClusterConfig | undefined {
  if (typeof config !== "object" || config === null || !("access" in config)) return config;
  const { access: _access, ...rest } = config as ClusterConfig & { access?: unknown };
  return rest;
}

interface Snapshot {
  access: AccessState;
  cluster: unknown;
  tasks: TasksJSON;
}

export class Simulator {
  readonly seed: number;
  readonly rootPassword: string;
  /** What the HTTP admin API requires (admin-guard.ts). */
  readonly adminToken: string;
  readonly clock: SimClock;
  readonly random: SeededRandom;
  readonly router = new SimRouter();
  readonly access: AccessControl;
  readonly faults: FaultRegistry;
  readonly tasks: TaskRunner;
  readonly log = new AccessLog();
  readonly pipeline: ApiPipeline;
  cluster: ClusterModel;
  private readonly ticketKey: string;
  private readonly initial: Snapshot;
  private saveTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    readonly options: SimulatorOptions,
    config: ClusterConfig | undefined,
  ) {
    this.seed = options.seed ?? randomSeed();
    this.rootPassword = options.rootPassword ?? "proxmox";
    // Random like the ticket key: a known seed must not open the admin API.
    this.adminToken = options.adminToken ?? randomBytes(24).toString("hex");
    this.random = new SeededRandom(this.seed);
    const timing: TimingOptions = {
      ...DEFAULT_TIMING,
      profile: options.timing ?? "instant",
      timeScale: options.timeScale ?? 1,
      workersPerNode: options.workersPerNode ?? DEFAULT_TIMING.workersPerNode,
      ...(options.durations ? { durations: options.durations } : {}),
    };
    this.clock = new SimClock(options.startTime);
    const now = () => this.clock.now();
    const saved = options.stateFile ? readStateFile(options.stateFile) : undefined;
    // Never derived from the seed: a known seed must not let anyone forge tickets.
    this.ticketKey = saved?.ticketKey ?? randomBytes(32).toString("hex");
    this.cluster = saved
      ? loadClusterModel(saved.cluster, { random: this.random, now })
      : createClusterModel({ nodes: options.nodes, config: withoutAccess(config), random: this.random, now });
    let accessState = saved?.access;
    if (!accessState) {
      accessState = initialAccessState(this.rootPassword);
      applyAccessConfig(accessState, config);
    }
    this.access = new AccessControl(accessState, this.ticketKey, () => this.poolMembership());
    this.faults = new FaultRegistry(this.random);
    this.tasks = new TaskRunner(this.clock, this.random, timing, {
      failureFor: (t) => this.faults.matchTask(t),
      changed: () => this.markChanged(),
    });
    if (saved) this.tasks.load(saved.tasks);
    this.initial = structuredClone({ access: accessState, cluster: this.cluster.toJSON(), tasks: this.tasks.toJSON() });
    this.pipeline = new ApiPipeline({
      router: this.router,
      access: this.access,
      tasks: this.tasks,
      clock: this.clock,
      random: this.random,
      cluster: () => this.cluster,
    });
    registerAuthHandlers(this.router, {
      access: this.access,
      version: SIMULATED_VERSION,
      clusterName: () => this.cluster.clusterName?.(),
      poolMemberPaths: () =>
        (this.cluster.poolMembers?.() ?? []).flatMap((p) => [
          ...p.vmids.map((vmid) => `/vms/${vmid}`),
          ...p.storages.map((storage) => `/storage/${storage}`),
        ]),
    });
    registerUserHandlers(this.router, this.access, this.random);
    registerRealmHandlers(this.router, this.access);
    registerAclHandlers(this.router, this.access);
    registerTaskHandlers(this.router, this.tasks);
  }

  static async create(options: SimulatorOptions, config: ClusterConfig | undefined): Promise<Simulator> {
    if (options.stateDir !== undefined) checkStateDir(options.stateDir);
    const sim = new Simulator(options, config);
    // Write the state file at once: a path that cannot be written fails the start, not a later save.
    if (options.stateFile) sim.save();
    registerGuestHandlers(sim.router);
    options.extraHandlers?.(sim.router);
    // Load the schema now, so the first request of a benchmark is not the one that pays for it.
    const create = matchEndpoint("POST", "/nodes/pve1/qemu");
    if (create) validateParams(create.endpoint, { node: "pve1", vmid: "100", net0: "virtio,bridge=vmbr0" });
    return sim;
  }

  private poolMembership() {
    const cluster = this.cluster;
    if (!cluster.poolOfGuest && !cluster.poolOfStorage) return undefined;
    return {
      poolOfGuest: (vmid: number) => cluster.poolOfGuest?.(vmid),
      poolOfStorage: (storage: string) => cluster.poolOfStorage?.(storage),
    };
  }

  /** Something changed: save the state file soon (several changes in a row save once). */
  markChanged(): void {
    if (!this.options.stateFile || this.closed || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      try {
        this.save();
      } catch (err) {
        // A background save must not crash the server; the next change or close() tries again.
        process.emitWarning(err instanceof Error ? err.message : String(err), "PvectlSimStateWarning");
      }
    }, SAVE_DEBOUNCE_MS);
  }

  snapshot(): SimState {
    return {
      format: STATE_FORMAT,
      version: 1,
      savedAt: new Date(this.clock.now() * 1000).toISOString(),
      ticketKey: this.ticketKey,
      access: structuredClone(this.access.state),
      cluster: this.cluster.toJSON(),
      tasks: this.tasks.toJSON(),
    };
  }

  save(file = this.options.stateFile): string {
    if (!file) throw new Error("no state file: start the simulator with a state file or pass one to save");
    writeStateFile(file, this.snapshot());
    return file;
  }

  reset(): void {
    const initial = structuredClone(this.initial);
    const now = () => this.clock.now();
    this.cluster = loadClusterModel(initial.cluster, { random: this.random, now });
    this.access.state = initial.access;
    this.tasks.load(initial.tasks);
    this.faults.clear();
    this.log.reset();
    this.markChanged();
  }

  readonly admin: SimAdmin = {
    injectFault: (spec) => this.faults.addRequestFault(spec),
    failTasks: (spec) => this.faults.addTaskFault(spec),
    listFaults: () => ({ requests: [...this.faults.requestFaults], tasks: [...this.faults.taskFaults] }),
    removeFault: (id) => this.faults.remove(id),
    clearFaults: () => this.faults.clear(),
    holdLock: (vmid, lock = "backup") => {
      const done = this.cluster.setGuestLock(vmid, lock);
      if (done) this.markChanged();
      return done;
    },
    releaseLock: (vmid) => {
      const done = this.cluster.setGuestLock(vmid, undefined);
      if (done) this.markChanged();
      return done;
    },
    setNodeOnline: (node, online) => {
      if (!this.cluster.nodeNames().includes(node)) throw new Error(`no such node '${node}'`);
      this.cluster.setNodeOnline(node, online);
      if (!online) void this.tasks.abortNode(node);
      this.cluster.nodeLivenessChanged?.({
        start: (options) => {
          const { record, release } = this.tasks.create(options, options.user ?? "root@pam");
          release();
          return record.upid;
        },
      });
      this.markChanged();
    },
    reset: () => this.reset(),
    saveState: (file) => this.save(file),
    accessLog: (options) => this.log.summary(options),
    resetAccessLog: () => this.log.reset(),
    advanceClock: (seconds) => this.clock.advance(seconds),
    waitForTasks: (timeoutMs) => this.tasks.idle(timeoutMs),
    taskLoad: () => ({ slots: this.tasks.timing.workersPerNode, nodes: this.tasks.taskLoad() }),
    resetTaskLoad: () => this.tasks.resetLoad(),
    timing: () => ({ ...this.tasks.timing }),
    setTiming: (timing) => {
      this.tasks.timing = { ...this.tasks.timing, ...timing };
    },
  };

  close(): void {
    if (this.closed) return;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.options.stateFile) this.save();
    this.closed = true;
    this.tasks.close();
  }
}
