// `access needs --format spec` writes a section `pvectl validate` accepts: for random guests
// (with or without vmid and pool, startup, backup jobs: every kind of path, / and /vms too),
// any subject and role id the command takes, the section as printed parses without a problem
// and means what was generated (same roles, same ACL entries).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { stringify } from "yaml";
import { type AclSubject, accessSpec, specAccessNeeds } from "../../src/app/access.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { specEntry } from "../resources/left-out-model.js";

const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9._-]{1,8}$/);
const subject: fc.Arbitrary<AclSubject> = fc.oneof(
  fc.tuple(fc.stringMatching(/^[a-z][a-z0-9._-]{0,8}$/), name, name).map(([u, realm, t]) => ({ token: `${u}@${realm}!${t}` })),
  fc.tuple(fc.stringMatching(/^[a-z][a-z0-9._-]{0,8}$/), name).map(([u, realm]) => ({ user: `${u}@${realm}` })),
  fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/).map((group) => ({ group })),
);
// What --role takes: a letter first, not PVE in any case, at most 57 characters.
const role = fc
  .oneof(fc.stringMatching(/^[A-Za-z][A-Za-z0-9._-]{0,8}$/), fc.stringMatching(/^[A-Za-z][A-Za-z0-9._-]{56}$/))
  .filter((r) => !/^pve/i.test(r));
const backupJob = fc.constantFrom([], [{ id: "nightly", schedule: "02:30", selection: { all: true }, storage: "local" }]);

describe("access needs --format spec passes validate", () => {
  it("for random guests, subjects and role ids", () => {
    fc.assert(
      fc.property(
        specEntry,
        fc.boolean(),
        fc.constantFrom(undefined, "team"),
        fc.boolean(),
        backupJob,
        subject,
        role,
        (vm, withVmid, pool, startup, jobs, who, roleId) => {
          const entry: Record<string, unknown> = {
            ...vm,
            ...(pool !== undefined ? { pool } : {}),
            ...(startup ? { extraConfig: { startup: "order=1" } } : {}),
          };
          if (!withVmid) delete entry.vmid;
          if (entry.pool === "") delete entry.pool;
          const spec = parseSpec(stringify({ vms: [entry], ...(jobs.length > 0 ? { backupJobs: jobs } : {}) }), "random.yaml");
          const generated = accessSpec(specAccessNeeds(spec).paths, roleId, who);
          const printed = stringify({ access: generated });
          const parsed = parseSpec(printed, "access.yaml").access?.[0]?.desired;
          assert.ok(parsed, printed);
          assert.deepEqual(
            parsed.roles?.map((r) => [r.id, [...r.privileges].sort()]),
            generated.roles.map((r) => [r.id, r.privileges]),
          );
          assert.equal(parsed.acls?.length, generated.acls.length, printed);
        },
      ),
      { seed: 1612, numRuns: 120 },
    );
  });
});
