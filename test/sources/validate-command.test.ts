// `pvectl validate`: offline check of spec files, readable or JSON, exit code 1 when invalid.
// The reports are checked in-process; the exit codes and stderr through the real CLI in a
// child process (stdout is the test runner's channel in this one).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { validateJson, validateSummary } from "../../src/cli/commands/validate.js";
import { loadSpecFiles, SpecError } from "../../src/sources/spec/index.js";
import { pvectlNodeArgs } from "../support/pvectl-command.js";

function pvectl(...args: string[]): { stdout: string; stderr: string; status: number | null } {
  const result = spawnSync(process.execPath, pvectlNodeArgs(["validate", ...args]), {
    encoding: "utf8",
    env: { ...process.env, PROXMOX_HOST: "", NO_COLOR: "1" },
  });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

describe("pvectl validate", () => {
  let dir = "";
  let bad = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "pvectl-validate-"));
    bad = join(dir, "bad.yaml");
    await writeFile(bad, "vms:\n  - { name: a, node: pve1, corse: 2 }\n");
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("lists the VMs of valid files, for people and as JSON", async () => {
    const spec = await loadSpecFiles(["examples/web.yaml"]);
    assert.equal(
      validateSummary(spec),
      ["ok: examples/web.yaml: 3 VMs, 0 connections", "  vm 201 (web1) on pve1", "  vm 202 (web2) on pve2", "  vm 301 (db1) on pve3"].join(
        "\n",
      ),
    );
    const parsed = JSON.parse(validateJson(spec, ["examples/web.yaml"], undefined));
    assert.equal(parsed.valid, true);
    assert.deepEqual(parsed.issues, []);
    assert.deepEqual(parsed.vms[0], {
      vmid: 201,
      name: "web1",
      node: "pve1",
      connection: null,
      state: "present",
      source: { file: "examples/web.yaml", line: 10, column: 5 },
    });
  });

  it("lists containers next to VMs, for people and as JSON", async () => {
    const spec = await loadSpecFiles(["examples/containers.yaml"]);
    assert.equal(
      validateSummary(spec),
      ["ok: examples/containers.yaml: 0 VMs, 1 container, 0 connections", "  container 250 (cache1) on pve3"].join("\n"),
    );
    const parsed = JSON.parse(validateJson(spec, ["examples/containers.yaml"], undefined));
    assert.deepEqual(parsed.containers, [
      {
        vmid: 250,
        hostname: "cache1",
        node: "pve3",
        connection: null,
        state: "present",
        source: { file: "examples/containers.yaml", line: 10, column: 5 },
      },
    ]);
  });

  it("gives the issues of invalid files as JSON", async () => {
    const error = await loadSpecFiles([bad]).then(
      () => assert.fail("accepted"),
      (err: unknown) => err,
    );
    assert.ok(error instanceof SpecError);
    assert.deepEqual(JSON.parse(validateJson(undefined, [bad], error)), {
      valid: false,
      files: [bad],
      vms: [],
      containers: [],
      connections: [],
      issues: [{ file: bad, line: 2, column: 28, path: "vms[0].corse", message: "unknown key `corse`; did you mean `cores`?" }],
    });
  });

  it("exits 1 with the problems on stderr, or as JSON on stdout with --json", () => {
    const plain = pvectl(bad);
    assert.equal(plain.status, 1);
    assert.equal(
      plain.stderr,
      `error: the spec is invalid (1 problem); nothing was sent to the cluster. Fix the spec and run again:\n  ${bad}:2:28: vms[0].corse: unknown key \`corse\`; did you mean \`cores\`?\n`,
    );
    const machine = pvectl("--json", bad);
    assert.equal(machine.status, 1);
    assert.equal(JSON.parse(machine.stdout).valid, false);
  });
});
