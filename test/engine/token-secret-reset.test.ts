import { plannedParams } from "../../src/plan/resolve-call.js";
// A token whose secret is lost (#29): it exists, its spec entry names a secretFile, and the file
// is missing, empty or cut off. The plan shows a secret-reset step saying why; apply runs it
// only with allowSecretReset (--allow-secret-reset); it makes the token anew with the same
// privsep, expire, comment and ACL entries, the new secret in the file works and the old one
// does not, and the next plan is empty. A token whose file holds a secret, or that has no
// secretFile, is never touched.
import assert from "node:assert/strict";
import { readFile, rm, writeFile } from "node:fs/promises";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import fc from "fast-check";
import { PveClient } from "../../src/api/index.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { type Plan, planHasChanges, planHasErrors } from "../../src/plan/types.js";
import { secretFileHolds } from "../../src/pve/index.js";
import { objectCallNeeds } from "../../src/resources/objects.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { fastApply, type Lab, startLab } from "../support/engine-lab.js";

const spec = (dir: string, acls = true) => `
access:
  users:
    - id: deploy@pve
  tokens:
    - user: deploy@pve
      name: ci
      privsep: true
      expire: 2031-01-01
      comment: GitHub Actions
      secretFile: ${dir}/ci.token
    - user: deploy@pve
      name: printed
${
  acls
    ? `  acls:
    - path: /vms
      role: PVEAuditor
      token: deploy@pve!ci
`
    : ""
}`;

/** What a run killed between the token's create and the write of its file leaves, and two more ways the secret goes missing. */
const LOSSES: Array<[string, string, (file: string, secret: string) => Promise<void>]> = [
  ["is empty", "is empty", (file) => writeFile(file, "")],
  ["is missing", "is missing", (file) => rm(file)],
  [
    "holds a cut-off secret",
    String.raw`holds only the start of a secret \(its write was cut off\)`,
    (file, secret) => writeFile(file, secret.slice(0, 11)),
  ],
];

