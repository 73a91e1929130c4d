// The proof: `pvectl access needs --format spec` of the demo's example specs, with the
// token and its user added, applied by `pvectl apply` as root; the token (its secret read from
// the file pvectl wrote) runs them (plan, apply, destroy), and when any one privilege of a role
// is taken away (pvectl re-applying the role narrowed), preflight refuses naming it on a path of
// that role.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { PveClient } from "../../src/api/index.js";
import { type AccessSpec, checkAccess } from "../../src/app/access.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planDestroy } from "../../src/app/destroy.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { loadSpecFiles, type SpecDocument } from "../../src/sources/spec/index.js";
import { fastApply } from "../support/engine-lab.js";
import { grantByPvectl, setRolePrivileges, startTlsLab, type TlsLab } from "./access-by-pvectl.js";

const EXAMPLES = ["examples/clones.yaml", "examples/web.yaml", "examples/containers.yaml"];
const TOKEN = "deploy@pve!ci";
/**
 * Privileges `access needs` grants for a later change that this plan (creates and a clone) has
 * no step for: adding or removing a cloud-init drive on an existing VM needs VM.Config.Cloudinit
 * and VM.Config.CDROM (qemu-server), while a create needs neither and cloud-init keys take
 * Cloudinit or Network; a change of a guest's node migrates it, which needs VM.Migrate. Preflight
 * of this plan cannot refuse them; access check still names them.
 */
const CHANGE_ONLY = new Set(["VM.Config.Cloudinit", "VM.Config.CDROM", "VM.Migrate"]);

describe("a token made from access needs runs the example specs", () => {
  let lab: TlsLab;
  let spec: SpecDocument;
  let granted: AccessSpec;
  let token: PveClient;

  before(async () => {
    lab = await startTlsLab();
    spec = await loadSpecFiles(EXAMPLES);
    ({ access: granted, token } = await grantByPvectl(lab, EXAMPLES, TOKEN));
  });
  after(async () => {
    await token.close();
    await lab.close();
  });

  it("plan, apply (once: the clone waits for its template inside the run), an empty plan, then one destroy", async () => {
    const planned = await planSpec(token, spec);
    assert.deepEqual(planned.plan.preflightErrors, []);
    const made = await applyPlan(token, planned, { ...fastApply, allowRestart: true });
    const failed = made.guests.filter((g) => g.result === "failed");
    assert.deepEqual(
      failed.map((g) => [g.key, g.error]),
      [],
    );
    const again = await planSpec(token, spec);
    assert.deepEqual(
      again.plan.guests.flatMap((g) => [...g.steps.map((s) => `${g.key}: ${s.summary}`), ...g.errors]),
      [],
    );
    // One destroy: the template goes after its linked clone, in the same run.
    const destroy = await planDestroy(token, spec);
    assert.deepEqual(destroy.plan.preflightErrors, []);
    const report = await applyPlan(token, destroy, { ...fastApply, allowDataLoss: true, allowRestart: true });
    assert.deepEqual(
      report.guests.filter((g) => g.result === "failed").map((g) => [g.key, g.error]),
      [],
    );
    const left = (await planSpec(lab.client, spec)).plan.guests.filter((g) => g.exists);
    assert.deepEqual(
      left.map((g) => g.key),
      [],
      JSON.stringify(report.guests.map((g) => [g.key, g.result, g.error])),
    );
  });

  it("access check finds nothing missing for the token", async () => {
    assert.deepEqual((await checkAccess(lab.client, spec, TOKEN)).missing, []);
  });

  it("without any one privilege of a role, preflight refuses and names it on a path of that role", async () => {
    // The template exists (made by root), so the token's plan creates every guest and clones app1.
    const clones = await loadSpecFiles(["examples/clones.yaml"]);
    await applyPlan(lab.client, await planSpec(lab.client, { vms: clones.vms.filter((v) => v.name === "debian-13-tpl") }), fastApply);
    const uncaught: string[] = [];
    for (const role of granted.roles) {
      const paths = new Set(granted.acls.filter((a) => a.role === role.id).map((a) => a.path));
      for (const privilege of role.privileges) {
        await setRolePrivileges(
          lab,
          role.id,
          role.privileges.filter((p) => p !== privilege),
        );
        try {
          const { plan } = await planSpec(token, spec);
          const named = plan.preflightErrors.filter(
            (p) =>
              p.privilege?.split(" or ").includes(privilege) &&
              p.path !== undefined &&
              (paths.has(p.path) || [...paths].some((q) => p.path!.startsWith(`${q}/`))),
          );
          if (named.length === 0 && !CHANGE_ONLY.has(privilege))
            uncaught.push(
              `${role.id} without ${privilege}: ${plan.preflightErrors.map((p) => p.message).join("; ") || "no preflight problem"}`,
            );
          const check = await checkAccess(lab.client, spec, TOKEN);
          assert.ok(
            check.missing.some((m) => m.privilege === privilege && paths.has(m.path)),
            `access check names ${privilege} (${role.id})`,
          );
        } finally {
          await setRolePrivileges(lab, role.id, role.privileges);
        }
      }
    }
    assert.deepEqual(uncaught, []);
  });
});
