// `pvectl import` writes YAML that YAML 1.1 readers (PyYAML, hence Ansible) read as it was
// meant: a schedule `02:30` is a string there too, not the base-60 number 150, and so are
// strings that look like 1.1 booleans or octal numbers. Read back with python3's yaml module.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv } from "../support/cli.js";

const SPEC = `version: 1
vms:
  - name: yaml11
    node: pve1
    memory: 512
    description: "on"
backupJobs:
  - id: at-half-two
    schedule: "02:30"
    selection: { all: true }
    storage: local
    comment: "0755"
`;

/** `text` as python3's yaml module (YAML 1.1) reads it, back as JSON. */
function readAsYaml11(text: string): unknown {
  const py = spawnSync("python3", ["-c", "import sys, json, yaml; print(json.dumps(yaml.safe_load(sys.stdin.read())))"], {
    input: text,
    encoding: "utf8",
  });
  assert.equal(py.status, 0, py.stderr);
  return JSON.parse(py.stdout);
}

describe("import writes YAML that YAML 1.1 reads alike", () => {
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 42 });
    env = simEnv(sim);
    dir = mkdtempSync(join(tmpdir(), "pvectl-yaml11-"));
    writeFileSync(join(dir, "spec.yaml"), SPEC);
    const made = await pvectl(["apply", "-f", join(dir, "spec.yaml"), "--yes"], env);
    assert.equal(made.code, 0, made.stderr);
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await sim.close();
  });

  it("quotes times, yes/no/on/off words and octal-looking numbers", async () => {
    const imported = await pvectl(["import", "--all"], env);
    assert.equal(imported.code, 0, imported.stderr);
    const spec = readAsYaml11(imported.stdout) as {
      vms: Array<{ description: unknown }>;
      backupJobs: Array<{ schedule: unknown; comment: unknown }>;
    };
    assert.equal(spec.backupJobs[0]?.schedule, "02:30");
    assert.match(String(spec.backupJobs[0]?.comment), /^0755/);
    assert.equal(typeof spec.backupJobs[0]?.comment, "string");
    assert.equal(spec.vms[0]?.description, "on");
  });
});
