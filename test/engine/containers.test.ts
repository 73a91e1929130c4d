// Containers through the engine and the in-process simulator, with hand-built DesiredCt
// values (the spec layer's `containers:` is written in parallel): every guarantee VMs have —
// a rerun plan is empty, what applies live and what waits for a restart, grow and shrink,
// mount points added, dropped, detached and moved, a VLAN change keeping the MAC, destroy
// naming every volume, and no change to a container pvectl did not create without adopt.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/engine/apply.js";
import { buildDestroyPlan, buildPlan } from "../../src/engine/plan.js";
import type { DesiredCt } from "../../src/resources/lxc/model.js";
import { fastApply, type Lab, startLab } from "../support/engine-lab.js";

const GIB = 1024 ** 3;
const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

function ct(vmid: number, extra: Partial<DesiredCt> = {}): DesiredCt {
  return {
    kind: "lxc",
    key: `ct${vmid}`,
    name: `ct${vmid}`,
    vmid,
    node: "pve1",
    ostemplate: TEMPLATE,
    options: { cores: "1", memory: "512", nameserver: "10.0.0.53" },
    tags: [],
    mounts: [
      { slot: "rootfs", storage: "local-lvm", sizeBytes: 2 * GIB, options: {} },
      { slot: "mp0", storage: "local-lvm", sizeBytes: 1 * GIB, mountpoint: "/data", options: {} },
    ],
    nics: [{ slot: "net0", name: "eth0", bridge: "vmbr0", options: { ip: "dhcp", tag: "10" } }],
    power: "running",
    ...extra,
  };
}

const all = { ...fastApply, allowRestart: true, allowDataLoss: true };

async function converge(lab: Lab, desired: DesiredCt, options: Record<string, unknown> = fastApply) {
  const { plan, context } = await buildPlan(lab.client, [desired]);
  assert.deepEqual(plan.preflightErrors, [], "preflight");
  assert.deepEqual(plan.guests[0]!.errors, [], "plan errors");
  const report = await applyPlan(lab.client, plan, { ...options, cluster: context.cluster });
  return { plan, report, guest: plan.guests[0]!, result: report.guests[0]! };
}

async function replan(lab: Lab, desired: DesiredCt) {
  return (await buildPlan(lab.client, [desired])).plan.guests[0]!;
}

async function config(lab: Lab, vmid: number): Promise<Record<string, unknown>> {
  return (await lab.client.request("GET", `/nodes/pve1/lxc/${vmid}/config`)) as Record<string, unknown>;
}

async function volumes(lab: Lab, vmid: number): Promise<string[]> {
  const content = (await lab.client.request("GET", "/nodes/pve1/storage/local-lvm/content")) as Array<{ volid: string }>;
  return content
    .map((c) => c.volid)
    .filter((v) => new RegExp(`-${vmid}-disk-`).test(v))
    .sort();
}

