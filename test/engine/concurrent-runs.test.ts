// Runs that overlap with other runs (another pvectl, proxmoxer, an operator): a guest deleted
// between the listing and its read, creates in progress elsewhere in the cluster, and two
// applies whose specs share guest names. Each is handled per guest, and reported truthfully.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { applyPlan } from "../../src/engine/apply.js";
import type { CreateWait } from "../../src/engine/creates.js";
import { buildDestroyPlan, buildPlan } from "../../src/engine/plan.js";
import { desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const vm = (name: string, o: { vmid?: number; memory?: number; node?: string } = {}) => `
  - ${o.vmid !== undefined ? `vmid: ${o.vmid}\n    ` : ""}name: ${name}
    node: ${o.node ?? "pve1"}
    memory: ${o.memory ?? 512}`;

async function listed(lab: Lab): Promise<Array<{ vmid: number; name?: string; node: string }>> {
  const guests = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{
    vmid: number;
    name?: string;
    node: string;
  }>;
  return guests.sort((a, b) => a.vmid - b.vmid);
}

describe("a guest deleted between the listing and its read", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  beforeEach(() => lab.sim.admin.reset());
  after(async () => lab.close());

  async function create(yaml: string): Promise<void> {
    const report = await applyPlan(lab.client, (await buildPlan(lab.client, desired(`vms:${yaml}`))).plan, fastApply);
    assert.equal(report.ok, true, report.guests.map((g) => g.error).join("; "));
  }

  /** The read of 500's config is slow; the guest is deleted (by someone else) while it waits. */
  function deleteDuringRead(vmid: number): void {
    lab.sim.admin.injectFault({ method: "GET", path: `^/nodes/pve1/qemu/${vmid}/pending$`, latencyMs: 400, times: 1 });
    setTimeout(() => void lab.client.request("DELETE", `/nodes/pve1/qemu/${vmid}`, { purge: 1 }), 100);
  }

  it("plan treats it as absent (create) and plans the other guests as usual", async () => {
    await create(`${vm("gone1", { vmid: 500 })}${vm("stays1", { vmid: 501 })}`);
    const spec = `vms:${vm("gone1", { vmid: 500 })}${vm("stays1", { vmid: 501, memory: 1024 })}`;
    deleteDuringRead(500);
    const { plan } = await buildPlan(lab.client, desired(spec));
    const gone = plan.guests.find((g) => g.key === "gone1")!;
    assert.deepEqual(gone.errors, []);
    assert.equal(gone.exists, false);
    assert.deepEqual(
      gone.steps.map((s) => s.action),
      ["create"],
    );
    const stays = plan.guests.find((g) => g.key === "stays1")!;
    assert.deepEqual(
      stays.steps.map((s) => s.summary),
      ["change memory"],
    );
  });

  it("plan gives a guest that stays unreadable its own error, not the whole plan", async () => {
    await create(`${vm("bad1", { vmid: 502 })}${vm("fine1", { vmid: 503 })}`);
    lab.sim.admin.injectFault({
      method: "GET",
      path: "^/nodes/pve1/qemu/502/pending$",
      status: 500,
      message: "unable to read config: does not exist",
    });
    const { plan } = await buildPlan(lab.client, desired(`vms:${vm("bad1", { vmid: 502 })}${vm("fine1", { vmid: 503, memory: 1024 })}`));
    assert.match(plan.guests[0]!.errors.join(), /^could not read guest 502 on pve1: .*does not exist/);
    assert.deepEqual(plan.guests[1]!.errors, []);
    assert.equal(plan.guests[1]!.steps.length, 1);
  });

  it("destroy leaves the deleted guest out (already gone) and destroys the others", async () => {
    await create(`${vm("gone2", { vmid: 504 })}${vm("stays2", { vmid: 505 })}`);
    deleteDuringRead(504);
    const plan = await buildDestroyPlan(lab.client, {
      desired: desired(`vms:${vm("gone2", { vmid: 504 })}${vm("stays2", { vmid: 505 })}`),
    });
    assert.deepEqual(
      plan.guests.map((g) => [g.key, g.errors]),
      [["stays2", []]],
    );
    const report = await applyPlan(lab.client, plan, { ...fastApply, allowDataLoss: true });
    assert.equal(report.ok, true, report.guests[0]!.error);
    assert.deepEqual(await listed(lab), []);
  });

  it("apply counts the destroy of a guest deleted after the plan as done (already gone)", async () => {
    await create(`${vm("gone3", { vmid: 506 })}${vm("stays3", { vmid: 507 })}`);
    const plan = await buildDestroyPlan(lab.client, {
      desired: desired(`vms:${vm("gone3", { vmid: 506 })}${vm("stays3", { vmid: 507 })}`),
    });
    await lab.client.request("DELETE", "/nodes/pve1/qemu/506", { purge: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const report = await applyPlan(lab.client, plan, { ...fastApply, allowDataLoss: true });
    const gone = report.guests.find((g) => g.key === "gone3")!;
    assert.equal(report.ok, true, gone.error);
    assert.equal(gone.result, "destroyed");
    assert.match(gone.warnings.join(), /gone3 \(vmid 506\) was already gone/);
    assert.deepEqual(await listed(lab), []);
  });
});

describe("creates in progress elsewhere in the cluster", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  beforeEach(() => lab.sim.admin.reset());
  after(async () => lab.close());

  /** A guest in creation as PVE shows it: no name, `lock: create` (another tool's create via nextid). */
  async function createInProgress(vmid: number, node: string): Promise<void> {
    await lab.client.waitForTask((await lab.client.request("POST", `/nodes/${node}/qemu`, { vmid })) as string);
    lab.sim.admin.holdLock(vmid, "create");
  }

  it("plans the guests on other nodes at once, without waiting", async () => {
    await createInProgress(520, "pve3");
    const waits: number[][] = [];
    const { plan } = await buildPlan(lab.client, desired(`vms:${vm("n1")}${vm("n2")}${vm("n3", { node: "pve2" })}`), {
      createWait: { limitMs: 5000, onWait: (w) => waits.push(w.vmids) },
    });
    assert.deepEqual(
      plan.guests.map((g) => [g.key, g.errors, g.steps.map((s) => s.action)]),
      [
        ["n1", [], ["create"]],
        ["n2", [], ["create"]],
        ["n3", [], ["create"]],
      ],
    );
    assert.deepEqual(waits, [], "nothing waited: the create is on pve3");
  });

  it("guests on the node of the create wait for it (shown), then are planned", async () => {
    await createInProgress(521, "pve1");
    setTimeout(() => lab.sim.admin.releaseLock(521), 300);
    const waits: CreateWait[] = [];
    const { plan } = await buildPlan(lab.client, desired(`vms:${vm("m1")}${vm("m2", { node: "pve2" })}`), {
      createWait: { limitMs: 20_000, onWait: (w) => waits.push(w) },
    });
    assert.deepEqual(
      plan.guests.map((g) => [g.key, g.errors, g.steps.map((s) => s.action)]),
      [
        ["m1", [], ["create"]],
        ["m2", [], ["create"]],
      ],
    );
    assert.deepEqual(waits[0], { vmids: [521], elapsedMs: waits[0]!.elapsedMs, limitMs: 20_000 });
  });

  it("the wait is bounded: a create that does not finish is an error for the guests that may be it only", async () => {
    await createInProgress(522, "pve1");
    const started = Date.now();
    const { plan } = await buildPlan(lab.client, desired(`vms:${vm("k1")}${vm("k2", { node: "pve2" })}`), { createWait: { limitMs: 400 } });
    assert.ok(Date.now() - started >= 400);
    assert.match(plan.guests[0]!.errors.join(), /^guest\(s\) 522 on pve1 are being created right now and may be k1/);
    assert.deepEqual(plan.guests[1]!.errors, []);
    assert.deepEqual(
      plan.guests[1]!.steps.map((s) => s.action),
      ["create"],
    );
  });
});

describe("two applies whose specs share guest names", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  beforeEach(() => lab.sim.admin.reset());
  after(async () => lab.close());

  const spec = (memory: number, vmids = false) =>
    `vms:${["c1", "c2", "c3"].map((name, i) => vm(name, { memory, ...(vmids ? { vmid: 530 + i } : {}) })).join("")}`;

  async function memoryOf(vmid: number): Promise<number> {
    return Number(((await lab.client.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as { memory: string }).memory);
  }

  for (const vmids of [false, true]) {
    it(`never reports "created" for what the other run created, nor ok for a guest that does not match (${vmids ? "with" : "without"} vmids)`, async () => {
      const [{ plan: planA }, { plan: planB }] = await Promise.all([
        buildPlan(lab.client, desired(spec(512, vmids))),
        buildPlan(lab.client, desired(spec(1024, vmids))),
      ]);
      const [a, b] = await Promise.all([
        applyPlan(lab.client, planA, { ...fastApply, desired: desired(spec(512, vmids)) }),
        applyPlan(lab.client, planB, { ...fastApply, desired: desired(spec(1024, vmids)) }),
      ]);
      const guests = await listed(lab);
      assert.deepEqual(
        guests.map((g) => g.name),
        ["c1", "c2", "c3"],
        "one guest per name",
      );
      const claims = new Map<number, string>();
      for (const [run, report, memory] of [
        ["A", a, 512],
        ["B", b, 1024],
      ] as const) {
        for (const g of report.guests) {
          if (g.result === "created") {
            assert.equal(claims.get(g.vmid!), undefined, `${g.key} (vmid ${g.vmid}) reported created by both runs`);
            claims.set(g.vmid!, run);
          }
          // Whatever a run reports as done without an error, the guest must match that run's spec.
          if (g.error === undefined)
            assert.equal(
              await memoryOf(g.vmid!),
              memory,
              `run ${run} reports ${g.key} ${g.result} without error, but it does not match its spec`,
            );
          else assert.match(g.error, /created by another run|not converged/);
        }
        if (report.ok) for (const g of report.guests) assert.equal(await memoryOf(g.vmid!), memory);
      }
      assert.equal(claims.size, 3, "each guest was created by exactly one run");
    });
  }

  it("when two runs each create a guest of the same name, neither reports it ok: the twin is named", async () => {
    // Both plans are made before either run creates anything (as when two CI jobs start
    // together); PVE's create is atomic per vmid, not per name, so each run creates its own.
    const spec = `vms:${vm("d1")}${vm("d2")}`;
    const [{ plan: planA }, { plan: planB }] = await Promise.all([
      buildPlan(lab.client, desired(spec)),
      buildPlan(lab.client, desired(spec)),
    ]);
    const a = await applyPlan(lab.client, planA, { ...fastApply, desired: desired(spec) });
    const b = await applyPlan(lab.client, planB, { ...fastApply, desired: desired(spec) });
    const guests = await listed(lab);
    for (const name of ["d1", "d2"]) {
      const twins = guests.filter((g) => g.name === name).map((g) => g.vmid);
      assert.equal(twins.length, 2, `${name}: each run created one`);
      const second = b.guests.find((g) => g.key === name)!;
      assert.equal(b.ok, false, `${name} exists twice (${twins.join(", ")}), but the second run reported ok`);
      assert.equal(second.result, "partial");
      assert.match(
        second.error ?? "",
        new RegExp(`another guest named ${name} with the pvectl tag exists too \\(${twins.find((v) => v !== second.vmid)} on pve1\\)`),
      );
    }
    assert.equal(a.ok, true, "the first run finished before the second created anything");
  });
});

describe("the final read-back", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  after(async () => lab.close());

  it("reports a guest changed by someone else during the run as not converged, not ok", async () => {
    const guest = (memory: number) => `vms:\n  - vmid: 540\n    name: rb1\n    node: pve1\n    memory: ${memory}\n    cores: 2`;
    assert.equal((await applyPlan(lab.client, (await buildPlan(lab.client, desired(guest(512)))).plan, fastApply)).ok, true);
    const { plan } = await buildPlan(lab.client, desired(guest(1024)));
    // Someone sets cores right after this run's memory change; the report's read waits for it.
    lab.sim.admin.injectFault({ method: "GET", path: "^/nodes/pve1/qemu/540/config$", latencyMs: 300, times: 1 });
    const report = await applyPlan(lab.client, plan, {
      ...fastApply,
      desired: desired(guest(1024)),
      onEvent: (e) => {
        if (e.type === "step-done") void lab.client.request("PUT", "/nodes/pve1/qemu/540/config", { cores: 4 });
      },
    });
    assert.equal(report.ok, false);
    assert.match(report.guests[0]!.error ?? "", /^not converged: the guest does not match the spec after this run \(.*cores.*\)/);
  });
});
