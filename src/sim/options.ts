// Options of startSimulator (and the `pvectl sim` flags that map onto them).
import type { Router } from "./contract.js";
import type { TimingProfile } from "./tasks/timing.js";

export interface SimulatorOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** TCP port; 0 (default in-process) picks a free one. */
  port?: number;
  /** Serve HTTPS (default true) with a generated certificate unless `cert`/`key` are given. */
  https?: boolean;
  /** PEM certificate and key to serve instead of generated ones. */
  cert?: string;
  key?: string;
  /** Number of nodes (pve1..pveN) when `config` does not list them; default 3. */
  nodes?: number;
  /** Password of root@pam; default "proxmox". */
  rootPassword?: string;
  /** Cluster description: a parsed object, or a path to a YAML/JSON file. */
  config?: unknown;
  /** Load the cluster from this file if it exists, and save it there on every change and at exit. */
  stateFile?: string;
  /** Directory `POST /_sim/state/save` may also write files into (besides `stateFile`); must exist. */
  stateDir?: string;
  /** Token the admin API over HTTP requires; default: random per start (never derived from the seed). */
  adminToken?: string;
  /** Task timing: "instant" (default) or "realistic". */
  timing?: TimingProfile;
  /** Real seconds per simulated second for realistic timing (0.1 = ten times faster); default 1. */
  timeScale?: number;
  /** Concurrent task workers per node for realistic timing; default 4. */
  workersPerNode?: number;
  /** Overrides of the realistic base durations per task kind, in simulated seconds. */
  durations?: Record<string, number>;
  /** Seed of every random choice (default: random, reported in `seed`). */
  seed?: number;
  /** Extra latency added to every API request, in milliseconds (inventory benchmarks). */
  latencyMs?: number;
  /** Delay of 401 answers in ms (PVE waits 3 s); default 0 with instant timing, 3000 x timeScale with realistic. */
  authFailureDelayMs?: number;
  /** Simulated clock at start, seconds since the epoch; default: now. */
  startTime?: number;
  /** Registers additional (or replacement) handlers after the built-in ones, e.g. an endpoint the simulator does not model yet. */
  extraHandlers?: (router: Router) => void;
}
