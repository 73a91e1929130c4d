// The privileges access calls need, as preflight derives them and as the simulator (like PVE)
// enforces them: a caller without Permissions.Modify may grant on a pool it allocates only the
// privileges it holds there itself (API2/ACL.pm); planning needs to see the whole lists.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { clientAs, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const SPEC = (role: string) => `
access:
  acls:
    - { path: /pool/web, role: ${role}, group: web-team }
`;

describe("access privileges: preflight agrees with PVE's subset rule", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({
      config: {
        access: {
          groups: [{ groupid: "web-team", comment: "theirs" }],
          roles: [
            { roleid: "PoolDeleg", privs: ["Pool.Allocate", "Pool.Audit", "VM.Allocate", "VM.Audit"] },
            { roleid: "Narrow", privs: ["VM.Allocate", "VM.Audit"] },
            { roleid: "Wide", privs: ["VM.Allocate", "VM.Config.CPU"] },
          ],
          users: [{ userid: "delegate@pve", password: "delegate123" }],
          acl: [
            { path: "/", roles: ["PVEAuditor"], users: ["delegate@pve"] },
            { path: "/access", roles: ["PVEAuditor"], users: ["delegate@pve"] },
            { path: "/pool/web", roles: ["PoolDeleg"], users: ["delegate@pve"] },
          ],
        },
      },
    });
    await lab.client.request("POST", "/pools", { poolid: "web" });
  });
  after(() => lab.close());

  it("a role within the caller's own privileges on the pool: planned and applied", async () => {
    const delegate = clientAs(lab, "delegate@pve", "delegate123");
    try {
      const planned = await planSpec(delegate, parseSpec(SPEC("Narrow"), "access.yaml"));
      assert.deepEqual(planned.plan.preflightErrors, []);
      const report = await applyPlan(delegate, planned, fastApply);
      assert.ok(report.ok, JSON.stringify(report));
    } finally {
      await delegate.close();
    }
  });

  it("a role with a privilege the caller lacks there: preflight names it, and PVE refuses the call the same way", async () => {
    const delegate = clientAs(lab, "delegate@pve", "delegate123");
    try {
      const { plan } = await planSpec(delegate, parseSpec(SPEC("Wide"), "access.yaml"));
      const missing = plan.preflightErrors.filter((p) => p.kind === "permission").map((p) => `${p.path} ${p.privilege}`);
      assert.deepEqual(missing, ["/pool/web VM.Config.CPU"]);
      await assert.rejects(
        delegate.request("PUT", "/access/acl", { path: "/pool/web", roles: "Wide", groups: "web-team" }),
        /Cannot add role 'Wide'/,
      );
    } finally {
      await delegate.close();
    }
  });

  it("a caller that cannot see the whole ACL is told so before it plans from half of it", async () => {
    const blind = clientAs(lab, "delegate@pve", "delegate123");
    await lab.client.request("PUT", "/access/acl", { path: "/access", roles: "PVEAuditor", users: "delegate@pve", delete: 1 });
    await lab.client.request("PUT", "/access/acl", { path: "/", roles: "PVEAuditor", users: "delegate@pve", delete: 1 });
    try {
      const { plan } = await planSpec(blind, parseSpec(SPEC("Narrow"), "access.yaml"));
      const missing = plan.preflightErrors.filter((p) => p.kind === "permission").map((p) => `${p.path} ${p.privilege}`);
      assert.ok(missing.includes("/access Sys.Audit"), missing.join(", "));
    } finally {
      await blind.close();
    }
  });
});
