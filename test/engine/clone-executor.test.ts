// The executor's side of clones: a clone whose answer was lost is resolved by reading back
// (its task on the source's node, the new guest by name), never sent again blindly; clones
// refused because the source is locked (another clone of the same template holds it) wait
// within --lock-wait instead of failing.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan } from "../../src/engine/plan.js";
import type { RequestFaultSpec } from "../../src/sim/index.js";
import { desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const TIMEOUT_MS = 250;
const SLOW_MS = 1500;

const LOSSES: Array<[string, Omit<RequestFaultSpec, "method" | "path">]> = [
  ["a slow request (handled after the client gave up)", { latencyMs: SLOW_MS }],
  ["an answer dropped after the request was handled", { dropResponse: true }],
  ["an answer held back past the client's timeout", { responseDelayMs: SLOW_MS }],
];

const SPEC = `vms:
  - name: copy1
    node: pve1
    cores: 2
    clone: { from: tpl }
`;

type Listed = Array<{ vmid: number; name?: string }>;

describe("clones in the executor", () => {
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
  beforeEach(async () => {
    lab.sim.admin.reset();
    await lab.client.request("POST", "/nodes/pve1/qemu", { vmid: 9000, name: "tpl", memory: 512, scsi0: "local-lvm:1", tags: "pvectl" });
    await lab.client.request("POST", "/nodes/pve1/qemu/9000/template", {});
  });
  after(async () => {
    await impatient.close();
    await lab.close();
  });

  for (const [what, fault] of LOSSES) {
    it(`clones exactly once after ${what}, and converges the copy`, async () => {
      const { plan } = await buildPlan(lab.client, desired(SPEC));
      lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu/9000/clone$", ...fault, times: 1 });
      const report = await applyPlan(impatient, plan, fastApply);
      await new Promise((resolve) => setTimeout(resolve, SLOW_MS + 200));
      const guest = report.guests[0]!;
      assert.equal(report.ok, true, guest.error);
      const guests = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Listed;
      assert.deepEqual(guests.map((g) => g.name).sort(), ["copy1", "tpl"], "one clone");
      assert.equal(guests.find((g) => g.name === "copy1")!.vmid, guest.vmid, "the report names it");
      assert.deepEqual((await buildPlan(lab.client, desired(SPEC))).plan.guests[0]!.steps, []);
    });
  }

  it("a clone refused while the source is locked waits within --lock-wait, then clones", async () => {
    const { plan } = await buildPlan(lab.client, desired(SPEC));
    const locked = "can't lock file '/var/lock/qemu-server/lock-9000.conf' - got timeout";
    lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu/9000/clone$", status: 500, message: locked, times: 4 });
    const waits: string[] = [];
    const report = await applyPlan(lab.client, plan, {
      ...fastApply,
      retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 20 },
      lockWaitMs: 10_000,
      onEvent: (e) => {
        if (e.type === "lock-wait") waits.push(e.step.action);
      },
    });
    assert.equal(report.ok, true, report.guests[0]!.error);
    assert.ok(waits.length >= 1 && waits.every((a) => a === "clone"), "the wait was shown");
  });

  it("without --lock-wait a locked source is retried within the attempts, then the step fails naming the lock", async () => {
    const { plan } = await buildPlan(lab.client, desired(SPEC));
    const locked = "can't lock file '/var/lock/qemu-server/lock-9000.conf' - got timeout";
    lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu/9000/clone$", status: 500, message: locked, times: 4 });
    const report = await applyPlan(lab.client, plan, { ...fastApply, retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 20 } });
    assert.equal(report.ok, false);
    assert.match(report.guests[0]!.error ?? "", /can't lock file/);
    const guests = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Listed;
    assert.deepEqual(
      guests.map((g) => g.name),
      ["tpl"],
      "nothing half-made",
    );
  });
});
