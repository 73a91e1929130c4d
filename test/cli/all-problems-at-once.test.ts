// `pvectl validate` and `pvectl plan` report every problem of a spec in one run: a shape error
// in one guest, a value error in another, the vmid and name that guest repeats, the access and
// backup job problems behind a sibling's shape error. Before, each fix revealed the next batch,
// and a connection with a problem made every guest naming it "undefined".
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pvectl } from "../support/cli.js";

const SPEC = [
  "connections:",
  "  lab: { host: pve1.example.com, tokenId: pvectl }",
  "vms:",
  "  - { vmid: 100, name: a, node: pve1, connection: lab, corse: 2 }",
  "  - { vmid: 101, name: b, node: pve1, connection: lab, cloudInit: { storage: local-lvm, sshKeys: [ops@laptop] } }",
  "  - { vmid: 101, name: b, node: pve1, connection: lab }",
  "access:",
  "  connection: lab",
  "  roles:",
  "    - { id: Deploy, privileges: [VM.Audit], colour: red }",
  "  users:",
  '    - { id: deploy@pve, expire: "2027-13-01" }',
  "backupJobs:",
  '  - { id: nightly, connection: lab, schedule: "02:30", selection: { vmids: [100], pool: web }, extraConfig: { bogus: 1 } }',
  '  - { id: nightly, connection: lab, schedule: "03:30", selection: { all: true } }',
  "",
].join("\n");

/** Every problem, in file order, with the spec's path as F. */
const PROBLEMS = [
  "F:2:34: connections.lab.tokenId: an API token needs its secret: add `tokenSecretEnv: VARIABLE` or `tokenSecretFile: path`",
  "F:4:56: vms[0].corse: unknown key `corse`; did you mean `cores`?",
  "F:5:99: vms[1].cloudInit.sshKeys[0]: PVE would refuse this key: it is not an OpenSSH public key: expected a key type (ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256 ...) followed by the key",
  "F:6:13: vms[2].vmid: vmid 101 on connection `lab` is declared twice: here (b) and at F:5:5 (b); a vmid identifies one VM",
  "F:6:24: vms[2].name: the name b on connection `lab` is used twice: here and at F:5:5; give each VM its own name (PVE allows duplicates, which makes names useless for finding a VM)",
  "F:10:45: access.roles[0].colour: unknown key `colour`",
  "F:12:33: access.users[0].expire: '2027-13-01' is not a date: write YYYY-MM-DD (e.g. 2027-06-30), or 0 for never",
  "F:14:67: backupJobs[0].selection: give exactly one of `vmids: [...]`, `pool: NAME` or `all: true` (with `exclude: [...]`)",
  "F:14:111: backupJobs[0].extraConfig.bogus: `bogus` is not a backup job option of PVE",
  "F:15:5: backupJobs.nightly.id: backup job id nightly is declared twice: here and at F:14:5; a job id names one job of a cluster",
];

describe("every problem of a spec in one run", () => {
  let dir = "";
  let spec = "";
  const named = (text: string) => text.replaceAll(spec, "F");
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "pvectl-all-problems-"));
    spec = join(dir, "spec.yaml");
    writeFileSync(spec, SPEC);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("validate --json lists them all, each with its place", async () => {
    const result = await pvectl(["validate", "--json", spec]);
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as {
      valid: boolean;
      issues: Array<{ file: string; line: number; column: number; path: string; message: string }>;
    };
    assert.equal(report.valid, false);
    assert.deepEqual(
      report.issues.map((i) => named(`${i.file}:${i.line}:${i.column}: ${i.path}: ${i.message}`)),
      PROBLEMS,
    );
  });

  it("plan --json gives them all in problems, and the text on stderr has no stack trace", async () => {
    const result = await pvectl(["plan", "-f", spec, "--json"], { PROXMOX_HOST: "" });
    assert.equal(result.code, 1);
    const { error } = JSON.parse(result.stdout) as { error: { kind: string; message: string; problems: string[] } };
    assert.equal(error.kind, "spec");
    assert.equal(error.message, `the spec is invalid (${PROBLEMS.length} problems); nothing was sent to the cluster`);
    assert.deepEqual(error.problems.map(named), PROBLEMS);
    assert.deepEqual(
      named(result.stderr).trim().split("\n").slice(1),
      PROBLEMS.map((p) => `  ${p}`),
    );
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });
});
