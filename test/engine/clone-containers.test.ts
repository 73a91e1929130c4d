import { plannedParams, plannedPath } from "../../src/plan/resolve-call.js";
// `clone:` on a container: pve-container's clone (`vzclone`, `hostname`), then the follow-ups
// that converge the copy (cores, memory, rootfs grown, NIC, power) in the same apply; a rerun
// plans nothing; a full clone of a running container is refused in preflight.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan } from "../../src/engine/plan.js";
import type { DesiredGuest } from "../../src/resources/index.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { desiredCtFromSpec } from "../../src/resources/lxc/spec-desired.js";
import { PveClient } from "../../src/api/index.js";
import { fastApply, type Lab, startLab } from "../support/engine-lab.js";

function cts(yaml: string): DesiredGuest[] {
  return parseSpec(yaml, "test.yaml").containers.map(desiredCtFromSpec);
}

const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

const CT = `containers:
  - hostname: ct-a
    node: pve1
    power: running
    clone: { from: ct-tpl }
    cores: 2
    memory: 1G
    rootfs: { storage: local-lvm, size: 4G }
    nics:
      net0: { bridge: vmbr1, ip: dhcp }
`;

describe("clone: a container cloned and converged in one plan", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
    const base = { ostemplate: TEMPLATE, rootfs: "local-lvm:2", net0: "name=eth0,bridge=vmbr0,ip=dhcp", unprivileged: 1 };
    await lab.client.request("POST", "/nodes/pve1/lxc", { vmid: 8000, hostname: "ct-tpl", tags: "pvectl", ...base });
    await lab.client.request("POST", "/nodes/pve1/lxc/8000/template", {});
    await lab.client.request("POST", "/nodes/pve1/lxc", { vmid: 8100, hostname: "ct-live", tags: "pvectl", start: 1, ...base });
  });
  after(async () => lab.close());

  it("plans vzclone with the hostname, then the follow-ups on {vmid}; apply converges; a rerun is empty", async () => {
    const { plan } = await buildPlan(lab.client, cts(CT));
    assert.deepEqual(plan.preflightErrors, []);
    const guest = plan.guests[0]!;
    assert.deepEqual(guest.errors, []);
    assert.equal(guest.steps[0]!.action, "clone");
    assert.equal(plannedPath(guest.steps[0]!.calls[0]!), "/nodes/pve1/lxc/8000/clone");
    assert.deepEqual(plannedParams(guest.steps[0]!.calls[0]!), { hostname: "ct-a", full: 0 });
    assert.equal(guest.steps.at(-1)!.action, "start");
    for (const step of guest.steps.slice(1)) for (const call of step.calls) assert.match(plannedPath(call), /\/lxc\/\{vmid\}\//);

    const report = await applyPlan(lab.client, plan, fastApply);
    assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
    const vmid = report.guests[0]!.vmid!;
    const config = (await lab.client.request("GET", `/nodes/pve1/lxc/${vmid}/config`)) as Record<string, string | number>;
    assert.equal(config.hostname, "ct-a");
    assert.equal(config.cores, 2);
    assert.match(String(config.rootfs), /size=4G/);
    assert.match(String(config.net0), /bridge=vmbr1/);
    assert.deepEqual((await buildPlan(lab.client, cts(CT))).plan.guests[0]!.steps, []);
  });

  it("preflight: a full clone of a running container is refused, with the fix", async () => {
    const spec = `containers:\n  - hostname: ct-b\n    node: pve1\n    clone: { from: ct-live }\n`;
    const { plan } = await buildPlan(lab.client, cts(spec));
    assert.deepEqual(
      plan.preflightErrors.map((p) => [p.kind, p.guest]),
      [["clone", "ct-b"]],
    );
    assert.match(plan.preflightErrors[0]!.message, /cannot make a full clone of a running container \(guest 8100 on pve1\): stop it first/);
  });

  it("spec: a clone with ostemplate or a root password is refused where it is written", () => {
    assert.throws(
      () =>
        parseSpec(
          `containers:\n  - hostname: ct-c\n    node: pve1\n    clone: { from: ct-tpl }\n    ostemplate: "${TEMPLATE}"\n`,
          "ct.yaml",
        ),
      /ct\.yaml:5:5: containers\[0\]\.ostemplate: ostemplate is used only to create a container from a template; a clone keeps its source's/,
    );
  });

  it("a container clone whose answer was dropped is read back: one copy, reported", async () => {
    const url = new URL(lab.sim.url);
    const impatient = new PveClient({
      host: url.hostname,
      port: Number(url.port),
      protocol: "http",
      user: "root@pam",
      password: lab.sim.rootPassword,
      timeoutMs: 250,
    });
    try {
      const spec = `containers:\n  - hostname: ct-lost\n    node: pve1\n    clone: { from: 8000 }\n    cores: 3\n`;
      const { plan } = await buildPlan(lab.client, cts(spec));
      lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/lxc/8000/clone$", dropResponse: true, times: 1 });
      const report = await applyPlan(impatient, plan, fastApply);
      assert.equal(report.ok, true, report.guests[0]!.error);
      const guests = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number; name?: string }>;
      assert.deepEqual(
        guests.filter((g) => g.name === "ct-lost").map((g) => g.vmid),
        [report.guests[0]!.vmid],
      );
      assert.deepEqual((await buildPlan(lab.client, cts(spec))).plan.guests[0]!.steps, []);
    } finally {
      await impatient.close();
    }
  });
});
