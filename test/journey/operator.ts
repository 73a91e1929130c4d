// The operator's desk for the journey: a PVE simulator (HTTPS, certificate pinned) and a NetBox
// simulator in-process, a scratch directory for the files an operator keeps, and the CLI run as
// the operator would run it: as root@pam once, then as the token pvectl granted.
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PveClient } from "../../src/api/index.js";
import { type NetboxSimulator, startNetboxSimulator } from "../../src/netbox/sim/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, type Result, ROOT } from "../support/cli.js";
import { pvectlNodeArgs, pvectlShellCommand } from "../support/pvectl-command.js";

export interface Desk {
  sim: RunningSimulator;
  nb: NetboxSimulator;
  /** root@pam's client, for looking at the cluster (never for the journey's own changes). */
  root: PveClient;
  dir: string;
  /** Writes a file in the scratch directory; its full path. */
  write(name: string, text: string): string;
  read(name: string): string;
  /** The CLI as root@pam (password login). */
  asRoot(args: string[]): Promise<Result>;
  /** The CLI as an API token whose secret pvectl wrote to `secretFile` (in the scratch directory). */
  asToken(tokenId: string, secretFile: string, args: string[]): Promise<Result>;
  /** A long-running command (`netbox serve`) as that token; the caller stops it. */
  startAsToken(tokenId: string, secretFile: string, args: string[], extraEnv: NodeJS.ProcessEnv): Background;
  /** A library client authenticated as that token. */
  tokenClient(tokenId: string, secretFile: string): PveClient;
  /** An executable inventory script running `pvectl inventory` as that token. */
  inventoryScript(tokenId: string, secretFile: string): string;
  close(): Promise<void>;
}

function tlsEnv(sim: RunningSimulator): NodeJS.ProcessEnv {
  return { PROXMOX_HOST: "127.0.0.1", PROXMOX_PORT: String(sim.port), PROXMOX_FINGERPRINT: sim.fingerprint };
}

export async function openDesk(): Promise<Desk> {
  const sim = await startSimulator({
    port: 0,
    seed: 29,
    config: {
      // PVE's defaults and a ZFS pool on every node (the day-two move's target: snapshots work there).
      storages: [
        { id: "local", type: "dir", content: ["iso", "vztmpl", "backup", "snippets", "import"], path: "/var/lib/vz" },
        { id: "local-lvm", type: "lvmthin", content: ["images", "rootdir"] },
        { id: "shared", type: "nfs", content: ["images", "rootdir", "iso", "backup"], shared: true, path: "/mnt/pve/shared" },
        { id: "tank", type: "zfspool", content: ["images", "rootdir"] },
      ],
      content: ["local:iso/debian-13-netinst.iso", "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst", "local:import/noble.qcow2"],
    },
  });
  const nb = await startNetboxSimulator({ seed: "demo" });
  const root = new PveClient({
    host: "127.0.0.1",
    port: sim.port,
    user: "root@pam",
    password: sim.rootPassword,
    fingerprint: sim.fingerprint,
  });
  const dir = mkdtempSync(join(tmpdir(), "pvectl-journey-"));
  const netboxEnv = { NETBOX_URL: nb.url, NETBOX_TOKEN: nb.token };
  const tokenEnv = (tokenId: string, secretFile: string): NodeJS.ProcessEnv => ({
    ...tlsEnv(sim),
    ...netboxEnv,
    PROXMOX_USER: tokenId.split("!")[0],
    PROXMOX_TOKEN_ID: tokenId.split("!")[1],
    PROXMOX_TOKEN_SECRET: readFileSync(join(dir, secretFile), "utf8").trim(),
  });
  return {
    sim,
    nb,
    root,
    dir,
    write(name, text) {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
    read: (name) => readFileSync(join(dir, name), "utf8"),
    asRoot: (args) => pvectl(args, { ...tlsEnv(sim), ...netboxEnv, PROXMOX_USER: "root@pam", PROXMOX_PASSWORD: sim.rootPassword }),
    asToken: (tokenId, secretFile, args) => pvectl(args, tokenEnv(tokenId, secretFile)),
    startAsToken: (tokenId, secretFile, args, extraEnv) => startBackground(args, { ...tokenEnv(tokenId, secretFile), ...extraEnv }),
    tokenClient(tokenId, secretFile) {
      const env = tokenEnv(tokenId, secretFile);
      return new PveClient({
        host: "127.0.0.1",
        port: sim.port,
        fingerprint: sim.fingerprint,
        tokenId,
        tokenSecret: String(env.PROXMOX_TOKEN_SECRET),
      });
    },
    inventoryScript(tokenId, secretFile) {
      const env = Object.entries(tokenEnv(tokenId, secretFile))
        .map(([k, v]) => `${k}='${v}'`)
        .join(" ");
      const path = join(dir, "inventory.sh");
      writeFileSync(path, `#!/bin/sh\ncd '${ROOT}' && exec env ${env} ${pvectlShellCommand()} inventory --facts config "$@"\n`);
      chmodSync(path, 0o700);
      return path;
    },
    async close() {
      await root.close();
      await nb.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A CLI process left running: its output so far, a wait for a line of it, and a stop that gives its exit code. */
export interface Background {
  output(): string;
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** SIGTERM, as systemd stops a service; resolves with the exit code. */
  stop(): Promise<number>;
}

function startBackground(args: string[], env: NodeJS.ProcessEnv): Background {
  const child: ChildProcess = spawn(process.execPath, pvectlNodeArgs(args), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number>((resolve) => child.on("close", (code, signal) => resolve(code ?? (signal ? 128 : -1))));
  return {
    output: () => out,
    async waitFor(pattern, ms = 60_000) {
      const end = Date.now() + ms;
      for (;;) {
        const found = out.match(pattern);
        if (found) return found;
        if (Date.now() > end || child.exitCode !== null) throw new Error(`no ${pattern} in the output:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Fails with everything the command printed when its exit code is not the expected one. */
export function expectExit(result: Result, code: number, what: string): Result {
  if (result.code !== code) {
    throw new Error(`${what}: exit ${result.code}, expected ${code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  }
  return result;
}
