// `restore ARCHIVE --vmid N`: to a free vmid it makes the guest (configuration); over an
// existing guest it is data-loss-risk naming that guest's disks, runs only with
// --allow-data-loss, and only over a guest pvectl owns (or with --include-foreign); a lost
// answer is resolved by the restore task, never by a second restore.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planBackupRun } from "../../src/app/backup-plan.js";
import { planRestoreArchive } from "../../src/app/restore.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { converge, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const SPEC = `vms:
  - { vmid: 501, name: web, node: pve1, memory: 512, disks: { scsi0: { storage: local-lvm, size: 1G } } }
containers:
  - { vmid: 502, name: cache, node: pve1, ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst", rootfs: { storage: local-lvm, size: 1G } }
`;

async function backUp(lab: Lab, vmid: number): Promise<string> {
  const planned = await planBackupRun(
    lab.client,
    { vmids: [vmid], includeForeign: true },
    { storage: "local", mode: "snapshot", compress: "zstd" },
  );
  const report = await applyPlan(lab.client, planned, fastApply);
  assert.equal(report.ok, true, report.guests[0]!.error);
  return report.guests[0]!.steps[0]!.result!.replace(/^archive /, "");
}

async function config(lab: Lab, type: string, vmid: number): Promise<Record<string, unknown>> {
  return (await lab.client.request("GET", `/nodes/pve1/${type}/${vmid}/config`)) as Record<string, unknown>;
}

describe("restore", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  beforeEach(async () => {
    lab.sim.admin.reset();
    assert.equal((await converge(lab, SPEC)).report.ok, true);
  });
  after(() => lab.close());

  for (const [type, vmid] of [
    ["qemu", 501],
    ["lxc", 502],
  ] as const) {
    it(`restores a ${type} archive to a free vmid as a renamed copy, so the spec still finds its one guest by name`, async () => {
      const archive = await backUp(lab, vmid);
      const planned = await planRestoreArchive(lab.client, { archive, vmid: vmid + 50 });
      assert.deepEqual(planned.plan.preflightErrors, []);
      const [step] = planned.plan.guests[0]!.steps;
      assert.deepEqual([step!.action, step!.severity], ["restore", "configuration"]);
      const nameKey = type === "qemu" ? "name" : "hostname";
      const original = String((await config(lab, type, vmid))[nameKey]);
      assert.match(step!.summary, new RegExp(`named ${original}-copy-${vmid + 50} \\(a copy: not the archive's guest\\)`));
      const report = await applyPlan(lab.client, planned, fastApply);
      assert.equal(report.ok, true, report.guests[0]!.error);
      const restored = await config(lab, type, vmid + 50);
      assert.match(String(restored.tags), /pvectl/, "pvectl made the copy: it stays pvectl's");
      assert.equal(restored[nameKey], `${original}-copy-${vmid + 50}`);
      const again = await planSpec(lab.client, parseSpec(SPEC.replace(/vmid: \d+, /g, ""), "spec.yaml"));
      assert.deepEqual(again.plan.preflightErrors, []);
      assert.deepEqual(
        again.plan.guests.flatMap((g) => g.errors),
        [],
        "no name is ambiguous",
      );
      assert.deepEqual(
        again.plan.guests.map((g) => g.vmid),
        [501, 502],
      );
    });
  }

  it("a container restored without --storage goes where its root disk was (PVE alone would put it on local), naming a mount point that was elsewhere", async () => {
    const withMount = `containers:
  - { vmid: 503, name: files, node: pve1, ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst", rootfs: { storage: local-lvm, size: 1G }, mounts: { mp0: { storage: shared, size: 1G, mountpoint: /data } } }
`;
    assert.equal((await converge(lab, withMount)).report.ok, true);
    const archive = await backUp(lab, 503);
    const planned = await planRestoreArchive(lab.client, { archive, vmid: 553 });
    assert.deepEqual(planned.plan.preflightErrors, []);
    const guest = planned.plan.guests[0]!;
    assert.match(guest.steps[0]!.summary, /on pve1, disks on local-lvm/);
    assert.deepEqual(
      guest.warnings.filter((w) => w.includes("one storage")),
      [
        "PVE restores every volume of a container onto one storage: mp0 (was on shared) goes to local-lvm with the root disk; name another with --storage",
      ],
    );
    const report = await applyPlan(lab.client, planned, fastApply);
    assert.equal(report.ok, true, report.guests[0]!.error);
    const restored = await config(lab, "lxc", 553);
    assert.match(String(restored.rootfs), /^local-lvm:/);
    assert.match(String(restored.mp0), /^local-lvm:.*mp=\/data/);
  });

  it("a restore to the archive's own vmid (the guest is gone) is the guest again: its name is kept", async () => {
    const archive = await backUp(lab, 501);
    await lab.client.waitForTask((await lab.client.request("DELETE", "/nodes/pve1/qemu/501")) as string);
    const report = await applyPlan(lab.client, await planRestoreArchive(lab.client, { archive, vmid: 501 }), fastApply);
    assert.equal(report.ok, true, report.guests[0]!.error);
    assert.equal((await config(lab, "qemu", 501)).name, "web");
  });

  it("--name names the copy", async () => {
    const archive = await backUp(lab, 501);
    const report = await applyPlan(lab.client, await planRestoreArchive(lab.client, { archive, vmid: 560, name: "web-test" }), fastApply);
    assert.equal(report.ok, true, report.guests[0]!.error);
    assert.equal((await config(lab, "qemu", 560)).name, "web-test");
  });

  it("--start of a copy without --unique is refused while the original runs (same MACs and IPs), warned otherwise", async () => {
    const archive = await backUp(lab, 501);
    await lab.client.waitForTask((await lab.client.request("POST", "/nodes/pve1/qemu/501/status/start")) as string);
    const refused = await planRestoreArchive(lab.client, { archive, vmid: 561, start: true });
    assert.match(
      refused.plan.preflightErrors.map((p) => p.message).join(),
      /MAC addresses and network configuration \(static IPs\) of web \(vmid 501\), which is running.*--unique/,
    );
    const unique = await planRestoreArchive(lab.client, { archive, vmid: 561, start: true, unique: true });
    assert.deepEqual(unique.plan.preflightErrors, []);
    const told = await planRestoreArchive(lab.client, { archive, vmid: 561, start: true, allowDuplicateMacs: true });
    assert.deepEqual(told.plan.preflightErrors, []);
    assert.match(told.plan.guests[0]!.warnings.join(), /same|MAC addresses.*do not run both on one network/);
    await lab.client.waitForTask((await lab.client.request("POST", "/nodes/pve1/qemu/501/status/stop")) as string);
    const stopped = await planRestoreArchive(lab.client, { archive, vmid: 561, start: true });
    assert.deepEqual(stopped.plan.preflightErrors, []);
    assert.match(
      stopped.plan.guests[0]!.warnings.join(),
      /MAC addresses and network configuration \(static IPs\) of web \(vmid 501\) \(stopped now\): do not run both/,
    );
  });

  it("restores over an existing guest only with --allow-data-loss, naming the disks it replaces", async () => {
    const archive = await backUp(lab, 501);
    const disk = String((await config(lab, "qemu", 501)).scsi0).split(",")[0];
    const planned = await planRestoreArchive(lab.client, { archive, vmid: 501 });
    const [step] = planned.plan.guests[0]!.steps;
    assert.equal(step!.severity, "data-loss-risk");
    assert.deepEqual(step!.deletesVolumes, [disk]);
    const refused = await applyPlan(lab.client, planned, fastApply);
    assert.equal(refused.guests[0]!.result, "skipped");
    assert.equal(String((await config(lab, "qemu", 501)).scsi0).split(",")[0], disk, "untouched without --allow-data-loss");
    const done = await applyPlan(lab.client, planned, { ...fastApply, allowDataLoss: true });
    assert.equal(done.ok, true, done.guests[0]!.error);
  });

  it("refuses to restore over a guest pvectl did not create unless --include-foreign", async () => {
    await lab.client.waitForTask(
      (await lab.client.request("POST", "/nodes/pve1/qemu", { vmid: 590, name: "theirs", tags: "other" })) as string,
    );
    const archive = await backUp(lab, 501);
    const refused = await planRestoreArchive(lab.client, { archive, vmid: 590 });
    assert.deepEqual(
      refused.plan.preflightErrors.map((p) => p.kind),
      ["adoption"],
    );
    await assert.rejects(applyPlan(lab.client, refused, { ...fastApply, allowDataLoss: true }), /preflight/i);
    assert.equal((await config(lab, "qemu", 590)).name, "theirs");
    const allowed = await planRestoreArchive(lab.client, { archive, vmid: 590, includeForeign: true });
    assert.deepEqual(allowed.plan.preflightErrors, []);
  });

  it("refuses a running guest, another type, a missing archive and a name that is no archive, with what to do", async () => {
    const archive = await backUp(lab, 501);
    await lab.client.waitForTask((await lab.client.request("POST", "/nodes/pve1/qemu/501/status/start")) as string);
    const running = await planRestoreArchive(lab.client, { archive, vmid: 501 });
    assert.match(running.plan.guests[0]!.errors.join(), /running: .*stop it first/);
    const otherType = await planRestoreArchive(lab.client, { archive, vmid: 502 });
    assert.match(otherType.plan.guests[0]!.errors.join(), /is a container and the archive holds a VM/);
    const missing = await planRestoreArchive(lab.client, {
      archive: "local:backup/vzdump-qemu-501-2020_01_01-00_00_00.vma.zst",
      vmid: 560,
    });
    assert.match(missing.plan.preflightErrors.map((p) => p.message).join(), /not on storage local/);
    await assert.rejects(planRestoreArchive(lab.client, { archive: "local:iso/debian.iso", vmid: 560 }), /not a vzdump archive/);
  });

  for (const [what, fault] of [
    ["dropped", { dropResponse: true }],
    ["held past the client's timeout", { responseDelayMs: 1500 }],
  ] as const) {
    it(`restores once when the answer is ${what}`, async () => {
      const archive = await backUp(lab, 501);
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
        const planned = await planRestoreArchive(impatient, { archive, vmid: 551 });
        lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu$", ...fault, times: 1 });
        const report = await applyPlan(impatient, planned, fastApply);
        await new Promise((resolve) => setTimeout(resolve, 1700));
        assert.equal(report.ok, true, report.guests[0]!.error);
        const tasks = (await lab.client.request("GET", "/nodes/pve1/tasks", { typefilter: "qmrestore", vmid: 551 })) as unknown[];
        assert.equal(tasks.length, 1, "one restore task: the lost request was not sent again");
      } finally {
        await impatient.close();
      }
    });
  }
});

