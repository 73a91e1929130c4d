import { plannedParams } from "../../src/plan/resolve-call.js";
// Backup jobs as desired state (#15): plan/apply against the simulator's /cluster/backup.
import assert from "node:assert/strict";
import { writeFile, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { recomputeSavedPlan } from "../../src/app/saved-plan.js";
import { savedPlanContent, savePlan, loadPlan } from "../../src/engine/saved-plan.js";
import { planHasChanges } from "../../src/plan/types.js";
import { importGuests, showSpec } from "../../src/app/show.js";
import { stringify } from "yaml";
import { parseSpec, SpecError } from "../../src/sources/spec/index.js";
import { fastApply, type Lab, startLab } from "../support/engine-lab.js";

type Row = Record<string, unknown>;

const JOB = (extra = "", id = "nightly") => `
backupJobs:
  - id: ${id}
    schedule: "mon..fri 02:30"
    selection: { vmids: [100, 101] }
    storage: local
    mode: snapshot
    compress: zstd
    retention: { keep-last: 3, keep-daily: 7 }
    comment: web servers${extra}
`;

describe("backup jobs as desired state", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  beforeEach(() => lab.sim.admin.reset());
  after(() => lab.close());

  const jobs = async () => (await lab.client.request("GET", "/cluster/backup")) as Row[];
  const plan = (yaml: string) => planSpec(lab.client, parseSpec(yaml, "jobs.yaml"));
  const converge = async (yaml: string, options = {}) => {
    const planned = await plan(yaml);
    return { plan: planned.plan, report: await applyPlan(lab.client, planned, { ...fastApply, ...options }) };
  };

  it("creates a job, marked, and a second plan is empty", async () => {
    const { plan: first, report } = await converge(JOB());
    assert.equal(first.objects?.[0]?.steps[0]?.action, "object-create");
    assert.equal(first.objects?.[0]?.steps[0]?.severity, "configuration");
    assert.ok(report.ok, JSON.stringify(report));
    assert.equal(report.objects?.[0]?.result, "created");
    const [job] = await jobs();
    assert.equal(job?.id, "nightly");
    assert.equal(job?.comment, "web servers [pvectl]");
    assert.equal(job?.schedule, "mon..fri 02:30");
    assert.equal(job?.vmid, "100,101");
    const second = (await plan(JOB())).plan;
    assert.equal(planHasChanges(second), false, JSON.stringify(second.objects));
  });

  it("changes only the keys the spec names; a key it leaves out is untouched", async () => {
    await converge(JOB());
    // Someone sets a bandwidth limit and a mail address by hand: the spec names neither.
    await lab.client.request("PUT", "/cluster/backup/nightly", { bwlimit: 5000, mailto: "ops@example.com", mode: "stop" });
    const { plan: drift } = await plan(JOB());
    const steps = drift.objects?.[0]?.steps ?? [];
    assert.equal(steps.length, 1);
    assert.deepEqual(
      steps[0]?.changes.map((c) => c.field),
      ["mode"],
    );
    await applyPlan(lab.client, await plan(JOB()), fastApply);
    const [job] = await jobs();
    assert.equal(job?.mode, "snapshot");
    assert.equal(job?.bwlimit, 5000);
    assert.equal(job?.mailto, "ops@example.com");
  });

  it("switches the selection shape with PUT and delete", async () => {
    await converge(JOB());
    const pool = JOB().replace("selection: { vmids: [100, 101] }", "selection: { all: true, exclude: [105] }");
    const { plan: p, report } = await converge(pool);
    const call = p.objects?.[0]?.steps[0]?.calls[0];
    assert.equal(call?.method, "PUT");
    assert.equal(plannedParams(call).delete, "vmid");
    assert.ok(report.ok);
    const [job] = await jobs();
    assert.equal(job?.vmid, undefined);
    assert.equal(job?.all, 1);
    assert.equal(job?.exclude, "105");
    assert.equal(planHasChanges((await plan(pool)).plan), false);
  });

  it("lists a foreign job as not managed and never touches it", async () => {
    await lab.client.request("POST", "/cluster/backup", { id: "theirs", schedule: "sun 01:00", all: 1, storage: "local" });
    const { plan: p, report } = await converge(JOB());
    const theirs = p.objects?.find((o) => o.key === "theirs");
    assert.equal(theirs?.foreign, true);
    assert.equal(theirs?.steps.length, 0);
    assert.ok(report.ok);
    const job = (await jobs()).find((j) => j.id === "theirs");
    assert.equal(job?.schedule, "sun 01:00");
    assert.equal(job?.comment, undefined);
  });

  it("refuses a spec job whose id is a foreign job, unless adopt: true (which adds the marker)", async () => {
    await lab.client.request("POST", "/cluster/backup", { id: "nightly", schedule: "02:30", vmid: "100", comment: "made by hand" });
    const refused = (await plan(JOB())).plan;
    assert.ok(refused.preflightErrors.some((e) => e.kind === "adoption" && /adopt: true/.test(e.message)));
    const { report } = await converge(JOB("\n    adopt: true"));
    assert.ok(report.ok);
    const [job] = await jobs();
    assert.equal(job?.comment, "web servers [pvectl]");
  });

  it("deletes a marked job the spec no longer lists only with --allow-restart (service-impact)", async () => {
    await converge(
      `${JOB()}  - id: weekly\n    schedule: sat 03:00\n    selection: { pool: web }\n`.replace("backupJobs:\n", "backupJobs:\n"),
    );
    assert.equal((await jobs()).length, 2);
    const { plan: p, report } = await converge(JOB());
    const del = p.objects?.find((o) => o.key === "weekly")?.steps[0];
    assert.equal(del?.action, "object-delete");
    assert.equal(del?.severity, "service-impact");
    assert.equal(report.objects?.find((o) => o.key === "weekly")?.result, "skipped");
    assert.equal((await jobs()).length, 2);
    await converge(JOB(), { allowRestart: true });
    assert.deepEqual(
      (await jobs()).map((j) => j.id),
      ["nightly"],
    );
  });

  it("leaves jobs alone when the spec has no backupJobs key", async () => {
    await converge(JOB());
    const { plan: p } = await plan("vms: []\n");
    assert.equal(p.objects, undefined);
    assert.equal((await jobs()).length, 1);
  });

  it("resolves a lost answer of a create by reading the list back: no duplicate, a truthful report", async () => {
    lab.sim.admin.injectFault({ method: "POST", path: "^/cluster/backup$", dropResponse: true, times: 1 });
    const { report } = await converge(JOB());
    assert.ok(report.ok, JSON.stringify(report));
    assert.equal(report.objects?.[0]?.result, "created");
    assert.equal((await jobs()).length, 1);
  });

  it("refuses a saved plan whose objects were tampered with", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pvectl-jobs-"));
    const specFile = join(dir, "jobs.yaml");
    await writeFile(specFile, JOB());
    const spec = parseSpec(JOB(), specFile);
    const planned = await planSpec(lab.client, spec);
    const options = { shutdownTimeoutSeconds: 120, forceStop: false, adopt: false };
    const file = join(dir, "plan.json");
    await savePlan(file, await savedPlanContent(lab.client, planned, [specFile], options, undefined));
    const saved = await loadPlan(file);
    const call = saved.plan.objects?.[0]?.steps[0]?.calls[0];
    assert.ok(call);
    call.body.schedule = "daily";
    const { problems } = await recomputeSavedPlan(lab.client, saved, spec);
    assert.ok(
      problems.some((p) => /backup-job nightly: step .* differs .*schedule/.test(p)),
      problems.join("\n"),
    );
    const untouched = await loadPlan(file);
    assert.deepEqual((await recomputeSavedPlan(lab.client, untouched, spec)).problems, []);
  });

  it("imports every job (foreign ones with adopt: true); the imported spec plans only the adoption, then nothing", async () => {
    await converge(
      JOB().replace(
        "storage: local",
        'storage: local\n    notesTemplate: "{{guestname}}"\n    mailto: [ops@example.com]\n    extraConfig: { bwlimit: 2000, repeat-missed: true }',
      ),
    );
    await lab.client.request("POST", "/cluster/backup", {
      id: "theirs",
      schedule: "sun 01:00",
      exclude: "100",
      storage: "local",
      "prune-backups": "keep-all=1",
    });
    const imported = await importGuests(lab.client, {}, { backupJobs: true });
    const text = stringify(imported.spec);
    const first = (await plan(text)).plan;
    assert.deepEqual(
      (first.objects ?? []).filter((o) => o.steps.length > 0).map((o) => [o.key, o.steps.map((s) => s.action)]),
      [["theirs", ["object-update"]]],
      text,
    );
    await applyPlan(lab.client, await plan(text), fastApply);
    assert.equal(planHasChanges((await plan(text)).plan), false);
    const shown = await showSpec(lab.client, parseSpec(text, "jobs.yaml"));
    assert.deepEqual(shown.missing, []);
    assert.equal(shown.spec.backupJobs?.length, 2);
  });

  it("says where a bad schedule is and what PVE accepts", () => {
    assert.throws(
      () => parseSpec(JOB().replace("mon..fri 02:30", "weekdays 2am"), "jobs.yaml"),
      (err: unknown) =>
        err instanceof SpecError &&
        /jobs\.yaml:4:\d+.*backupJobs\[0\]\.schedule: invalid calendar event 'weekdays 2am'.*mon\.\.fri 02:30/s.test(err.message),
    );
  });

  it("refuses a raw line feed in a notes template at load, with file:line (PVE's jobs.cfg cannot hold it)", () => {
    const spec = JOB().replace("storage: local", 'storage: local\n    notesTemplate: "{{guestname}}\\nnightly"');
    assert.throws(
      () => parseSpec(spec, "jobs.yaml"),
      (err: unknown) =>
        err instanceof SpecError &&
        /jobs\.yaml:7:\d+.*backupJobs\[0\]\.notesTemplate: PVE refuses this notes template: contains a line feed; write a new line as \\n/s.test(
          err.message,
        ),
    );
    assert.doesNotThrow(() =>
      parseSpec(JOB().replace("storage: local", 'storage: local\n    notesTemplate: "{{guestname}}\\\\nnightly"'), "jobs.yaml"),
    );
  });
});
