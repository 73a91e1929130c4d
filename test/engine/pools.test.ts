// Pool membership is a managed field: preflight checks the pool (exists, visible, Pool.Allocate),
// the plan shows join / move / leave steps, apply converges it, show and import write it, and a
// spec without `pool:` leaves membership alone.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkAccess, specAccessNeeds } from "../../src/app/access.js";
import { leftPoolNeeds } from "../../src/app/access-pool-leave.js";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan } from "../../src/engine/plan.js";
import { selectGuests, showSpecGuests } from "../../src/engine/show.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { clientAs, desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const VM = (pool?: string) => `vms:
  - vmid: 330
    name: pooled
    node: pve2
    memory: 512
${pool !== undefined ? `    pool: ${JSON.stringify(pool)}\n` : ""}`;

async function poolOf(lab: Lab, vmid: number): Promise<string | undefined> {
  const guests = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number; pool?: string }>;
  return guests.find((g) => g.vmid === vmid)?.pool;
}

async function converge(lab: Lab, yaml: string) {
  const { plan } = await buildPlan(lab.client, desired(yaml));
  assert.deepEqual(plan.preflightErrors, []);
  const report = await applyPlan(lab.client, plan, fastApply);
  assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
  return plan;
}

describe("pools", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({
      config: {
        access: {
          users: [
            { userid: "auditless@pve", password: "auditless1" },
            { userid: "joiner@pve", password: "joiner123" },
            { userid: "pooler@pve", password: "pooler123" },
            { userid: "mover@pve", password: "mover1234" },
          ],
          acl: [
            { path: "/", roles: ["PVEVMAdmin", "PVEDatastoreUser", "PVESDNUser"], users: ["auditless@pve", "joiner@pve"] },
            { path: "/pool/prod", roles: ["PVEPoolUser"], users: ["joiner@pve"] },
            { path: "/pool/dev", roles: ["PVEPoolAdmin"], users: ["pooler@pve"] },
            { path: "/vms", roles: ["PVEVMUser"], users: ["pooler@pve"] },
            { path: "/vms", roles: ["PVEVMAdmin"], users: ["mover@pve"] },
            { path: "/pool/dev", roles: ["PVEPoolAdmin"], users: ["mover@pve"] },
          ],
        },
      },
    });
    for (const poolid of ["prod", "dev"]) await lab.client.request("POST", "/pools", { poolid });
  });
  after(async () => lab.close());

  it("preflight: a pool that does not exist is named with the pools there are", async () => {
    const { plan } = await buildPlan(lab.client, desired(VM("nope")));
    assert.deepEqual(
      plan.preflightErrors.map((p) => [p.kind, p.guest, p.message]),
      [["pool", "pooled", "pool nope does not exist (pools: dev, prod); create it (pveum pool add nope) or fix the spec"]],
    );
  });

  it("preflight: a pool hidden from the user is 'not visible' with the privilege and path, not 'does not exist'", async () => {
    const auditless = clientAs(lab, "auditless@pve", "auditless1");
    try {
      const { plan } = await buildPlan(auditless, desired(VM("prod")));
      const pool = plan.preflightErrors.find((p) => p.kind === "pool")!;
      assert.equal(pool.path, "/pool/prod");
      assert.equal(pool.privilege, "Pool.Audit");
      assert.match(pool.message, /^pool prod is not visible to auditless@pve: it lacks Pool.Audit on \/pool\/prod/);
    } finally {
      await auditless.close();
    }
  });

  it("preflight: creating into a pool needs Pool.Allocate on /pool/<id>", async () => {
    const joiner = clientAs(lab, "joiner@pve", "joiner123");
    try {
      const { plan } = await buildPlan(joiner, desired(VM("prod")));
      assert.deepEqual(
        plan.preflightErrors.filter((p) => p.kind === "permission" && p.path === "/pool/prod").map((p) => p.privilege),
        ["VM.Allocate", "Pool.Allocate or Permissions.Modify"],
      );
    } finally {
      await joiner.close();
    }
  });

  it("creates into a pool, then moves, leaves and joins with one step each; show and import write the pool", async () => {
    await converge(lab, VM("prod"));
    assert.equal(await poolOf(lab, 330), "prod");
    assert.deepEqual((await buildPlan(lab.client, desired(VM("prod")))).plan.guests[0]!.steps, [], "converged");

    const move = await converge(lab, VM("dev"));
    assert.deepEqual(
      move.guests[0]!.steps.map((s) => [s.action, s.summary, s.changes]),
      [["pool", "move from pool prod to pool dev", [{ field: "pool", before: "prod", after: "dev" }]]],
    );
    assert.equal(await poolOf(lab, 330), "dev");
    assert.equal((await showSpecGuests(lab.client, desired(VM()))).vms[0]!.pool, "dev");
    assert.equal((await selectGuests(lab.client, { vmids: [330] })).vms[0]!.pool, "dev");

    assert.deepEqual((await buildPlan(lab.client, desired(VM()))).plan.guests[0]!.steps, [], "no `pool:`: membership not managed");

    const leave = await converge(lab, VM(""));
    assert.deepEqual(
      leave.guests[0]!.steps.map((s) => s.summary),
      ["leave pool dev"],
    );
    assert.equal(await poolOf(lab, 330), undefined);

    const join = await converge(lab, VM("prod"));
    assert.deepEqual(
      join.guests[0]!.steps.map((s) => s.summary),
      ["join pool prod"],
    );
    assert.equal(await poolOf(lab, 330), "prod");
  });

  it("preflight: moving into a pool needs Pool.Allocate there and on the pool it leaves (the user has VM.Allocate on the guest)", async () => {
    const joiner = clientAs(lab, "joiner@pve", "joiner123");
    try {
      const { plan } = await buildPlan(joiner, desired(VM("dev")));
      assert.equal(plan.guests[0]!.steps[0]?.action, "pool");
      const missing = plan.preflightErrors.filter((p) => p.kind === "permission").map((p) => `${p.path} ${p.privilege}`);
      assert.deepEqual(missing.sort(), ["/pool/dev Pool.Allocate", "/pool/prod Pool.Allocate"]);
    } finally {
      await joiner.close();
    }
  });

  it("leaving or moving out of a pool needs Pool.Allocate on the pool left: preflight names it, the simulator refuses it", async () => {
    assert.equal(await poolOf(lab, 330), "prod");
    const mover = clientAs(lab, "mover@pve", "mover1234");
    try {
      for (const [wanted, summary] of [
        ["", "leave pool prod"],
        ["dev", "move from pool prod to pool dev"],
      ] as const) {
        const { plan } = await buildPlan(mover, desired(VM(wanted)));
        assert.deepEqual(
          plan.guests[0]!.steps.map((s) => s.summary),
          [summary],
        );
        const missing = plan.preflightErrors.filter((p) => p.kind === "permission").map((p) => `${p.path} ${p.privilege}`);
        assert.deepEqual(missing, ["/pool/prod Pool.Allocate"], summary);
        assert.match(plan.preflightErrors[0]!.message, /mover@pve lacks Pool\.Allocate on \/pool\/prod/);
      }
      await assert.rejects(
        mover.request("PUT", "/pools", { poolid: "prod", vms: "330", delete: 1 }),
        /Permission check failed \(\/pool\/prod, Pool\.Allocate\)/,
      );
      await assert.rejects(
        mover.request("PUT", "/pools", { poolid: "dev", vms: "330", "allow-move": 1 }),
        /Permission check failed \(\/pool\/prod, Pool\.Allocate\)/,
      );
      assert.equal(await poolOf(lab, 330), "prod");
    } finally {
      await mover.close();
    }
    // `access needs` reads no cluster: it says what the spec cannot; `access check` looks the pool up.
    assert.ok(
      specAccessNeeds(parseSpec(VM(""), "leave.yaml")).notes.some((n) =>
        /pool: "" on pooled: .*Pool\.Allocate on \/pool\/<that pool>/.test(n),
      ),
    );
    for (const wanted of ["", "dev"]) {
      const check = await checkAccess(lab.client, parseSpec(VM(wanted), "leave.yaml"), "mover@pve");
      const left = check.missing.find((m) => m.path === "/pool/prod");
      assert.deepEqual(
        left && [left.privilege, left.operations, left.users],
        ["Pool.Allocate", ["pool"], ["pooled"]],
        JSON.stringify(check.missing),
      );
    }
    // Staying in its pool, or a spec without `pool:`, leaves nothing.
    for (const text of [VM("prod"), VM()]) assert.deepEqual(await leftPoolNeeds(lab.client, desired(text)), []);
  });

  it("the simulator checks as PVE does: a pool update checks each guest, a create into a pool checks the pool", async () => {
    const pooler = clientAs(lab, "pooler@pve", "pooler123");
    try {
      await assert.rejects(
        pooler.request("PUT", "/pools", { poolid: "dev", vms: "330", "allow-move": 1 }),
        /Permission check failed \(\/vms\/330/,
      );
      const { plan } = await buildPlan(pooler, desired(VM("dev")));
      assert.ok(
        plan.preflightErrors.some((p) => p.path === "/vms/330" && p.privilege === "VM.Allocate or Permissions.Modify"),
        JSON.stringify(plan.preflightErrors),
      );
    } finally {
      await pooler.close();
    }
    // Creating into a pool modifies the pool: VM.Allocate alone is not enough (qemu-server's check_perm_modify).
    const joiner = clientAs(lab, "joiner@pve", "joiner123");
    try {
      await assert.rejects(
        joiner.request("POST", "/nodes/pve1/qemu", { vmid: 399, pool: "prod" }),
        /Permission check failed \(\/pool\/prod/,
      );
    } finally {
      await joiner.close();
    }
  });
});