describe("restore with --start", () => {
  let lab: Lab;
  before(async () => {
    // The start PVE's restore worker begins takes far longer than the restore here: a run
    // that stopped at the restore task would see the guest stopped.
    lab = await startLab({ timing: "realistic", timeScale: 0.01, workersPerNode: 4, durations: { start: 60 } });
    assert.equal((await converge(lab, SPEC)).report.ok, true);
  });
  after(() => lab.close());

  it("reports the guest restored only once the start task PVE began has run it", async () => {
    const archive = await backUp(lab, 501);
    const planned = await planRestoreArchive(lab.client, { archive, vmid: 551, start: true });
    const report = await applyPlan(lab.client, planned, fastApply);
    assert.equal(report.ok, true, report.guests[0]!.error);
    const status = (await lab.client.request("GET", "/nodes/pve1/qemu/551/status/current")) as { status: string };
    assert.equal(status.status, "running");
    const tasks = (await lab.client.request("GET", "/nodes/pve1/tasks", { vmid: 551 })) as Array<{ type: string; status?: string }>;
    assert.deepEqual(tasks.map((t) => [t.type, t.status]).sort(), [
      ["qmrestore", "OK"],
      ["qmstart", "OK"],
    ]);
  });

  it("reports a start that fails as the restore's error, and keeps the restored container", async () => {
    const archive = await backUp(lab, 502);
    lab.sim.admin.failTasks({ type: "vzstart", vmid: 552, message: "startup for container '552' failed" });
    const planned = await planRestoreArchive(lab.client, { archive, vmid: 552, start: true, storage: "local-lvm" });
    const report = await applyPlan(lab.client, planned, fastApply);
    assert.equal(report.ok, false);
    assert.match(report.guests[0]!.error ?? "", /restored, but PVE's start of it failed: .*startup for container '552' failed/);
    const status = (await lab.client.request("GET", "/nodes/pve1/lxc/552/status/current")) as { status: string };
    assert.equal(status.status, "stopped");
  });
});
