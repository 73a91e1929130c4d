// `pvectl sim`: flags, the printed connection details, and a clean stop on SIGINT.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { generate } from "selfsigned";
import { simOptionsFromFlags } from "../../src/cli/commands/sim.js";
import { SimListenError, startSimulator } from "../../src/sim/index.js";
import { trustingFetch } from "./trusting-fetch.js";

const defaults = { host: "127.0.0.1", port: "8006", rootPassword: "proxmox", timing: "instant" };

describe("pvectl sim", () => {
  it("maps flags onto simulator options", () => {
    assert.deepEqual(
      simOptionsFromFlags({
        ...defaults,
        port: "0",
        http: true,
        nodes: "5",
        seed: "7",
        timing: "realistic",
        timeScale: "0.1",
        workers: "2",
        latency: "20",
      }),
      {
        host: "127.0.0.1",
        port: 0,
        https: false,
        rootPassword: "proxmox",
        timing: "realistic",
        nodes: 5,
        seed: 7,
        timeScale: 0.1,
        workersPerNode: 2,
        latencyMs: 20,
      },
    );
  });

  it("explains bad flags", () => {
    const message = (flags: Record<string, string>) => {
      try {
        simOptionsFromFlags({ ...defaults, ...flags });
      } catch (err) {
        return (err as { userMessage(): string }).userMessage();
      }
      return "no error";
    };
    assert.equal(message({ timing: "fast" }), "pvectl sim --timing: unknown profile 'fast'. Use --timing instant or --timing realistic.");
    assert.equal(message({ port: "70000" }), "pvectl sim --port: '70000' is not a whole number from 0 to 65535. Example: --port 1");
    assert.equal(message({ cert: "c.pem" }), "pvectl sim --key: missing. --cert and --key go together.");
    assert.equal(message({ timeScale: "0" }), "pvectl sim --time-scale: '0' is not a positive number. Example: --time-scale 0.1");
  });

  it("explains a port that is already taken", async () => {
    const first = await startSimulator({ https: false, port: 0 });
    try {
      await assert.rejects(startSimulator({ https: false, port: first.port }), (err: unknown) => {
        assert.ok(err instanceof SimListenError);
        assert.equal(
          err.userMessage(),
          `The simulator cannot listen on 127.0.0.1:${first.port}: the port is already in use. Choose another --port (0 picks a free one) or --host.`,
        );
        return true;
      });
    } finally {
      await first.close();
    }
  });

  it("serves a certificate the caller brings and reports its fingerprint", async () => {
    const pems = await generate([{ name: "commonName", value: "localhost" }], {
      keyType: "ec",
      algorithm: "sha256",
      extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
    });
    const sim = await startSimulator({ port: 0, cert: pems.cert, key: pems.private });
    try {
      assert.equal(sim.fingerprint, new X509Certificate(pems.cert).fingerprint256);
      const res = await trustingFetch(`${sim.url}/api2/json/version`, pems.cert);
      assert.equal(res.status, 401);
    } finally {
      await sim.close();
    }
  });

  it("prints its connection details as JSON and stops cleanly on SIGINT", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pvectl-sim-cli-"));
    const caFile = join(dir, "ca.pem");
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "src/cli/main.ts", "sim", "--port", "0", "--seed", "3", "--json", "--ca-file", caFile],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    while (!out.includes("\n")) await once(child.stdout, "data");
    const info = JSON.parse(out.split("\n")[0] as string);
    assert.match(info.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.match(info.fingerprint, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    assert.match(info.ca, /BEGIN CERTIFICATE/);
    assert.equal(readFileSync(caFile, "utf8"), info.ca);
    assert.equal(info.user, "root@pam");
    assert.equal(info.password, "proxmox");
    assert.equal(info.seed, 3);
    assert.match(info.adminToken, /^[0-9a-f]{48}$/);
    const adminInfo = await trustingFetch(`${info.url}/_sim/info`, info.ca, { headers: { "X-Sim-Admin-Token": info.adminToken } });
    assert.equal(adminInfo.status, 200);
    assert.equal((await trustingFetch(`${info.url}/_sim/info`, info.ca)).status, 401);
    child.kill("SIGINT");
    const [code, signal] = await once(child, "exit");
    rmSync(dir, { recursive: true, force: true });
    assert.equal(code, 0, `exit ${code} ${signal}; stderr: ${err}`);
  });
});
