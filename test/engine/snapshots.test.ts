import { plannedParams } from "../../src/plan/resolve-call.js";
// Snapshot plans against the simulator: each preflight refusal, each guard rail, and lost
// answers resolved by reading the snapshot list back (never a second snapshot, never an error
// for a delete that already happened).
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { applyPlan } from "../../src/engine/apply.js";
import { planSnapshots, readSnapshots } from "../../src/engine/snapshot-plan.js";
import type { SnapshotOperation } from "../../src/resources/snapshot-steps.js";
import type { RequestFaultSpec } from "../../src/sim/index.js";
import { clientAs, converge, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const SPEC = `vms:
  - { vmid: 400, name: snap400, node: pve1, memory: 512, disks: { scsi0: { storage: local-lvm, size: 1G } } }
  - { vmid: 401, name: snap401, node: pve1, memory: 512, power: running, disks: { scsi0: { storage: local-lvm, size: 1G } } }
  - { vmid: 402, name: rawnfs, node: pve1, memory: 512, disks: { scsi0: { storage: local-lvm, size: 1G }, scsi1: { storage: shared, size: 1G, format: raw } } }
`;

const at = (vmids: number[]) => ({ vmids });

describe("snapshot plans", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({
      config: {
        access: {
          users: [{ userid: "vmuser@pve", password: "vmuser123" }],
          acl: [{ path: "/", roles: ["PVEVMUser", "PVEAuditor"], users: ["vmuser@pve"] }],
        },
      },
    });
    const { report } = await converge(lab, `version: 1\n${SPEC}`);
    assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
  });
  after(async () => lab.close());

  async function run(vmids: number[], op: SnapshotOperation, guard = { allowDataLoss: true, allowRestart: true }) {
    const { plan, context } = await planSnapshots(lab.client, at(vmids), op);
    assert.deepEqual(plan.preflightErrors, []);
    return applyPlan(lab.client, plan, { ...fastApply, ...guard, cluster: context.cluster });
  }

  const names = async (vmid: number) => (await readSnapshots(lab.client, { type: "qemu", node: "pve1", vmid })).map((s) => s.name);

  it("refuses a volume whose storage cannot snapshot, naming the volume", async () => {
    const { plan } = await planSnapshots(lab.client, at([402]), { action: "create", name: "s1" });
    assert.equal(plan.preflightErrors.length, 1);
    assert.match(
      plan.preflightErrors[0]!.message,
      /rawnfs: scsi1 \(shared:402\/vm-402-disk-\d\.raw\) cannot be snapshotted: a raw volume on nfs storage/,
    );
  });

  it("refuses when a thin pool holding a volume is below --min-free", async () => {
    const { plan } = await planSnapshots(lab.client, at([400]), { action: "create", name: "s1" }, { minFreePercent: 100 });
    assert.match(plan.preflightErrors.map((p) => p.message).join("\n"), /thin pool local-lvm has [\d.]+% free, below --min-free 100%/);
    const fine = await planSnapshots(lab.client, at([400]), { action: "create", name: "s1" }, { minFreePercent: 1 });
    assert.deepEqual(fine.plan.preflightErrors, []);
  });

  it("refuses a locked guest", async () => {
    lab.sim.admin.holdLock(400, "backup");
    try {
      const { plan } = await planSnapshots(lab.client, at([400]), { action: "create", name: "s1" });
      assert.match(plan.preflightErrors.map((p) => p.message).join("\n"), /snap400 is locked \(backup\)/);
    } finally {
      lab.sim.admin.releaseLock(400);
    }
  });

  it("refuses a name PVE refuses, a taken name on create, and a missing one on delete and rollback", async () => {
    const bad = await planSnapshots(lab.client, at([400]), { action: "create", name: "current" });
    assert.match(bad.plan.preflightErrors[0]!.message, /reserved/);
    await run([400], { action: "create", name: "taken" });
    const taken = await planSnapshots(lab.client, at([400]), { action: "create", name: "taken", description: "other" });
    assert.match(
      taken.plan.preflightErrors[0]!.message,
      /snap400 already has a snapshot named 'taken' that this command did not make \(its description is empty, this command's 'other'\)/,
    );
    for (const action of ["delete", "rollback"] as const) {
      const missing = await planSnapshots(lab.client, at([400]), { action, name: "nope" });
      assert.match(missing.plan.preflightErrors[0]!.message, /snap400 has no snapshot named 'nope' \(it has: taken\)/);
    }
  });

  it("a rerun of a create finishes the guests without the snapshot and reports the others as done", async () => {
    await run([400], { action: "create", name: "resume", description: "before upgrade" });
    const rerun = await planSnapshots(lab.client, at([400, 401]), { action: "create", name: "resume", description: "before upgrade" });
    assert.deepEqual(rerun.plan.preflightErrors, []);
    const [done, todo] = rerun.plan.guests;
    assert.deepEqual(done!.steps, []);
    assert.match(
      done!.warnings.join(),
      /already done: snap400 has snapshot 'resume' \(taken \d{4}-\d\d-\d\dT[\d:]+Z\), taken by an earlier run/,
    );
    assert.deepEqual(
      todo!.steps.map((s) => s.action),
      ["snapshot-create"],
    );
    const report = await applyPlan(lab.client, rerun.plan, { ...fastApply, cluster: rerun.context.cluster });
    assert.equal(report.ok, true);
    assert.deepEqual(
      report.guests.map((g) => g.result),
      ["unchanged", "changed"],
    );
    assert.ok((await names(401)).includes("resume"));
    const again = await planSnapshots(lab.client, at([400, 401]), { action: "create", name: "resume", description: "before upgrade" });
    assert.deepEqual([again.plan.preflightErrors, again.plan.guests.flatMap((g) => g.steps)], [[], []], "all have it: nothing to do");
  });

  it("a rerun does not count a snapshot of a guest locked for a snapshot as done (it may be unfinished)", async () => {
    await run([400], { action: "create", name: "halfway" });
    lab.sim.admin.holdLock(400, "snapshot");
    try {
      const rerun = await planSnapshots(lab.client, at([400]), { action: "create", name: "halfway" });
      assert.match(
        rerun.plan.preflightErrors.map((p) => p.message).join(),
        /snap400 has snapshot 'halfway' but is locked \(snapshot\).*unfinished/,
      );
    } finally {
      lab.sim.admin.releaseLock(400);
    }
  });

  it("a rerun reports a same-named snapshot much older than the run instead of counting it as done", async () => {
    lab.sim.admin.advanceClock(-3 * 86400);
    try {
      await run([400], { action: "create", name: "weekly" });
    } finally {
      lab.sim.admin.advanceClock(3 * 86400);
    }
    const rerun = await planSnapshots(lab.client, at([400, 401]), { action: "create", name: "weekly" });
    assert.match(
      rerun.plan.preflightErrors.map((p) => p.message).join("\n"),
      /snap400 already has a snapshot named 'weekly' that this command did not make \(it was taken .*, more than a day before this run\); delete it first/,
    );
  });

  it("refuses a user without VM.Snapshot in the preflight (the schema's permission of the endpoint)", async () => {
    const user = clientAs(lab, "vmuser@pve", "vmuser123");
    try {
      const { plan } = await planSnapshots(user, at([400]), { action: "create", name: "s2" });
      const permission = plan.preflightErrors.find((p) => p.kind === "permission");
      assert.equal(permission?.privilege, "VM.Snapshot");
      assert.equal(permission?.path, "/vms/400");
    } finally {
      await user.close();
    }
  });

  it("skips a guest pvectl did not create unless told to include it", async () => {
    await lab.client.request("POST", "/nodes/pve1/qemu", { vmid: 409, name: "foreign", memory: 512 });
    const skipped = await planSnapshots(lab.client, at([409]), { action: "create", name: "s1" });
    assert.deepEqual(skipped.plan.guests, []);
    assert.match(skipped.selection.skipped[0]!.reason, /not created by pvectl/);
    const included = await planSnapshots(lab.client, { vmids: [409], includeForeign: true }, { action: "create", name: "s1" });
    assert.equal(included.plan.guests[0]!.steps[0]!.action, "snapshot-create");
  });

  it("delete is data-loss-risk: held back without --allow-data-loss, done with it", async () => {
    await run([400], { action: "create", name: "del1" });
    const held = await run([400], { action: "delete", name: "del1" }, { allowDataLoss: false, allowRestart: false });
    assert.equal(held.guests[0]!.result, "skipped");
    assert.match(held.guests[0]!.pending[0]!, /delete snapshot 'del1'.*needs --allow-data-loss/);
    assert.ok((await names(400)).includes("del1"));
    const done = await run([400], { action: "delete", name: "del1" });
    assert.equal(done.ok, true);
    assert.ok(!(await names(400)).includes("del1"));
  });

  it("rollback of a running guest plans a stop (service-impact) before the rollback (data-loss-risk); each needs its flag", async () => {
    await run([401], { action: "create", name: "rb1" });
    const { plan } = await planSnapshots(lab.client, at([401]), { action: "rollback", name: "rb1", start: true });
    assert.deepEqual(
      plan.guests[0]!.steps.map((s) => [s.action, s.severity]),
      [
        ["stop", "service-impact"],
        ["snapshot-rollback", "data-loss-risk"],
      ],
    );
    const noRestart = await run([401], { action: "rollback", name: "rb1", start: true }, { allowDataLoss: true, allowRestart: false });
    assert.equal(noRestart.guests[0]!.steps.filter((s) => s.status === "done").length, 0, "nothing runs when the stop is refused");
    const done = await run([401], { action: "rollback", name: "rb1", start: true });
    assert.equal(done.ok, true, done.guests[0]!.error);
    const status = (await lab.client.request("GET", "/nodes/pve1/qemu/401/status/current")) as { status: string };
    assert.equal(status.status, "running", "--start starts it again");
  });

  it("create with --vmstate of a running VM is service-impact (it pauses); of a stopped one plain configuration", async () => {
    const running = await planSnapshots(lab.client, at([401]), { action: "create", name: "ram1", vmstate: true });
    assert.equal(running.plan.guests[0]!.steps[0]!.severity, "service-impact");
    assert.match(running.plan.guests[0]!.steps[0]!.summary, /pauses/);
    const stopped = await planSnapshots(lab.client, at([400]), { action: "create", name: "ram1", vmstate: true });
    assert.equal(stopped.plan.guests[0]!.steps[0]!.severity, "configuration");
    assert.equal(plannedParams(stopped.plan.guests[0]!.steps[0]!.calls[0]!).vmstate, undefined);
  });

  it("prune deletes only the prefixed snapshots beyond the newest N, each named in its own step", async () => {
    for (const name of ["auto-a", "manual", "auto-b", "auto-c"]) {
      await run([400], { action: "create", name });
      lab.sim.admin.advanceClock(60); // distinct snaptimes (seconds)
    }
    const { plan } = await planSnapshots(lab.client, at([400]), { action: "prune", retention: { keep: 1, prefix: "auto-" } });
    assert.deepEqual(
      plan.guests[0]!.steps.map((s) => [s.action, s.severity, s.summary.match(/'([^']+)'/)?.[1]]),
      [
        ["snapshot-delete", "data-loss-risk", "auto-a"],
        ["snapshot-delete", "data-loss-risk", "auto-b"],
      ],
    );
    const report = await applyPlan(lab.client, plan, { ...fastApply, allowDataLoss: true });
    assert.equal(report.ok, true);
    const left = await names(400);
    assert.ok(left.includes("auto-c") && left.includes("manual") && !left.includes("auto-a") && !left.includes("auto-b"));
  });
});