describe("a token whose secret file holds no secret", () => {
  let lab: Lab;
  let dir: string;
  before(async () => {
    lab = await startLab();
  });
  beforeEach(async () => {
    lab.sim.admin.reset();
    dir = await mkdtemp(join(tmpdir(), "pvectl-reset-"));
  });
  after(() => lab.close());

  const plan = (yaml: string) => planSpec(lab.client, parseSpec(yaml, join(dir, "access.yaml")), { showSecret: true });
  const apply = async (yaml: string, options = {}) => {
    const planned = await plan(yaml);
    return { plan: planned.plan, report: await applyPlan(lab.client, planned, { ...fastApply, printSecret: () => undefined, ...options }) };
  };
  const file = () => join(dir, "ci.token");
  const steps = (p: Plan) => (p.objects ?? []).flatMap((o) => o.steps);
  /** Whether the secret logs in as the token (GET /version as it). */
  const works = async (secret: string) => {
    const url = new URL(lab.sim.url);
    const client = new PveClient({
      host: url.hostname,
      port: Number(url.port),
      protocol: "http",
      tokenId: "deploy@pve!ci",
      tokenSecret: secret,
    });
    try {
      await client.request("GET", "/version");
      return true;
    } catch {
      return false;
    } finally {
      await client.close();
    }
  };
  const tokenInfo = async () => (await lab.client.request("GET", "/access/users/deploy@pve/token/ci")) as Record<string, unknown>;

  for (const [name, why, lose] of LOSSES) {
    it(`whose file ${name}: planned as secret-reset with why, held without the flag, made anew with it; the new secret works, the next plan is empty`, async () => {
      const first = await apply(spec(dir));
      assert.ok(first.report.ok, JSON.stringify(first.report));
      const old = (await readFile(file(), "utf8")).trim();
      const before = await tokenInfo();
      await lose(file(), old);

      const planned = (await plan(spec(dir))).plan;
      assert.equal(planHasErrors(planned), false, JSON.stringify(planned.preflightErrors));
      assert.deepEqual(
        steps(planned).map((s) => [s.severity, s.action]),
        [["secret-reset", "object-update"]],
      );
      const reset = steps(planned)[0]!;
      const needs = reset.calls.flatMap((c) => (c.intent.kind === "object" ? objectCallNeeds(c.intent, plannedParams(c)) : []));
      assert.ok(
        needs.some((n) => n.path === "/access" && n.privilege === "Sys.Audit"),
        "every ACL entry of the token must be seen to be granted again",
      );
      assert.match(
        reset.summary,
        new RegExp(`API token deploy@pve!ci: the token exists but its secretFile .*ci\\.token ${why}, so its secret is lost`),
      );
      assert.match(reset.summary, /The old secret stops working: every consumer must be given the new one/);

      const held = await apply(spec(dir));
      assert.match(
        held.report.objects?.find((o) => o.kind === "access-token" && o.key === "deploy@pve!ci")?.pending.join() ?? "",
        /needs --allow-secret-reset/,
      );
      assert.ok(await works(old), "held: the old secret still works");

      const run = await apply(spec(dir), { allowSecretReset: true });
      assert.ok(run.report.ok, JSON.stringify(run.report));
      assert.equal(run.report.objects?.find((o) => o.key === "deploy@pve!ci")?.result, "changed");
      const fresh = (await readFile(file(), "utf8")).trim();
      assert.equal(secretFileHolds(fresh), "secret");
      assert.notEqual(fresh, old);
      assert.ok(await works(fresh), "the new secret logs in");
      assert.equal(await works(old), false, "the old secret no longer does");
      assert.deepEqual(await tokenInfo(), before, "privsep, expire and comment kept");
      assert.deepEqual((await lab.client.request("GET", "/access/acl")) as unknown[], [
        { path: "/vms", type: "token", ugid: "deploy@pve!ci", roleid: "PVEAuditor", propagate: 1 },
      ]);
      assert.ok(!JSON.stringify(run).includes(fresh), "the secret is in no plan or report");
      const next = (await plan(spec(dir))).plan;
      assert.equal(planHasChanges(next), false, JSON.stringify(steps(next)));
    });
  }

  it("grants the token's ACL entries again when the spec does not list ACL entries (they are not the spec's to drop)", async () => {
    await apply(spec(dir));
    await lab.client.request("PUT", "/access/acl", {
      path: "/storage/local",
      roles: "PVEDatastoreUser",
      tokens: "deploy@pve!ci",
      propagate: 0,
    });
    await writeFile(file(), "");
    const run = await apply(spec(dir, false), { allowSecretReset: true });
    assert.ok(run.report.ok, JSON.stringify(run.report));
    assert.ok(await works((await readFile(file(), "utf8")).trim()), "made anew, its new secret in the file");
    const acl = (await lab.client.request("GET", "/access/acl")) as Array<Record<string, unknown>>;
    assert.deepEqual(acl.map((a) => `${a.path} ${a.roleid} ${a.propagate}`).sort(), [
      "/storage/local PVEDatastoreUser 0",
      "/vms PVEAuditor 1",
    ]);
  });

  it("a re-create whose answer is lost: the secretless token is removed, the file left empty, and the next apply creates it", async () => {
    await apply(spec(dir));
    await writeFile(file(), "");
    lab.sim.admin.injectFault({ method: "POST", path: "^/access/users/[^/]+/token/ci$", dropResponse: true, times: 1 });
    const run = await apply(spec(dir), { allowSecretReset: true });
    assert.match(run.report.objects?.find((o) => o.key === "deploy@pve!ci")?.error ?? "", /answer .*was lost; the token was removed again/);
    assert.equal(await readFile(file(), "utf8"), "");
    const again = await apply(spec(dir));
    assert.ok(again.report.ok, JSON.stringify(again.report));
    const secret = (await readFile(file(), "utf8")).trim();
    assert.ok(await works(secret));
  });

  it("a new token's secret goes to an empty file left by a run killed before the create (a file holding something is still refused)", async () => {
    await writeFile(file(), "");
    const run = await apply(spec(dir));
    assert.ok(run.report.ok, JSON.stringify(run.report));
    assert.equal(run.report.objects?.find((o) => o.key === "deploy@pve!ci")?.result, "created");
    assert.ok(await works((await readFile(file(), "utf8")).trim()));
  });

  it("never touches a token whose file holds a secret (whatever the whitespace) or that has no secretFile; a file it cannot judge is a warning", async () => {
    await apply(spec(dir));
    const secret = (await readFile(file(), "utf8")).trim();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("", " ", "\n", "\r\n", "\t"), fc.constantFrom("", "\n", "\n\n", "  "), async (lead, trail) => {
        await writeFile(file(), `${lead}${secret}${trail}`);
        const p = (await plan(spec(dir))).plan;
        assert.deepEqual(steps(p), []);
      }),
      { numRuns: 8 },
    );
    await writeFile(file(), "not a secret\n");
    const foreign = (await plan(spec(dir))).plan;
    assert.deepEqual(steps(foreign), []);
    assert.match(
      foreign.objects?.find((o) => o.key === "deploy@pve!ci")?.warnings.join() ?? "",
      /not a PVE token secret.*leaves the token alone/,
    );
    assert.ok(await works(secret));
  });
});
