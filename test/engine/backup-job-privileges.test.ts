// The permission preflight of backup jobs: Sys.Modify on / for every write of /cluster/backup
// (the schema's check), VM.Backup on the pool a job backs up (pve-manager's own check).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { planSpec } from "../../src/app/plan-spec.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { clientAs, type Lab, startLab } from "../support/engine-lab.js";

const SPEC = `
backupJobs:
  - id: web-pool
    schedule: daily
    selection: { pool: web }
    storage: local
`;

describe("backup job privileges", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({
      config: {
        access: {
          users: [{ userid: "auditor@pve", password: "auditor123" }],
          acl: [{ path: "/", roles: ["PVEAuditor"], users: ["auditor@pve"] }],
        },
      },
    });
  });
  after(() => lab.close());

  it("refuses before anything runs, naming each privilege and path", async () => {
    const auditor = clientAs(lab, "auditor@pve", "auditor123");
    try {
      const { plan } = await planSpec(auditor, parseSpec(SPEC, "jobs.yaml"));
      const missing = plan.preflightErrors.filter((p) => p.kind === "permission").map((p) => `${p.path} ${p.privilege}`);
      assert.deepEqual(missing.sort(), ["/ Sys.Modify", "/pool/web VM.Backup"]);
      assert.ok(plan.preflightErrors.every((p) => p.guest === "web-pool"));
    } finally {
      await auditor.close();
    }
  });

  it("root passes", async () => {
    const { plan } = await planSpec(lab.client, parseSpec(SPEC, "jobs.yaml"));
    assert.deepEqual(plan.preflightErrors, []);
  });
});
