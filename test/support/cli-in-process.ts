// Runs `pvectl <args>` inside the test's own process: main(argv) with its own environment, its
// stdout and stderr captured and its exit code read back, as a child process would give them.
// A child costs half a second of CPU (Node's start and loading the CLI's modules again); here the
// modules load once per test file. What a run may touch in the process is routed or reset:
// - process.env: a proxy that answers from the run's environment inside a run (found through
//   AsyncLocalStorage, so the simulator the test runs in the same process keeps the real one);
// - process.stdout / process.stderr writes: captured inside a run, passed through outside it;
// - process.exitCode, the streams' error listeners main() adds, `--verbose`'s request log and
//   the streams' isTTY: saved before the run and restored after it.
// Runs take turns (one at a time per process): exitCode and the request log are one per process.
// Tests that need a process of their own (killed midway, closed pipes, signals, what a start
// loads) use pvectlChild / spawnPvectl from cli.ts instead.
import { AsyncLocalStorage } from "node:async_hooks";

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface Run {
  env: Record<string, string>;
  stdout: string;
  stderr: string;
  /** False once main() has returned: a late write goes to the real stream, not to a finished result. */
  open: boolean;
}

const current = new AsyncLocalStorage<Run>();
let routed = false;
let turn: Promise<unknown> = Promise.resolve();

/** The environment a child would get: values as strings, undefined ones left out (as spawn does). */
function asChildEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = String(value);
  return out;
}

/** Installs the env proxy and the write hooks once per process; outside a run both act as before. */
function routeProcessState(): void {
  if (routed) return;
  routed = true;
  const real = process.env;
  const envOf = (): Record<string, string | undefined> => current.getStore()?.env ?? real;
  process.env = new Proxy({} as NodeJS.ProcessEnv, {
    get: (_, key) => (typeof key === "string" ? envOf()[key] : undefined),
    set: (_, key, value) => {
      if (typeof key === "string") envOf()[key] = String(value);
      return true;
    },
    has: (_, key) => typeof key === "string" && key in envOf(),
    deleteProperty: (_, key) => (typeof key === "string" ? delete envOf()[key] : true),
    ownKeys: () => Object.keys(envOf()),
    getOwnPropertyDescriptor: (_, key) => {
      const value = typeof key === "string" ? envOf()[key] : undefined;
      return value === undefined ? undefined : { value, writable: true, enumerable: true, configurable: true };
    },
  });
  for (const name of ["stdout", "stderr"] as const) {
    const stream = process[name];
    const original = stream.write;
    stream.write = function write(this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
      const run = current.getStore();
      if (!run?.open) return (original as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
      run[name] += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString();
      const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      if (done) process.nextTick(done);
      return true;
    } as typeof stream.write;
  }
}

/** Sets `isTTY` to false on the process's streams for the run (a test run from a terminal must not get colour); returns the undo. */
function withoutTerminal(): () => void {
  const streams = [process.stdin, process.stdout, process.stderr] as Array<{ isTTY?: boolean }>;
  const saved = streams.map((s) => Object.getOwnPropertyDescriptor(s, "isTTY"));
  for (const s of streams) if (s.isTTY) Object.defineProperty(s, "isTTY", { value: false, configurable: true, writable: true });
  return () =>
    streams.forEach((s, i) => {
      const d = saved[i];
      if (d) Object.defineProperty(s, "isTTY", d);
    });
}

async function runOnce(args: string[], env: NodeJS.ProcessEnv): Promise<InProcessResult> {
  // Loaded on first use: a test file that never runs the CLI in-process does not pay for it.
  const [{ main }, { setRequestLog }] = await Promise.all([import("../../src/cli/main.js"), import("../../src/api/transport.js")]);
  routeProcessState();
  const run: Run = { env: asChildEnv(env), stdout: "", stderr: "", open: true };
  const savedExitCode = process.exitCode;
  const listeners = { stdout: process.stdout.listeners("error"), stderr: process.stderr.listeners("error") };
  const restoreTerminal = withoutTerminal();
  process.exitCode = undefined;
  try {
    await current.run(run, () => main([process.execPath, "bin/pvectl.js", ...args]));
    return { code: Number(process.exitCode ?? 0), stdout: run.stdout, stderr: run.stderr };
  } finally {
    run.open = false;
    process.exitCode = savedExitCode;
    restoreTerminal();
    setRequestLog(undefined);
    for (const name of ["stdout", "stderr"] as const) {
      for (const listener of process[name].listeners("error")) {
        if (!listeners[name].includes(listener)) process[name].off("error", listener as (...a: unknown[]) => void);
      }
    }
  }
}

/** `pvectl <args>` run by main() in this process, with exactly `env` as its environment (runs take turns). */
export function pvectlInProcess(args: string[], env: NodeJS.ProcessEnv): Promise<InProcessResult> {
  const result = turn.then(() => runOnce(args, env));
  turn = result.catch(() => undefined);
  return result;
}
