// Under --json every failure prints one JSON error object on stdout ({ok:false, error:{kind,
// message, hint}}) and keeps the exit code; the text on stderr stays for people.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { pvectl, type Result, simEnv } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

interface ErrorObject {
  ok: boolean;
  error: { kind: string; message: string; hint?: string; problems?: string[] };
}

/** The one JSON object on stdout of a failed run. */
function jsonError(result: Result): ErrorObject {
  assert.equal(result.code, 1, `exit code; stderr: ${result.stderr}`);
  const lines = result.stdout.trim().split("\n");
  assert.equal(lines.length, 1, `one line on stdout: ${result.stdout}`);
  const parsed = JSON.parse(lines[0] as string) as ErrorObject;
  assert.equal(parsed.ok, false);
  assert.match(result.stderr, /error: /, "the text stays on stderr");
  return parsed;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("--json failures", () => {
  let lab: CliLab;
  let sim: RunningSimulator;
  let dir: string;
  let spec: string;
  before(async () => {
    lab = await startCliLab("json-err", { seed: 13 });
    ({ sim, dir } = lab);
    spec = join(dir, "web.yaml");
    writeFileSync(spec, "vms:\n  - name: web1\n    node: pve1\n    memory: 512\n");
  });
  after(async () => {
    await lab.close();
  });

  it("a refused login", async () => {
    const result = await pvectl(["plan", "-f", spec, "--json"], { ...simEnv(sim), PROXMOX_PASSWORD: "wrong-password" });
    const { error } = jsonError(result);
    assert.equal(error.kind, "auth");
    assert.match(error.message, /root@pam/);
    assert.ok(!result.stdout.includes("wrong-password"));
  });

  it("an unreachable host", async () => {
    const result = await pvectl(["show", "-f", spec, "--json"], { ...simEnv(sim), PROXMOX_PORT: String(await closedPort()) });
    const { error } = jsonError(result);
    assert.equal(error.kind, "connection");
    assert.match(error.message, /connection refused/);
    assert.ok(!("hint" in error) || typeof error.hint === "string", "no hint: null");
  });

  it("a usage error caught by the option parser", async () => {
    const { error } = jsonError(await pvectl(["plan", "-f", spec, "--json", "--no-such-flag"]));
    assert.deepEqual(error, { kind: "usage", message: "unknown option '--no-such-flag'", hint: "run with --help for usage" });
  });

  it("a usage error found by the command, with its hint", async () => {
    const { error } = jsonError(await pvectl(["plan", "--json"]));
    assert.deepEqual(error, { kind: "usage", message: "no spec file given", hint: "usage: pvectl plan -f web.yaml [-f more.yaml]" });
  });

  it("a spec error, with every problem in problems and what to do in the hint", async () => {
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, "vms:\n  - name: web1\n    node: pve1\n    memory: lots\n");
    const { error } = jsonError(await pvectl(["plan", "-f", bad, "--json"], simEnv(sim)));
    assert.equal(error.kind, "spec");
    assert.equal(error.message, "the spec is invalid (1 problem); nothing was sent to the cluster");
    assert.equal(error.hint, "fix the spec and run again");
    assert.match(error.problems?.join("\n") ?? "", /bad\.yaml:4:\d+/);
  });

  it("without --json, stdout stays empty", async () => {
    const result = await pvectl(["plan", "-f", spec], { ...simEnv(sim), PROXMOX_PASSWORD: "wrong-password" });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, "");
  });
});
