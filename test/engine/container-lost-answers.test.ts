// Containers' writes whose answer is lost are resolved by reading back, as VMs' are: a mount
// point added once (one volume, no unusedN), a container without a vmid created once.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan } from "../../src/engine/plan.js";
import type { DesiredCt } from "../../src/resources/lxc/model.js";
import type { RequestFaultSpec } from "../../src/sim/index.js";
import { fastApply, type Lab, startLab } from "../support/engine-lab.js";

const GIB = 1024 ** 3;
const TIMEOUT_MS = 250;
const SLOW_MS = 1500;

const LOSSES: Array<[string, Omit<RequestFaultSpec, "method" | "path">]> = [
  ["an answer dropped after the request was handled", { dropResponse: true }],
  ["an answer held back past the client's timeout", { responseDelayMs: SLOW_MS }],
];

function ct(name: string, vmid: number | undefined, extraMount = false): DesiredCt {
  return {
    kind: "lxc",
    key: name,
    name,
    ...(vmid !== undefined ? { vmid } : {}),
    node: "pve1",
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
    options: {},
    mounts: [
      { slot: "rootfs", storage: "local-lvm", sizeBytes: 1 * GIB, options: {} },
      ...(extraMount ? [{ slot: "mp0", storage: "local-lvm", sizeBytes: 1 * GIB, mountpoint: "/data", options: {} }] : []),
    ],
    nics: [],
  };
}

describe("lost answers of container writes", () => {
  let lab: Lab;
  let impatient: PveClient;
  before(async () => {
    lab = await startLab();
    const url = new URL(lab.sim.url);
    impatient = new PveClient({
      host: url.hostname,
      port: Number(url.port),
      protocol: "http",
      user: "root@pam",
      password: lab.sim.rootPassword,
      timeoutMs: TIMEOUT_MS,
    });
  });
  beforeEach(() => lab.sim.admin.reset());
  after(async () => {
    await impatient.close();
    await lab.close();
  });

  async function apply(desired: DesiredCt) {
    const { plan } = await buildPlan(lab.client, [desired]);
    const report = await applyPlan(impatient, plan, fastApply);
    await new Promise((resolve) => setTimeout(resolve, SLOW_MS + 200));
    return report;
  }

  async function volumes(vmid: number): Promise<string[]> {
    const content = (await lab.client.request("GET", "/nodes/pve1/storage/local-lvm/content")) as Array<{ volid: string }>;
    return content
      .map((c) => c.volid)
      .filter((v) => v.includes(`-${vmid}-disk-`))
      .sort();
  }

  let vmid = 340;
  for (const [what, fault] of LOSSES) {
    it(`adds a mount point exactly once after ${what}`, async () => {
      vmid += 1;
      await apply(ct(`lost${vmid}`, vmid));
      lab.sim.admin.injectFault({ method: "PUT", path: `^/nodes/pve1/lxc/${vmid}/config$`, ...fault, times: 1 });
      const report = await apply(ct(`lost${vmid}`, vmid, true));
      assert.equal(report.ok, true, report.guests[0]!.error);
      assert.deepEqual(await volumes(vmid), [`local-lvm:vm-${vmid}-disk-0`, `local-lvm:vm-${vmid}-disk-1`], "one new volume, not two");
      const config = (await lab.client.request("GET", `/nodes/pve1/lxc/${vmid}/config`)) as Record<string, unknown>;
      assert.deepEqual(
        Object.keys(config).filter((k) => k.startsWith("unused")),
        [],
        "no leaked unusedN",
      );
      assert.deepEqual((await buildPlan(lab.client, [ct(`lost${vmid}`, vmid, true)])).plan.guests[0]!.steps, []);
    });

    it(`creates a container without a vmid exactly once after ${what}`, async () => {
      const name = `nov${vmid}`;
      lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/lxc$", ...fault, times: 1 });
      const report = await apply(ct(name, undefined));
      const guest = report.guests[0]!;
      assert.equal(report.ok, true, guest.error);
      assert.equal(guest.result, "created");
      const listed = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number; name?: string }>;
      assert.deepEqual(
        listed.filter((g) => g.name === name).map((g) => g.vmid),
        [guest.vmid],
        "one container, and the report names it",
      );
    });
  }
});
