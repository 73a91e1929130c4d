// pvectl's PVE API simulator: `startSimulator()` starts a Proxmox VE 9 API server with its own
// in-memory cluster, in-process (tests: port 0, then close()) or from `pvectl sim`.
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import type { AccessLogSummary } from "./access-log.js";
import type { SimAdmin } from "./admin.js";
import type { ClusterConfig } from "./cluster/index.js";
import { SimUserError } from "./errors.js";
import { SimHttpServer } from "./http/server.js";
import type { SimulatorOptions } from "./options.js";
import { Simulator } from "./simulator.js";
import { generateTls, type TlsMaterial, tlsFromFiles } from "./tls.js";

export type { AccessLogEntry, AccessLogSummary } from "./access-log.js";
export type { SimAdmin } from "./admin.js";
export type { RequestFault, RequestFaultSpec, TaskFault, TaskFaultSpec } from "./faults/rules.js";
export type { SimulatorOptions } from "./options.js";
export { StateDirError } from "./admin-state-path.js";
export { StateFileError } from "./state/state-file.js";
export type { NodeTaskLoad } from "./tasks/load.js";
export type { TimingOptions, TimingProfile } from "./tasks/timing.js";

export interface RunningSimulator {
  /** Base URL, e.g. https://127.0.0.1:8006 (append /api2/json for the API). */
  url: string;
  host: string;
  port: number;
  https: boolean;
  /** SHA-256 fingerprint of the server certificate ("AA:BB:..."); undefined over plain HTTP. */
  fingerprint?: string;
  /** PEM certificate clients can trust (the generated CA); undefined over plain HTTP. */
  ca?: string;
  rootPassword: string;
  /** The seed in use (give it back as `seed` to repeat a run). */
  seed: number;
  /** Token of the HTTP admin API (`X-Sim-Admin-Token` or `Authorization: Bearer` header). */
  adminToken: string;
  admin: SimAdmin;
  accessLog(options?: { entries?: boolean }): AccessLogSummary;
  /** Stops listening, drops open connections, cancels running tasks, saves the state file. */
  close(): Promise<void>;
}

export class SimConfigFileError extends SimUserError {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`simulator config ${file}: ${reason}`);
    this.name = "SimConfigFileError";
  }
  userMessage(): string {
    return `Cannot read the simulator cluster config ${this.file}: ${this.reason}. Check the path and the YAML syntax.`;
  }
}

export class SimListenError extends SimUserError {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly code: string | undefined,
  ) {
    super(`cannot listen on ${host}:${port} (${code ?? "error"})`);
    this.name = "SimListenError";
  }
  userMessage(): string {
    const why =
      this.code === "EADDRINUSE"
        ? "the port is already in use"
        : this.code === "EACCES"
          ? "permission denied (ports below 1024 need privileges)"
          : this.code === "EADDRNOTAVAIL"
            ? "this machine has no such address"
            : `the system refused (${this.code ?? "unknown error"})`;
    return `The simulator cannot listen on ${this.host}:${this.port}: ${why}. Choose another --port (0 picks a free one) or --host.`;
  }
}

function loadConfig(config: unknown): ClusterConfig | undefined {
  if (config === undefined || config === null) return undefined;
  if (typeof config !== "string") return config as ClusterConfig;
  let text: string;
  try {
    text = readFileSync(config, "utf8");
  } catch (err) {
    throw new SimConfigFileError(config, (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(err));
  }
  try {
    return parseYaml(text) as ClusterConfig;
  } catch (err) {
    throw new SimConfigFileError(config, err instanceof Error ? (err.message.split("\n")[0] ?? "invalid YAML") : String(err));
  }
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? "127.0.0.1";
  const useHttps = options.https ?? true;
  const sim = await Simulator.create(options, loadConfig(options.config));
  let tls: TlsMaterial | undefined;
  if (useHttps) tls = options.cert && options.key ? tlsFromFiles(options.cert, options.key) : await generateTls([host]);
  const realistic = (options.timing ?? "instant") === "realistic";
  const server = new SimHttpServer(sim, {
    ...(tls ? { tls } : {}),
    latencyMs: options.latencyMs ?? 0,
    adminToken: sim.adminToken,
    statePolicy: {
      ...(options.stateFile !== undefined ? { stateFile: options.stateFile } : {}),
      ...(options.stateDir !== undefined ? { stateDir: options.stateDir } : {}),
    },
    authFailureDelayMs: options.authFailureDelayMs ?? (realistic ? 3000 * (options.timeScale ?? 1) : 0),
    info: {
      info: () => ({
        seed: sim.seed,
        timing: sim.admin.timing(),
        nodes: sim.cluster.nodeNames(),
        handlers: sim.router.registered().length,
        clock: sim.clock.now(),
        // the process's own figures, for benchmarks that run the simulator as a separate process
        memory: process.memoryUsage(),
      }),
    },
  });
  let port: number;
  try {
    port = await server.listen(options.port ?? 0, host);
  } catch (err) {
    sim.close();
    throw new SimListenError(host, options.port ?? 0, (err as NodeJS.ErrnoException).code);
  }
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closed = false;
  return {
    url: `${useHttps ? "https" : "http"}://${urlHost}:${port}`,
    host,
    port,
    https: useHttps,
    ...(tls ? { fingerprint: tls.fingerprint, ca: tls.ca } : {}),
    rootPassword: sim.rootPassword,
    seed: sim.seed,
    adminToken: sim.adminToken,
    admin: sim.admin,
    accessLog: (o) => sim.log.summary(o),
    close: async () => {
      if (closed) return;
      closed = true;
      await server.close();
      sim.close();
    },
  };
}
