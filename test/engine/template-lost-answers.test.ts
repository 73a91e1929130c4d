// A conversion whose answer is lost is resolved by reading back, never by a second send (PVE
// would refuse it: "you can't convert a template to a template"): the runner finds the
// qmtemplate / vztemplate task of the first request, and the apply reports success.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan } from "../../src/engine/plan.js";
import type { DesiredGuest } from "../../src/resources/index.js";
import type { RequestFaultSpec } from "../../src/sim/index.js";
import { fastApply, type Lab, startLab } from "../support/engine-lab.js";

const GIB = 1024 ** 3;
const TIMEOUT_MS = 250;
const SLOW_MS = 1500;

const LOSSES: Array<[string, Omit<RequestFaultSpec, "method" | "path">]> = [
  ["an answer dropped after the request was handled", { dropResponse: true }],
  ["an answer held back past the client's timeout", { responseDelayMs: SLOW_MS }],
];

const vm = (vmid: number): DesiredGuest => ({
  kind: "qemu",
  key: `tpl${vmid}`,
  name: `tpl${vmid}`,
  vmid,
  node: "pve1",
  template: true,
  options: { memory: "512" },
  disks: [{ slot: "scsi0", kind: "disk", storage: "local-lvm", sizeBytes: GIB, options: {} }],
  nics: [],
  special: {},
});

const ct = (vmid: number): DesiredGuest => ({
  kind: "lxc",
  key: `ct${vmid}`,
  name: `ct${vmid}`,
  vmid,
  node: "pve1",
  template: true,
  ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
  options: {},
  mounts: [{ slot: "rootfs", storage: "local-lvm", sizeBytes: GIB, options: {} }],
  nics: [],
});

describe("lost answers of a template conversion", () => {
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

  let vmid = 700;
  for (const [type, guest] of [
    ["qemu", vm],
    ["lxc", ct],
  ] as const) {
    for (const [what, fault] of LOSSES) {
      it(`converts a ${type} guest once after ${what}`, async () => {
        vmid += 1;
        const desired = guest(vmid);
        const { plan } = await buildPlan(lab.client, [desired]);
        assert.deepEqual(
          plan.guests[0]!.steps.map((s) => s.action),
          ["create", "template"],
        );
        lab.sim.admin.injectFault({ method: "POST", path: `^/nodes/pve1/${type}/${vmid}/template$`, ...fault, times: 1 });
        const report = await applyPlan(impatient, plan, fastApply);
        await new Promise((resolve) => setTimeout(resolve, SLOW_MS + 200));
        assert.equal(report.ok, true, report.guests[0]!.error);
        const config = (await lab.client.request("GET", `/nodes/pve1/${type}/${vmid}/config`)) as Record<string, unknown>;
        assert.equal(config.template, 1);
        const again = await buildPlan(lab.client, [desired]);
        assert.deepEqual([again.plan.guests[0]!.steps, again.plan.guests[0]!.errors], [[], []]);
      });
    }
  }
});
