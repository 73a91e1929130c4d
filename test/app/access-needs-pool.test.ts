// The recommended shape: a team's guests in one pool, and one ACL on /pool/<pool> (besides the
// storages and bridges they use). A token made from `access needs` of such a spec creates,
// changes and destroys the team's guests, and cannot even see a guest outside the pool. The token
// is made as an operator would: `pvectl access needs --format spec`, user and token added,
// `pvectl apply` as root.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { PveClient } from "../../src/api/index.js";
import type { AccessSpec } from "../../src/app/access.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planDestroy } from "../../src/app/destroy.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { fastApply } from "../support/engine-lab.js";
import { grantByPvectl, startTlsLab, type TlsLab } from "./access-by-pvectl.js";

const TEAM = `vms:
  - vmid: 501
    name: team-web
    node: pve1
    pool: web
    power: running
    cores: 2
    memory: 1G
    disks:
      scsi0: { storage: local-lvm, size: 4G }
    nics:
      net0: { bridge: vmbr0 }
containers:
  - vmid: 502
    hostname: team-cache
    node: pve2
    pool: web
    power: running
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"
    rootfs: { storage: local-lvm, size: 4G }
    nics:
      net0: { bridge: vmbr0, ip: dhcp }
`;
const OTHER = `vms:
  - vmid: 601
    name: other-team
    node: pve1
    memory: 512
`;
const TOKEN = "web@pve!ci";

describe("a pool per team", () => {
  let lab: TlsLab;
  let granted: AccessSpec;
  let token: PveClient;

  before(async () => {
    lab = await startTlsLab();
    await lab.client.request("POST", "/pools", { poolid: "web" });
    await applyPlan(lab.client, await planSpec(lab.client, parseSpec(OTHER, "other.yaml")), fastApply);
    const team = join(lab.dir, "team.yaml");
    writeFileSync(team, TEAM);
    ({ access: granted, token } = await grantByPvectl(lab, [team], TOKEN, "WebDeploy"));
  });
  after(async () => {
    await token.close();
    await lab.close();
  });

  it("grants the guests on /pool/web, never on /vms or a guest's own path", () => {
    const paths = granted.acls.map((a) => a.path);
    assert.ok(paths.includes("/pool/web"));
    assert.deepEqual(
      paths.filter((p) => p.startsWith("/vms")),
      [],
    );
  });

  it("the token creates, converges and destroys the team's guests", async () => {
    const spec = parseSpec(TEAM, "team.yaml");
    const planned = await planSpec(token, spec);
    assert.deepEqual(planned.plan.preflightErrors, []);
    const report = await applyPlan(token, planned, fastApply);
    assert.deepEqual(
      report.guests.filter((g) => g.result !== "created").map((g) => [g.key, g.error]),
      [],
    );
    const again = await planSpec(token, spec);
    assert.deepEqual(
      again.plan.guests.flatMap((g) => g.steps.map((s) => s.summary)),
      [],
    );
    const destroy = await planDestroy(token, spec);
    assert.deepEqual(destroy.plan.preflightErrors, []);
    const gone = await applyPlan(token, destroy, { ...fastApply, allowDataLoss: true, allowRestart: true });
    assert.deepEqual(
      gone.guests.map((g) => g.result),
      ["destroyed", "destroyed"],
    );
  });

  it("a guest outside the pool is out of the token's reach: destroy refuses in preflight", async () => {
    const destroy = await planDestroy(token, parseSpec(OTHER, "other.yaml"));
    // The token does not see vmid 601 at all (no VM.Audit): nothing to destroy, nothing sent.
    assert.deepEqual(
      destroy.plan.guests.flatMap((g) => g.steps),
      [],
    );
    const still = await planSpec(lab.client, parseSpec(OTHER, "other.yaml"));
    assert.equal(still.plan.guests[0]?.exists, true);
  });
});
