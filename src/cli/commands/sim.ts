// `pvectl sim`: runs the PVE API simulator until Ctrl-C, printing how to connect.
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { type NetboxSimulator, type RunningSimulator, SimFlagError, type SimulatorOptions, startSimulators } from "../../app/sim-start.js";
import { untilStopped } from "../until-stopped.js";

export { SimFlagError };

interface SimFlags {
  host: string;
  port: string;
  http?: boolean;
  nodes?: string;
  rootPassword: string;
  config?: string;
  state?: string;
  stateDir?: string;
  timing: string;
  timeScale?: string;
  workers?: string;
  latency?: string;
  seed?: string;
  cert?: string;
  key?: string;
  caFile?: string;
  json?: boolean;
  netbox?: string | boolean;
}

function integer(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new SimFlagError(flag, `'${value}' is not a whole number from ${min} to ${max}`, `Example: ${flag} ${min === 0 ? 1 : min}`);
  }
  return n;
}

function positive(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new SimFlagError(flag, `'${value}' is not a positive number`, `Example: ${flag} 0.1`);
  return n;
}

function readPem(flag: string, file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new SimFlagError(
      flag,
      `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      "Give the path of a PEM file.",
    );
  }
}

export function simOptionsFromFlags(flags: SimFlags): SimulatorOptions {
  if (flags.timing !== "instant" && flags.timing !== "realistic") {
    throw new SimFlagError("--timing", `unknown profile '${flags.timing}'`, "Use --timing instant or --timing realistic.");
  }
  if ((flags.cert === undefined) !== (flags.key === undefined)) {
    throw new SimFlagError(flags.cert ? "--key" : "--cert", "missing", "--cert and --key go together.");
  }
  const options: SimulatorOptions = {
    host: flags.host,
    port: integer("--port", flags.port, 0, 65535) ?? 8006,
    https: !flags.http,
    rootPassword: flags.rootPassword,
    timing: flags.timing,
  };
  const nodes = integer("--nodes", flags.nodes, 1, 64);
  if (nodes !== undefined) options.nodes = nodes;
  if (flags.config) options.config = flags.config;
  if (flags.state) options.stateFile = flags.state;
  if (flags.stateDir) options.stateDir = flags.stateDir;
  const timeScale = positive("--time-scale", flags.timeScale);
  if (timeScale !== undefined) options.timeScale = timeScale;
  const workers = integer("--workers", flags.workers, 1, 1024);
  if (workers !== undefined) options.workersPerNode = workers;
  const latency = integer("--latency", flags.latency, 0, 600000);
  if (latency !== undefined) options.latencyMs = latency;
  const seed = integer("--seed", flags.seed, 0, 2 ** 32 - 1);
  if (seed !== undefined) options.seed = seed;
  if (flags.cert && flags.key) {
    options.cert = readPem("--cert", flags.cert);
    options.key = readPem("--key", flags.key);
  }
  return options;
}

/** What the listener really serves: the line must match the URL's scheme. */
function tlsLine(sim: RunningSimulator, flags: SimFlags): string {
  if (!sim.https) return "off (plain HTTP)";
  return flags.cert
    ? `on (HTTPS, certificate from ${flags.cert})`
    : "on (HTTPS, certificate signed by a CA generated at start; --ca-file writes it)";
}

function describe(sim: RunningSimulator, flags: SimFlags, netbox: NetboxSimulator | undefined): string {
  const lines = [`PVE API simulator listening on ${sim.url}/api2/json`, `  user:        root@pam`, `  password:    ${sim.rootPassword}`];
  lines.push(`  TLS:         ${tlsLine(sim, flags)}`);
  if (sim.fingerprint) lines.push(`  fingerprint: ${sim.fingerprint} (SHA-256; pin it with PROXMOX_FINGERPRINT)`);
  if (flags.caFile) lines.push(`  CA file:     ${flags.caFile}`);
  lines.push(
    `  timing:      ${flags.timing}`,
    `  seed:        ${sim.seed}`,
    `  admin API:   ${sim.url}/_sim/info`,
    `  admin token: ${sim.adminToken} (header X-Sim-Admin-Token)`,
  );
  if (flags.state) lines.push(`  state file:  ${flags.state}`);
  if (flags.stateDir) lines.push(`  state dir:   ${flags.stateDir} (POST /_sim/state/save may write here)`);
  if (netbox)
    lines.push(
      `NetBox API simulator listening on ${netbox.url}/api/ (demo records)`,
      `  NETBOX_URL=${netbox.url} NETBOX_TOKEN=${netbox.token}`,
    );
  lines.push("Press Ctrl-C to stop.");
  return `${lines.join("\n")}\n`;
}

export function registerSimCommand(program: Command): void {
  program
    .command("sim")
    .description("run a Proxmox VE 9 API simulator with its own in-memory cluster (for tests, CI and demos)")
    .option("--host <address>", "interface to listen on", "127.0.0.1")
    .option("--port <port>", "TCP port (0 picks a free one)", "8006")
    .option("--http", "serve plain HTTP instead of HTTPS")
    .option("--nodes <n>", "number of nodes (pve1..pveN) when --config does not list them (default 3)")
    .option("--root-password <password>", "password of root@pam", "proxmox")
    .option("--config <file>", "cluster description (YAML): nodes, storages, bridges, content; see docs/simulator.md")
    .option("--state <file>", "load the cluster from this file if it exists; save it there on every change and at exit")
    .option("--state-dir <dir>", "directory POST /_sim/state/save may write into (besides --state)")
    .option("--timing <profile>", "task timing: instant or realistic", "instant")
    .option("--time-scale <factor>", "realistic timing: real seconds per simulated second (0.1 = ten times faster)")
    .option("--workers <n>", "realistic timing: concurrent task workers per node (default 4)")
    .option("--latency <ms>", "extra latency added to every API request")
    .option("--seed <n>", "seed for every random choice (UPIDs, secrets, durations, fault probabilities)")
    .option("--cert <file>", "PEM certificate to serve instead of a generated one (with --key)")
    .option("--key <file>", "PEM private key of --cert")
    .option("--ca-file <file>", "write the CA certificate clients should trust (PEM) to this file")
    .option("--netbox [port]", "also run a NetBox API simulator with demo records (default port: a free one)")
    .option("--json", "print the connection details as JSON")
    .action(async (flags: SimFlags) => {
      const netboxPort = typeof flags.netbox === "string" ? Number(flags.netbox) : 0;
      if (!Number.isInteger(netboxPort) || netboxPort < 0 || netboxPort > 65535) {
        throw new SimFlagError(
          "--netbox",
          `'${String(flags.netbox)}' is not a port`,
          "Give a port number, or --netbox alone for a free port.",
        );
      }
      const {
        sim,
        netbox,
        close: closeAll,
      } = await startSimulators({
        pve: simOptionsFromFlags(flags),
        ...(flags.netbox ? { netbox: { host: flags.host ?? "127.0.0.1", port: netboxPort } } : {}),
        ...(flags.caFile ? { caFile: flags.caFile } : {}),
      });
      // Listen for Ctrl-C before announcing the address: whoever reads it may signal at once.
      const stopped = untilStopped();
      if (flags.json) {
        const info = {
          url: sim.url,
          api: `${sim.url}/api2/json`,
          host: sim.host,
          port: sim.port,
          https: sim.https,
          fingerprint: sim.fingerprint ?? null,
          ca: sim.ca ?? null,
          user: "root@pam",
          password: sim.rootPassword,
          seed: sim.seed,
          admin: `${sim.url}/_sim`,
          adminToken: sim.adminToken,
          netbox: netbox ? { url: netbox.url, token: netbox.token } : null,
        };
        process.stdout.write(`${JSON.stringify(info)}\n`);
      } else process.stdout.write(describe(sim, flags, netbox));
      await stopped;
      await closeAll();
      if (!flags.json) process.stdout.write("simulator stopped\n");
    });
}