describe("containers through the engine", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  after(async () => lab.close());

  it("creates a container, and a rerun plans nothing", async () => {
    const { result } = await converge(lab, ct(300));
    assert.equal(result.result, "created", JSON.stringify(result));
    assert.match(result.macs.net0 ?? "", /^BC:24:11:/);
    assert.deepEqual(Object.keys(result.volumes).sort(), ["mp0", "rootfs"]);
    const cfg = await config(lab, 300);
    assert.equal(cfg.unprivileged, 1);
    assert.equal(cfg.tags, "pvectl;pvectl-node.pve1");
    assert.deepEqual((await replan(lab, ct(300))).steps, []);
  });

  it("changes memory and cores of a running container at once, without a restart", async () => {
    await converge(lab, ct(301));
    const changed = ct(301, { options: { cores: "2", memory: "1024", nameserver: "10.0.0.53" } });
    const { guest, result } = await converge(lab, changed);
    assert.deepEqual(
      guest.steps.map((s) => s.action),
      ["config"],
    );
    assert.equal(result.result, "changed");
    const cfg = await config(lab, 301);
    assert.equal(cfg.memory, 1024);
    assert.equal(cfg.cores, 2);
    assert.deepEqual((await replan(lab, changed)).steps, []);
  });

  it("leaves a nameserver change of a running container pending (service-impact), applied by the restart", async () => {
    await converge(lab, ct(302));
    const changed = ct(302, { options: { cores: "1", memory: "512", nameserver: "10.0.0.54" } });
    const planned = await replan(lab, changed);
    assert.deepEqual(
      planned.steps.map((s) => [s.action, s.severity]),
      [
        ["config-pending", "service-impact"],
        ["reboot", "service-impact"],
      ],
    );
    assert.match(planned.steps[0]!.summary, /applies at the next restart/);
    const refused = await converge(lab, changed);
    assert.deepEqual(
      refused.result.steps.map((s) => s.status),
      ["skipped", "skipped"],
    );
    await converge(lab, changed, all);
    assert.equal((await config(lab, 302)).nameserver, "10.0.0.54");
    assert.deepEqual((await replan(lab, changed)).steps, []);
  });

  it("grows rootfs, and refuses to shrink it", async () => {
    await converge(lab, ct(303));
    const grown = ct(303);
    grown.mounts[0]!.sizeBytes = 3 * GIB;
    const { guest } = await converge(lab, grown);
    assert.deepEqual(
      guest.steps.map((s) => s.action),
      ["disk-grow"],
    );
    assert.match(String((await config(lab, 303)).rootfs), /size=3G/);
    assert.deepEqual((await replan(lab, grown)).steps, []);
    const shrunk = ct(303);
    shrunk.mounts[0]!.sizeBytes = 1 * GIB;
    const refused = await replan(lab, shrunk);
    assert.deepEqual(refused.steps, []);
    assert.match(refused.errors.join("\n"), /rootfs: shrinking from 3 GiB to 1 GiB is refused/);
  });

  it("hot-plugs a new mount point into a running container", async () => {
    await converge(lab, ct(304));
    const more = ct(304);
    more.mounts.push({ slot: "mp1", storage: "local-lvm", sizeBytes: 1 * GIB, mountpoint: "/logs", options: {} });
    const { guest } = await converge(lab, more);
    assert.deepEqual(
      guest.steps.map((s) => [s.action, s.severity]),
      [["disk-add", "configuration"]],
    );
    assert.match(String((await config(lab, 304)).mp1), /mp=\/logs/);
    assert.deepEqual((await replan(lab, more)).steps, []);
  });

  it("drops a mount point only with --allow-data-loss, naming its volume, and then destroys it", async () => {
    await converge(lab, ct(305, { power: "stopped" }));
    const fewer = ct(305, { power: "stopped" });
    fewer.mounts.pop();
    const planned = await replan(lab, fewer);
    assert.deepEqual(
      planned.steps.map((s) => [s.action, s.severity]),
      [["disk-delete", "data-loss-risk"]],
    );
    assert.deepEqual(planned.steps[0]!.deletesVolumes, ["local-lvm:vm-305-disk-1"]);
    const refused = await converge(lab, fewer, { ...fastApply, power: "stopped" });
    assert.equal(refused.result.steps[0]!.status, "skipped");
    assert.ok((await config(lab, 305)).mp0, "still attached without --allow-data-loss");
    await converge(lab, fewer, all);
    const cfg = await config(lab, 305);
    assert.equal(cfg.mp0, undefined);
    assert.deepEqual(
      Object.keys(cfg).filter((k) => k.startsWith("unused")),
      [],
    );
    assert.deepEqual(await volumes(lab, 305), ["local-lvm:vm-305-disk-0"]);
    assert.deepEqual((await replan(lab, fewer)).steps, []);
  });

  it("detaches a mount point listed under detach: and keeps its volume as unusedN", async () => {
    await converge(lab, ct(306, { power: "stopped" }));
    const detached = ct(306, { power: "stopped", detach: ["mp0"] });
    detached.mounts.pop();
    const { guest } = await converge(lab, detached);
    assert.deepEqual(
      guest.steps.map((s) => [s.action, s.severity]),
      [["disk-detach", "configuration"]],
    );
    const cfg = await config(lab, 306);
    assert.equal(cfg.mp0, undefined);
    assert.match(String(cfg.unused0), /vm-306-disk-1/);
    assert.deepEqual(await volumes(lab, 306), ["local-lvm:vm-306-disk-0", "local-lvm:vm-306-disk-1"]);
  });

  it("detaches one mount point and drops two in one apply, destroying exactly the dropped volumes", async () => {
    const three = ct(312, { power: "stopped" });
    three.mounts.push(
      { slot: "mp1", storage: "local-lvm", sizeBytes: 1 * GIB, mountpoint: "/m1", options: {} },
      { slot: "mp2", storage: "local-lvm", sizeBytes: 1 * GIB, mountpoint: "/m2", options: {} },
    );
    await converge(lab, three);
    const kept = (await config(lab, 312)).mp0 as string;
    const spec = ct(312, { power: "stopped", detach: ["mp0"] });
    spec.mounts = spec.mounts.slice(0, 1);
    const { guest, result } = await converge(lab, spec, all);
    assert.deepEqual(
      guest.steps.map((s) => s.action),
      ["disk-detach", "disk-delete", "disk-delete"],
    );
    assert.ok(
      result.steps.every((s) => s.status === "done"),
      JSON.stringify(result),
    );
    const cfg = await config(lab, 312);
    assert.deepEqual(
      Object.keys(cfg).filter((k) => /^(mp|unused)\d+$/.test(k)),
      ["unused0"],
    );
    assert.equal(cfg.unused0, kept.split(",")[0], "the detached volume is kept");
    assert.deepEqual(await volumes(lab, 312), ["local-lvm:vm-312-disk-0", kept.split(",")[0]!].sort());
  });

  it("destroys nothing when the unusedN it predicted holds another volume by the time it runs", async () => {
    const two = ct(313, { power: "stopped" });
    two.mounts.push({ slot: "mp1", storage: "local-lvm", sizeBytes: 1 * GIB, mountpoint: "/m1", options: {} });
    await converge(lab, two);
    const spec = ct(313, { power: "stopped" });
    spec.mounts = spec.mounts.slice(0, 1);
    spec.unmanaged = [];
    const { plan, context } = await buildPlan(lab.client, [{ ...spec, detach: [] }]);
    // Only mp0 is dropped by this plan; mp1 is detached by someone else before it runs, and
    // (without a digest to catch that) its volume takes the unused0 the plan predicted for mp0's.
    const drop = plan.guests[0]!.steps.find((s) => s.changes.some((c) => c.field === "mp0"))!;
    plan.guests[0]!.steps = [drop];
    delete plan.guests[0]!.digest;
    const mp1 = String((await config(lab, 313)).mp1).split(",")[0]!;
    await lab.client.request("PUT", "/nodes/pve1/lxc/313/config", { delete: "mp1" });
    const report = await applyPlan(lab.client, plan, { ...all, cluster: context.cluster });
    const result = report.guests[0]!;
    assert.equal(result.result, "failed");
    assert.match(
      result.error ?? "",
      /unused0 of ct313 holds local-lvm:vm-313-disk-2, not local-lvm:vm-313-disk-1 as planned; nothing was destroyed/,
    );
    assert.ok((await volumes(lab, 313)).includes(mp1), "the other volume survives");
  });

  it("moves a mount point to another storage, keeping the source unless --allow-data-loss", async () => {
    await converge(lab, ct(307, { power: "stopped" }));
    const moved = ct(307, { power: "stopped" });
    moved.mounts[1]!.storage = "shared";
    const planned = await replan(lab, moved);
    assert.deepEqual(
      planned.steps.map((s) => [s.action, s.severity]),
      [
        ["disk-move", "configuration"],
        ["disk-delete", "data-loss-risk"],
      ],
    );
    const { result } = await converge(lab, moved);
    assert.deepEqual(
      result.steps.map((s) => s.status),
      ["done", "skipped"],
      JSON.stringify(result),
    );
    const cfg = await config(lab, 307);
    assert.match(String(cfg.mp0), /^shared:/);
    assert.match(String(cfg.unused0), /vm-307-disk-1/);
    assert.deepEqual((await replan(lab, moved)).steps, []);
  });

  it("moves a mount point and destroys the source with --allow-data-loss", async () => {
    await converge(lab, ct(311, { power: "stopped" }));
    const moved = ct(311, { power: "stopped" });
    moved.mounts[1]!.storage = "shared";
    const { result } = await converge(lab, moved, all);
    assert.deepEqual(
      result.steps.map((s) => s.status),
      ["done", "done"],
      JSON.stringify(result),
    );
    const cfg = await config(lab, 311);
    assert.match(String(cfg.mp0), /^shared:/);
    assert.deepEqual(
      Object.keys(cfg).filter((k) => k.startsWith("unused")),
      [],
    );
    assert.deepEqual(await volumes(lab, 311), ["local-lvm:vm-311-disk-0"], "the source volume is gone");
  });

  it("changes a NIC's VLAN on a running container and keeps its MAC", async () => {
    const { result } = await converge(lab, ct(308));
    const mac = result.macs.net0!;
    const retagged = ct(308);
    retagged.nics[0]!.options.tag = "20";
    const { guest } = await converge(lab, retagged);
    assert.deepEqual(
      guest.steps.map((s) => [s.action, s.severity]),
      [["nic-change", "configuration"]],
    );
    const net0 = String((await config(lab, 308)).net0);
    assert.match(net0, /tag=20/);
    assert.match(net0, new RegExp(`hwaddr=${mac}`, "i"));
    assert.deepEqual((await replan(lab, retagged)).steps, []);
  });

  it("destroy names rootfs and every mount point volume, and frees exactly those", async () => {
    await converge(lab, ct(309));
    const before = await volumes(lab, 309);
    assert.equal(before.length, 2);
    const plan = await buildDestroyPlan(lab.client, { desired: [ct(309)] });
    const destroy = plan.guests[0]!.steps.find((s) => s.action === "destroy")!;
    assert.deepEqual(destroy.deletesVolumes, before);
    for (const volume of before) assert.ok(destroy.summary.includes(volume), destroy.summary);
    const report = await applyPlan(lab.client, plan, all);
    assert.equal(report.guests[0]!.result, "destroyed");
    assert.deepEqual(await volumes(lab, 309), []);
  });

  it("stops and starts a container as the spec's power says (vzshutdown, vzstart)", async () => {
    await converge(lab, ct(314));
    const stopped = await converge(lab, ct(314, { power: "stopped" }), all);
    assert.deepEqual(
      stopped.guest.steps.map((s) => [s.action, s.severity]),
      [["stop", "service-impact"]],
    );
    const status = async () => ((await lab.client.request("GET", "/nodes/pve1/lxc/314/status/current")) as { status: string }).status;
    assert.equal(await status(), "stopped");
    const started = await converge(lab, ct(314));
    assert.deepEqual(
      started.guest.steps.map((s) => s.action),
      ["start"],
    );
    assert.equal(await status(), "running");
    const tasks = (await lab.client.request("GET", "/nodes/pve1/tasks", { vmid: 314 })) as Array<{ type: string; status?: string }>;
    assert.deepEqual([...new Set(tasks.map((t) => t.type))].sort(), ["vzcreate", "vzshutdown", "vzstart"]);
  });

  it("refuses a container pvectl did not create unless the spec adopts it", async () => {
    const upid = await lab.client.request("POST", "/nodes/pve1/lxc", {
      vmid: 310,
      hostname: "ct310",
      ostemplate: TEMPLATE,
      rootfs: "local-lvm:2",
      memory: 512,
      cores: 1,
    });
    await lab.client.waitForTask(upid as string);
    const spec = ct(310, {
      power: "stopped",
      mounts: [{ slot: "rootfs", storage: "local-lvm", sizeBytes: 2 * GIB, options: {} }],
      nics: [],
      unmanaged: ["nics"],
    });
    const refused = (await buildPlan(lab.client, [spec])).plan;
    assert.deepEqual(
      refused.preflightErrors.map((p) => p.kind),
      ["adoption"],
    );
    const adopted = await converge(lab, { ...spec, adopt: true });
    assert.equal(adopted.guest.steps[0]!.action, "adopt");
    assert.match(String((await config(lab, 310)).tags), /pvectl/);
  });
});

