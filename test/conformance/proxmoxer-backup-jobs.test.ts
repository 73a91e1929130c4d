import { plannedParams } from "../../src/plan/resolve-call.js";
// A backup job pvectl created, as a client nobody here wrote reads it: Debian's
// python3-proxmoxer lists /cluster/backup and reads the job by id, and finds every field with
// the type PVE gives it (strings, 0/1 integers, the retention as an object, next-run a number).
// A change proxmoxer makes to a key the spec names shows up in pvectl's next plan; one to a key
// the spec leaves out does not.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { proxmoxerSkip as skip, runProxmoxerScript } from "./proxmoxer.js";

const SPEC = `
backupJobs:
  - id: nightly-web
    schedule: "mon..fri 02:30"
    selection: { vmids: [101, 100] }
    storage: local
    mode: snapshot
    compress: zstd
    retention: { keep-last: 3, keep-weekly: 2 }
    notesTemplate: "{{guestname}} on {{node}}"
    mailto: [ops@example.com]
    mailNotification: failure
    enabled: true
    comment: web tier
`;

const SCRIPT = `
import json, sys
from proxmoxer import ProxmoxAPI
host, port, ca, password = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
p = ProxmoxAPI(host, port=port, user="root@pam", password=password, verify_ssl=ca)
out = {}
out["list"] = p.cluster.backup.get()
job = p.cluster.backup("nightly-web").get()
out["job"] = job
out["types"] = {k: type(v).__name__ for k, v in job.items()}
p.cluster.backup("nightly-web").put(mode="stop", bwlimit=1000)
print(json.dumps(out))
`;

describe("proxmoxer reads a backup job pvectl created", { skip }, () => {
  let sim: RunningSimulator;
  let client: PveClient;
  let seen: { list: Array<Record<string, unknown>>; job: Record<string, unknown>; types: Record<string, string> };
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 5 });
    client = new PveClient({
      host: "127.0.0.1",
      port: sim.port,
      user: "root@pam",
      password: sim.rootPassword,
      fingerprint: sim.fingerprint as string,
    });
    const report = await applyPlan(client, await planSpec(client, parseSpec(SPEC, "jobs.yaml")), {
      taskPoll: { minIntervalMs: 5, maxIntervalMs: 20 },
    });
    assert.ok(report.ok, JSON.stringify(report));
    seen = await runProxmoxerScript(sim, SCRIPT);
  });
  after(async () => {
    await client?.close();
    await sim?.close();
  });

  it("lists it and reads it by id with PVE's fields and types", () => {
    assert.deepEqual(
      seen.list.map((j) => j.id),
      ["nightly-web"],
    );
    const { job, types } = seen;
    assert.equal(job.type, "vzdump");
    assert.equal(job.schedule, "mon..fri 02:30");
    assert.equal(job.vmid, "100,101");
    assert.equal(job.storage, "local");
    assert.equal(job.mode, "snapshot");
    assert.equal(job.compress, "zstd");
    assert.equal(job["notes-template"], "{{guestname}} on {{node}}");
    assert.equal(job.mailto, "ops@example.com");
    assert.equal(job.mailnotification, "failure");
    assert.equal(job.enabled, 1);
    assert.equal(job.comment, "web tier [pvectl]");
    assert.deepEqual(job["prune-backups"], { "keep-last": 3, "keep-weekly": 2 });
    assert.deepEqual(
      { enabled: types.enabled, "next-run": types["next-run"], "prune-backups": types["prune-backups"], vmid: types.vmid },
      { enabled: "int", "next-run": "int", "prune-backups": "dict", vmid: "str" },
    );
  });

  it("pvectl's next plan puts back the mode proxmoxer changed and leaves its bwlimit alone", async () => {
    const { plan } = await planSpec(client, parseSpec(SPEC, "jobs.yaml"));
    const step = plan.objects?.[0]?.steps[0];
    assert.deepEqual(step?.changes, [{ field: "mode", before: "stop", after: "snapshot" }]);
    assert.deepEqual(step?.calls[0] ? plannedParams(step?.calls[0]) : undefined, { mode: "snapshot" });
  });
});
