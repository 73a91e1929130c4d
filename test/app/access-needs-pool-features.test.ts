// "A pool per team" over the guest features the spec language has: a template with a cloud-init
// drive, a full clone of it with its own cloud-init, a container, then a change that moves a
// disk to another storage and changes cloud-init, then destroy. The token is made as an
// operator would (`pvectl access needs --format spec` of the changed spec, a superset of the first's
// needs, applied by root); every plan and apply runs as that token alone, and nothing is refused.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { PveClient } from "../../src/api/index.js";
import { checkAccess } from "../../src/app/access.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planDestroy } from "../../src/app/destroy.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { parseSpec, type SpecDocument } from "../../src/sources/spec/index.js";
import { fastApply } from "../engine/helpers.js";
import { grantByPvectl, startTlsLab, type TlsLab } from "./access-by-pvectl.js";

const TEAM = (app: { disk: string; ip: string; memory: string }) => `vms:
  - vmid: 9001
    name: web-tpl
    node: pve1
    pool: web
    template: true
    memory: 1G
    disks:
      scsi0: { storage: local-lvm, size: 4G }
    nics:
      net0: { bridge: vmbr0 }
    cloudInit: { storage: local-lvm, user: debian }
  - vmid: 511
    name: web-app
    node: pve1
    pool: web
    clone: { from: web-tpl, full: true }
    cores: 2
    memory: ${app.memory}
    disks:
      scsi0: { storage: ${app.disk}, size: 8G }
    nics:
      net0: { bridge: vmbr0 }
    cloudInit:
      storage: local-lvm
      user: debian
      ipconfig:
        ipconfig0: { ip: ${app.ip}, gw: 10.0.10.1 }
containers:
  - vmid: 512
    hostname: web-cache
    node: pve1
    pool: web
    memory: ${app.memory}
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"
    rootfs: { storage: local-lvm, size: 4G }
    nics:
      net0: { bridge: vmbr0, ip: dhcp }
`;
const FIRST = TEAM({ disk: "local-lvm", ip: "10.0.10.31/24", memory: "1G" });
const CHANGED = TEAM({ disk: "shared", ip: "10.0.10.32/24", memory: "2G" });
const TOKEN = "web@pve!ci";

describe("a pool per team, every guest feature, run by the generated token alone", () => {
  let lab: TlsLab;
  let token: PveClient;
  const files: string[] = [];

  before(async () => {
    lab = await startTlsLab();
    await lab.client.request("POST", "/pools", { poolid: "web" });
    for (const [name, text] of [["team.yaml", FIRST], ["team-changed.yaml", CHANGED]] as const) {
      files.push(join(lab.dir, name));
      writeFileSync(files.at(-1)!, text);
    }
    // The changed version uses every storage the first does, and the one its disk moves to.
    ({ token } = await grantByPvectl(lab, [files[1]!], TOKEN, "WebDeploy"));
  });
  after(async () => {
    await token.close();
    await lab.close();
  });

  /** Plans and applies `spec` as the token: no preflight problem, no failed guest (but `waiting`). */
  async function run(spec: SpecDocument, what: string, waiting: string[] = []): Promise<void> {
    const planned = await planSpec(token, spec);
    assert.deepEqual(planned.plan.preflightErrors, [], what);
    const report = await applyPlan(token, planned, { ...fastApply, allowRestart: true, allowDataLoss: true });
    assert.deepEqual(report.guests.filter((g) => g.result === "failed" && !waiting.includes(g.key)).map((g) => [g.key, g.error]), [], what);
  }

  it("access check finds nothing missing for either version", async () => {
    for (const text of [FIRST, CHANGED]) assert.deepEqual((await checkAccess(lab.client, parseSpec(text, "team.yaml"), TOKEN)).missing, []);
  });

  it("creates (the clone waits a run for its template), changes with a disk move, converges, destroys", async () => {
    const first = parseSpec(FIRST, "team.yaml");
    await run(first, "create", ["web-app"]);
    await run(first, "clone");
    const changed = parseSpec(CHANGED, "team-changed.yaml");
    await run(changed, "change");
    const again = await planSpec(token, changed);
    assert.deepEqual(again.plan.guests.flatMap((g) => [...g.steps.map((s) => `${g.key}: ${s.summary}`), ...g.errors]), []);
    for (let pass = 1; pass <= 2; pass++) {
      const destroy = await planDestroy(token, changed);
      assert.deepEqual(destroy.plan.preflightErrors, []);
      await applyPlan(token, destroy, { ...fastApply, allowDataLoss: true, allowRestart: true });
    }
    const left = (await planSpec(lab.client, changed)).plan.guests.filter((g) => g.exists);
    assert.deepEqual(left.map((g) => g.key), []);
  });
});
