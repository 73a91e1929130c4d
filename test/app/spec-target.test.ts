// What a spec command starts from, across object families (app/spec-target.ts, through the
// family registry): the connection is picked from every family's entries as from the guests',
// two connections at once are refused before any client exists, and narrowing to one
// connection keeps a declared family declared (a declared empty list still manages it) while
// leaving out the other connections' entries.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openSpecTarget, readSpecGuests } from "../../src/app/spec-target.js";
import { UsageError } from "../../src/app/usage-error.js";

const CONNECTIONS = `connections:
  a: { host: 127.0.0.1, port: 9, user: root@pam, passwordEnv: PVECTL_TEST_NOPE }
  b: { host: 127.0.0.1, port: 9, user: root@pam, passwordEnv: PVECTL_TEST_NOPE }
`;
const JOB = `backupJobs:
  - { id: nightly, connection: a, schedule: "02:30", selection: { all: true }, storage: local }
`;
const ACCESS = `access:
  connection: b
  groups: [{ id: ops }]
`;

describe("a spec's target across object families", () => {
  let dir = "";
  let file = "";
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "pvectl-target-"));
    file = join(dir, "spec.yaml");
    writeFileSync(file, `version: 1\n${CONNECTIONS}vms: []\n${JOB}${ACCESS}`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a spec whose families are on two connections, naming both, before any client exists", async () => {
    await assert.rejects(
      openSpecTarget({ files: [file] }, "plan"),
      (err: unknown) => err instanceof UsageError && /uses 2 connections \(a, b\); pvectl works on one cluster at a time/.test(err.message),
    );
  });

  it("on one connection keeps each declared family, with only that connection's entries", async () => {
    const onB = await readSpecGuests([file], "b");
    assert.deepEqual(onB.backupJobs, []);
    assert.equal(onB.access?.length, 1);
    const onA = await readSpecGuests([file], "a");
    assert.deepEqual(
      onA.backupJobs?.map((j) => j.id),
      ["nightly"],
    );
    assert.deepEqual(onA.access, []);
  });

  it("leaves a family the spec does not declare out, on every connection", async () => {
    const only = join(dir, "jobs.yaml");
    writeFileSync(only, `version: 1\n${CONNECTIONS}vms: []\n${JOB}`);
    const spec = await readSpecGuests([only]);
    assert.equal("access" in spec, false);
    assert.equal(spec.backupJobs?.length, 1);
  });
});