/** The three ways an answer gets lost (as in lost-answers.test.ts). */
const SLOW_MS = 1500;
const LOSSES: Array<[string, Omit<RequestFaultSpec, "method" | "path">]> = [
  ["a slow request", { latencyMs: SLOW_MS }],
  ["a dropped answer", { dropResponse: true }],
  ["an answer held back", { responseDelayMs: SLOW_MS }],
];

describe("lost answers of snapshot calls", () => {
  let lab: Lab;
  let impatient: PveClient;
  before(async () => {
    lab = await startLab();
    const { report } = await converge(
      lab,
      `version: 1\nvms:\n  - { vmid: 420, name: lostsnap, node: pve1, memory: 512, disks: { scsi0: { storage: local-lvm, size: 1G } } }\n`,
    );
    assert.equal(report.ok, true);
    const url = new URL(lab.sim.url);
    impatient = new PveClient({
      host: url.hostname,
      port: Number(url.port),
      protocol: "http",
      user: "root@pam",
      password: lab.sim.rootPassword,
      timeoutMs: 250,
    });
  });
  beforeEach(() => lab.sim.admin.clearFaults());
  after(async () => {
    await impatient.close();
    await lab.close();
  });

  const settle = () => new Promise((r) => setTimeout(r, SLOW_MS + 200));
  const names = async () => (await readSnapshots(lab.client, { type: "qemu", node: "pve1", vmid: 420 })).map((s) => s.name);

  for (const [what, fault] of LOSSES) {
    it(`a create whose answer was lost (${what}) is read back: one snapshot, reported done`, async () => {
      const name = `c${LOSSES.findIndex(([w]) => w === what)}`;
      const { plan } = await planSnapshots(lab.client, at([420]), { action: "create", name });
      lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu/420/snapshot$", ...fault, times: 1 });
      const report = await applyPlan(impatient, plan, fastApply);
      await settle();
      assert.equal(report.ok, true, report.guests[0]!.error);
      assert.deepEqual(
        (await names()).filter((n) => n === name),
        [name],
      );
    });

    it(`a delete whose answer was lost (${what}) is read back: gone, reported done`, async () => {
      const name = `d${LOSSES.findIndex(([w]) => w === what)}`;
      await applyPlan(lab.client, (await planSnapshots(lab.client, at([420]), { action: "create", name })).plan, fastApply);
      const { plan } = await planSnapshots(lab.client, at([420]), { action: "delete", name });
      lab.sim.admin.injectFault({ method: "DELETE", path: `^/nodes/pve1/qemu/420/snapshot/${name}$`, ...fault, times: 1 });
      const report = await applyPlan(impatient, plan, { ...fastApply, allowDataLoss: true });
      await settle();
      assert.equal(report.ok, true, report.guests[0]!.error);
      assert.ok(!(await names()).includes(name));
    });
  }
});
