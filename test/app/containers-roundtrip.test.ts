// A `containers:` spec end to end against the simulator: plan and apply create the container,
// a second plan is empty, `import` writes it back as a `containers:` entry whose plan is empty
// too, and `show` puts it under `containers:`.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { stringify } from "yaml";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { importGuests, showSpec } from "../../src/app/show.js";
import { planHasChanges } from "../../src/plan/types.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { fastApply, type Lab, startLab } from "../support/engine-lab.js";

const SPEC = `
containers:
  - vmid: 250
    hostname: cache1
    node: pve1
    power: running
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"
    features: { nesting: true }
    cores: 2
    memory: 1G
    swap: 256
    nameserver: [10.0.0.53]
    tags: [cache]
    passwordEnv: PVE_TEST_CT_ROOT
    rootfs: { storage: local-lvm, size: 4G }
    mounts:
      mp0: { storage: local-lvm, size: 2G, mountpoint: /var/cache/app, backup: false }
    nics:
      net0: { bridge: vmbr0, ip: 10.0.0.25/24, gw: 10.0.0.1, tag: 10 }
    extraConfig: { tty: 4 }
`;

describe("a containers: spec against the simulator", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
    process.env.PVE_TEST_CT_ROOT = "root-pass-123";
  });
  after(async () => {
    delete process.env.PVE_TEST_CT_ROOT;
    await lab.close();
  });

  it("creates the container, then plans nothing; import and show write it as a containers: entry that plans nothing", async () => {
    const spec = parseSpec(SPEC, "ct.yaml");
    const planned = await planSpec(lab.client, spec);
    assert.deepEqual(planned.plan.preflightErrors, []);
    assert.deepEqual(
      planned.plan.guests.map((g) => [g.kind, g.vmid, g.exists, g.errors]),
      [["lxc", 250, false, []]],
    );
    const report = await applyPlan(lab.client, planned, fastApply);
    assert.deepEqual(
      report.guests.map((g) => [g.vmid, g.result, g.error]),
      [[250, "created", undefined]],
    );
    assert.equal(planHasChanges((await planSpec(lab.client, spec)).plan), false, "a rerun plans nothing");

    const imported = await importGuests(lab.client, { vmids: [250] });
    assert.deepEqual(imported.leftOut, []);
    assert.equal(imported.spec.vms.length, 0);
    const [entry] = imported.spec.containers ?? [];
    assert.ok(entry);
    assert.equal(entry.hostname, "cache1");
    assert.deepEqual(entry.mounts, { mp0: { storage: "local-lvm", size: "2G", mountpoint: "/var/cache/app", backup: false } });
    assert.equal(entry.passwordEnv, undefined, "no secret (or its reference) is read back");
    const again = parseSpec(stringify(imported.spec), "imported.yaml");
    const replanned = await planSpec(lab.client, again);
    assert.deepEqual(
      replanned.plan.guests.map((g) => [g.vmid, g.errors, g.steps.map((s) => s.summary)]),
      [[250, [], []]],
    );

    const shown = await showSpec(lab.client, spec);
    assert.deepEqual(shown.missing, []);
    assert.deepEqual(
      shown.spec.containers?.map((c) => c.vmid),
      [250],
    );
  });
});