describe("a container created and started in one step", () => {
  let lab: Lab;
  before(async () => {
    // Realistic timing: the create task ends before the start task it began does.
    lab = await startLab({ timing: "realistic", timeScale: 0.05, workersPerNode: 4 });
  });
  after(async () => lab.close());

  it("is reported created only once PVE's start task has run it", async () => {
    const { result } = await converge(lab, ct(320));
    assert.equal(result.result, "created", JSON.stringify(result));
    const status = (await lab.client.request("GET", "/nodes/pve1/lxc/320/status/current")) as { status: string };
    assert.equal(status.status, "running");
    const tasks = (await lab.client.request("GET", "/nodes/pve1/tasks", { vmid: 320 })) as Array<{ type: string; status?: string }>;
    assert.deepEqual(tasks.map((t) => [t.type, t.status]).sort(), [
      ["vzcreate", "OK"],
      ["vzstart", "OK"],
    ]);
  });

  it("reports a start that fails as the create step's error, and keeps the container", async () => {
    lab.sim.admin.failTasks({ type: "vzstart", vmid: 321, message: "startup for container '321' failed" });
    const { plan, context } = await buildPlan(lab.client, [ct(321)]);
    const report = await applyPlan(lab.client, plan, { ...fastApply, cluster: context.cluster });
    const result = report.guests[0]!;
    assert.notEqual(result.result, "created");
    assert.match(result.error ?? "", /created, but PVE's start of it failed: .*startup for container '321' failed/);
    const listed = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number; status: string }>;
    assert.equal(listed.find((g) => g.vmid === 321)?.status, "stopped");
  });
});
