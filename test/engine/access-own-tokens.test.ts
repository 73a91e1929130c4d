// API tokens are PVE's `or` of `userid-param self` and `userid-group User.Modify`: a user
// logged in as itself manages its own tokens with no privilege at all, while another user —
// and a token of that same user, whose id is not the user's — needs User.Modify on
// /access/groups. Preflight derives exactly that, and the simulator agrees call by call.
import assert from "node:assert/strict";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient, PveError } from "../../src/api/index.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { planHasErrors } from "../../src/plan/types.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { clientAs, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const tokens = (dir: string, user: string, name: string) => `
access:
  tokens:
    - user: ${user}
      name: ${name}
      secretFile: ${dir}/${name}.token
`;

async function refusedStatus(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return undefined;
  } catch (err) {
    if (err instanceof PveError) return err.status;
    throw err;
  }
}

describe("API tokens of one's own user", () => {
  let lab: Lab;
  let dir: string;
  let deploy: PveClient;
  let deployToken: PveClient;
  before(async () => {
    lab = await startLab();
    dir = await mkdtemp(join(tmpdir(), "pvectl-own-tokens-"));
    for (const userid of ["deploy@pve", "other@pve"])
      await lab.client.request("POST", "/access/users", { userid, password: "long-enough-1" });
    // Not privilege-separated: the token holds exactly what its user holds, which is nothing.
    const made = (await lab.client.request("POST", "/access/users/deploy@pve/token/admin", { privsep: 0 })) as { value: string };
    deploy = clientAs(lab, "deploy@pve", "long-enough-1");
    const url = new URL(lab.sim.url);
    deployToken = new PveClient({
      host: url.hostname,
      port: Number(url.port),
      protocol: "http",
      tokenId: "deploy@pve!admin",
      tokenSecret: made.value,
    });
  });
  after(async () => {
    await deploy.close();
    await deployToken.close();
    await lab.close();
  });

  const plan = (client: PveClient, yaml: string) => planSpec(client, parseSpec(yaml, join(dir, "access.yaml")), {});
  const problems = (p: Awaited<ReturnType<typeof plan>>) =>
    p.plan.preflightErrors.map((e) => `${e.path ?? ""} ${e.privilege ?? ""} ${e.message}`);

  it("a user without any privilege creates its own token: preflight passes and the simulator accepts it", async () => {
    const p = await plan(deploy, tokens(dir, "deploy@pve", "ci"));
    assert.equal(planHasErrors(p.plan), false, JSON.stringify(problems(p)));
    const result = await applyPlan(deploy, p, fastApply);
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.match(await readFile(join(dir, "ci.token"), "utf8"), /\S/);
    const listed = (await lab.client.request("GET", "/access/users/deploy@pve/token")) as Array<{ tokenid: string }>;
    assert.ok(listed.some((t) => t.tokenid === "ci"));
  });

  it("a token for another user needs User.Modify on /access/groups: preflight names it, the simulator refuses the call", async () => {
    const p = await plan(deploy, tokens(dir, "other@pve", "ci"));
    assert.equal(planHasErrors(p.plan), true);
    assert.ok(
      p.plan.preflightErrors.some((e) => e.path === "/access/groups" && e.privilege === "User.Modify"),
      JSON.stringify(problems(p)),
    );
    assert.equal(await refusedStatus(deploy.request("POST", "/access/users/other@pve/token/direct", {})), 403);
  });

  it("a token of the same user is not that user: it needs User.Modify too, on both sides", async () => {
    const p = await plan(deployToken, tokens(dir, "deploy@pve", "ci2"));
    assert.ok(
      p.plan.preflightErrors.some((e) => e.path === "/access/groups" && e.privilege === "User.Modify"),
      JSON.stringify(problems(p)),
    );
    assert.equal(await refusedStatus(deployToken.request("POST", "/access/users/deploy@pve/token/direct", {})), 403);
  });

  it("User.Modify on a group of the token's user is enough (userid-group); on another group it is not", async () => {
    await lab.client.request("POST", "/access/groups", { groupid: "web-team" });
    await lab.client.request("POST", "/access/groups", { groupid: "db-team" });
    await lab.client.request("POST", "/access/users", { userid: "web1@pve", groups: "web-team" });
    await lab.client.request("POST", "/access/users", { userid: "db1@pve", groups: "db-team" });
    await lab.client.request("POST", "/access/users", { userid: "lead@pve", password: "long-enough-1" });
    await lab.client.request("PUT", "/access/acl", { path: "/access/groups/web-team", roles: "PVEUserAdmin", users: "lead@pve" });
    // Reading every user's tokens (planning) needs Sys.Audit there; it does not let anyone make tokens.
    await lab.client.request("PUT", "/access/acl", { path: "/access/groups", roles: "PVEAuditor", users: "lead@pve", propagate: 0 });
    // A spec's token list manages every token pvectl made: the earlier ones are not this test's.
    await lab.client.request("DELETE", "/access/users/deploy@pve/token/ci");
    const lead = clientAs(lab, "lead@pve", "long-enough-1");
    try {
      const ok = await plan(lead, tokens(dir, "web1@pve", "web"));
      assert.equal(planHasErrors(ok.plan), false, JSON.stringify(problems(ok)));
      assert.equal((await applyPlan(lead, ok, fastApply)).ok, true);
      const refused = await plan(lead, tokens(dir, "db1@pve", "db"));
      assert.ok(
        refused.plan.preflightErrors.some(
          (e) =>
            e.path === "/access/groups" && e.privilege === "User.Modify" && /or User\.Modify on \/access\/groups\/db-team/.test(e.message),
        ),
        JSON.stringify(problems(refused)),
      );
      assert.equal(await refusedStatus(lead.request("POST", "/access/users/db1@pve/token/direct", {})), 403);
    } finally {
      await lead.close();
      await lab.client.request("DELETE", "/access/users/web1@pve/token/web");
    }
  });

  it("granted User.Modify on /access/groups, the token passes preflight and creates it", async () => {
    await lab.client.request("PUT", "/access/acl", { path: "/access/groups", roles: "PVEUserAdmin", users: "deploy@pve" });
    const p = await plan(deployToken, tokens(dir, "deploy@pve", "ci3"));
    assert.equal(planHasErrors(p.plan), false, JSON.stringify(problems(p)));
    const result = await applyPlan(deployToken, p, fastApply);
    assert.equal(result.ok, true, JSON.stringify(result));
  });
});
