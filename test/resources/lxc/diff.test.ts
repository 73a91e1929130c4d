import { plannedParams, plannedPath, plannedRequest } from "../../../src/plan/resolve-call.js";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planGuestDestroy } from "../../../src/resources/destroy-plan.js";
import { planCreateCt, planUpdateCt } from "../../../src/resources/lxc/diff.js";
import { GUEST_KINDS } from "../../../src/resources/index.js";
import { ctConfig as ctConfigBase, desiredCt, GIB, liveCt, power } from "./fixture.js";

const actions = (plan: { steps: { action: string }[] }) => plan.steps.map((s) => s.action);

describe("container diff against a live config", () => {
  it("plans nothing when the spec matches (defaults, generated MAC, ownership tag)", () => {
    const plan = planUpdateCt(desiredCt(), liveCt("running"), power);
    assert.deepEqual(plan.errors, []);
    assert.deepEqual(plan.steps, []);
    assert.equal(plan.kind, "lxc");
  });

  it("changes memory and cores on a running container at once, without a restart", () => {
    const ct = desiredCt();
    ct.options.memory = "2048";
    ct.options.cores = "4";
    const plan = planUpdateCt(ct, liveCt("running"), power);
    assert.deepEqual(actions(plan), ["config"]);
    assert.equal(plan.steps[0]!.severity, "configuration");
    assert.deepEqual(plannedParams(plan.steps[0]!.calls[0]!), { cores: "4", memory: "2048" });
    assert.equal(plan.steps[0]!.calls[0]!.method, "PUT");
    assert.equal(plannedPath(plan.steps[0]!.calls[0]!), "/nodes/pve1/lxc/200/config");
  });

  it("leaves a nameserver change on a running container pending, service-impact, with a restart", () => {
    const ct = desiredCt();
    ct.options.nameserver = "10.0.0.54";
    const plan = planUpdateCt(ct, liveCt("running"), power);
    assert.deepEqual(actions(plan), ["config-pending", "reboot"]);
    assert.equal(plan.steps[0]!.severity, "service-impact");
    assert.equal(plan.steps[0]!.pendingUntilReboot, true);
    assert.match(plan.steps[0]!.summary, /applies at the next restart/);
    assert.equal(plannedPath(plan.steps[1]!.calls[0]!), "/nodes/pve1/lxc/200/status/reboot");
  });

  it("applies the same nameserver change at once on a stopped container", () => {
    const ct = desiredCt();
    ct.options.nameserver = "10.0.0.54";
    const plan = planUpdateCt(ct, liveCt("stopped"), power);
    assert.deepEqual(actions(plan), ["config"]);
  });

  it("refuses to change unprivileged after creation", () => {
    const ct = desiredCt();
    ct.options.unprivileged = "0";
    const plan = planUpdateCt(ct, liveCt(), power);
    assert.deepEqual(plan.steps, []);
    assert.match(plan.errors.join("\n"), /unprivileged cannot change after the container is created \(it is 1, the spec says 0/);
  });

  it("grows rootfs with a resize call and refuses to shrink a mount point", () => {
    const grow = desiredCt();
    grow.mounts[0]!.sizeBytes = 12 * GIB;
    const plan = planUpdateCt(grow, liveCt("running"), power);
    assert.deepEqual(actions(plan), ["disk-grow"]);
    assert.deepEqual(plannedRequest(plan.steps[0]!.calls[0]!), {
      method: "PUT",
      path: "/nodes/pve1/lxc/200/resize",
      params: { disk: "rootfs", size: "12G" },
      intent: { kind: "lxc", op: "resize", slot: "rootfs", sizeBytes: 12 * GIB, fromBytes: 8 * GIB, storage: "local-lvm" },
    });
    const shrink = desiredCt();
    shrink.mounts[1]!.sizeBytes = 4 * GIB;
    const refused = planUpdateCt(shrink, liveCt(), power);
    assert.deepEqual(refused.steps, []);
    assert.match(refused.errors.join("\n"), /mp0: shrinking from 16 GiB to 4 GiB is refused/);
  });

  it("hot-plugs a new mount point into a running container", () => {
    const ct = desiredCt();
    ct.mounts.push({ slot: "mp2", storage: "local-lvm", sizeBytes: 2 * GIB, mountpoint: "/logs", options: {} });
    const plan = planUpdateCt(ct, liveCt("running"), power);
    assert.deepEqual(actions(plan), ["disk-add"]);
    assert.equal(plan.steps[0]!.severity, "configuration");
    assert.deepEqual(plannedParams(plan.steps[0]!.calls[0]!), { mp2: "local-lvm:2,mp=/logs" });
  });

  it("deletes a dropped mount point only as data-loss-risk naming its volume, and destroys the unused entry it leaves", () => {
    const ct = desiredCt();
    ct.mounts.splice(1, 1);
    const plan = planUpdateCt(ct, liveCt("stopped"), power);
    assert.deepEqual(actions(plan), ["disk-delete"]);
    const step = plan.steps[0]!;
    assert.equal(step.severity, "data-loss-risk");
    assert.deepEqual(step.deletesVolumes, ["local-lvm:vm-200-disk-1"]);
    assert.deepEqual(
      step.calls.map((c) => plannedParams(c)),
      [{ delete: "mp0" }, { delete: "unused0" }],
    );
  });

  it("detaches a mount point listed under detach: (volume kept, configuration)", () => {
    const ct = desiredCt();
    ct.mounts.splice(1, 1);
    ct.detach = ["mp0"];
    const plan = planUpdateCt(ct, liveCt("stopped"), power);
    assert.deepEqual(actions(plan), ["disk-detach"]);
    assert.equal(plan.steps[0]!.severity, "configuration");
    assert.match(plan.steps[0]!.summary, /kept as an unused volume/);
  });

  it("keeps every mount point when the spec has no mounts: section", () => {
    const ct = desiredCt();
    ct.mounts = [];
    ct.unmanaged = ["mounts"];
    assert.deepEqual(planUpdateCt(ct, liveCt(), power).steps, []);
  });

  it("moves a volume with move_volume keeping the source, then destroys it only as data-loss-risk", () => {
    const ct = desiredCt();
    ct.mounts[1]!.storage = "zfs";
    const plan = planUpdateCt(ct, liveCt("stopped", { ...liveCtConfigWithUnused() }), power);
    assert.deepEqual(actions(plan), ["disk-move", "disk-delete"]);
    assert.deepEqual(plannedParams(plan.steps[0]!.calls[0]!), { volume: "mp0", storage: "zfs", delete: 0 });
    assert.equal(plan.steps[0]!.severity, "configuration");
    // unused0 is taken: PVE keeps the source as the lowest free unusedN.
    assert.deepEqual(plannedParams(plan.steps[1]!.calls[0]!), { delete: "unused1" });
    assert.equal(plan.steps[1]!.severity, "data-loss-risk");
    assert.deepEqual(plan.steps[1]!.deletesVolumes, ["local-lvm:vm-200-disk-1"]);
    // What is copied, and that the container is stopped for it (PVE moves container volumes offline only).
    assert.match(
      plan.steps[0]!.summary,
      /^move mp0 from local-lvm to zfs: [\d.]+ GiB copied offline \(the container is stopped\); the source volume local-lvm:vm-200-disk-1 is kept as unused1$/,
    );
  });

  it("refuses to move a volume of a running container (PVE: cannot move volumes of a running container)", () => {
    const ct = desiredCt();
    ct.mounts[1]!.storage = "zfs";
    const plan = planUpdateCt(ct, liveCt("running"), power);
    assert.deepEqual(plan.steps, []);
    assert.match(plan.errors.join("\n"), /mp0: moving local-lvm:vm-200-disk-1 to zfs needs the container stopped/);
  });

  it("keeps the MAC when a NIC's VLAN changes", () => {
    const ct = desiredCt();
    ct.nics[0]!.options.tag = "20";
    const plan = planUpdateCt(ct, liveCt("running"), power);
    assert.deepEqual(actions(plan), ["nic-change"]);
    assert.equal(plan.steps[0]!.severity, "configuration");
    assert.equal(plannedParams(plan.steps[0]!.calls[0]!).net0, "name=eth0,bridge=vmbr0,hwaddr=BC:24:11:0A:0B:0C,ip=dhcp,tag=20,type=veth");
  });

  it("recreates a running container's interface for a new name or MAC (service-impact), not for an address or MTU", () => {
    const renamed = desiredCt();
    renamed.nics[0]!.name = "eth1";
    const replug = planUpdateCt(renamed, liveCt("running"), power).steps[0]!;
    assert.equal(replug.severity, "service-impact");
    assert.match(replug.summary, /interface is recreated/);
    const readdressed = desiredCt();
    readdressed.nics[0]!.options = { ip: "10.0.0.5/24", gw: "10.0.0.1", mtu: "9000", tag: "10" };
    const step = planUpdateCt(readdressed, liveCt("running"), power).steps[0]!;
    assert.equal(step.severity, "configuration");
    assert.match(step.summary, /mtu reach the running interface only at the next start/);
    assert.equal(planUpdateCt(renamed, liveCt("stopped"), power).steps[0]!.severity, "configuration", "a stopped container loses nothing");
  });

  it("flags bind mounts as root@pam only", () => {
    const plan = planUpdateCt(desiredCt(), liveCt(), power);
    assert.match(plan.warnings.join("\n"), /mp1 is a bind mount of host path \/srv\/shared: only root@pam/);
  });

  it("flags a change of feature flags other than nesting as root@pam only", () => {
    const ct = desiredCt();
    ct.options.features = "fuse=1,keyctl=1,nesting=1";
    assert.match(planUpdateCt(ct, liveCt(), power).warnings.join("\n"), /changing features fuse is allowed only to root@pam/);
    ct.options.features = "keyctl=1";
    const nestingOff = planUpdateCt(ct, liveCt(), power);
    assert.equal(nestingOff.steps.length, 1);
    assert.doesNotMatch(nestingOff.warnings.join("\n"), /features/, "keyctl unchanged, only nesting: not root only");
    assert.doesNotMatch(planUpdateCt(desiredCt(), liveCt(), power).warnings.join("\n"), /features/, "nothing written, nothing flagged");
  });

  it("never touches a key the spec leaves out", () => {
    const ct = desiredCt();
    delete ct.options.nameserver;
    delete ct.options.features;
    assert.deepEqual(planUpdateCt(ct, liveCt(), power).steps, []);
  });
});

function liveCtConfigWithUnused() {
  return { ...ctConfigBase(), unused0: "local-lvm:vm-200-disk-7" };
}

describe("container create and destroy", () => {
  it("creates from the template, unprivileged unless the spec says so, with new volumes and the ownership tag", () => {
    const plan = planCreateCt({ ...desiredCt(), power: "running" });
    const call = plan.steps[0]!.calls[0]!;
    assert.equal(call.method, "POST");
    assert.equal(plannedPath(call), "/nodes/pve1/lxc");
    assert.equal(plannedParams(call).ostemplate, "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst");
    assert.equal(plannedParams(call).unprivileged, "1");
    assert.equal(plannedParams(call).rootfs, "local-lvm:8");
    assert.equal(plannedParams(call).mp0, "local-lvm:16,mp=/data,backup=1");
    assert.equal(plannedParams(call).mp1, "/srv/shared,mp=/shared,ro=1");
    assert.equal(plannedParams(call).net0, "name=eth0,bridge=vmbr0,ip=dhcp,tag=10");
    assert.equal(plannedParams(call).tags, "pvectl;pvectl-node.pve1;web");
    assert.equal(plannedParams(call).start, 1);
    assert.deepEqual(call.intent.op === "create" ? call.intent.template : undefined, {
      storage: "local",
      volume: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
    });
  });

  it("carries the root password as a reference, shown by where it comes from", () => {
    const plan = planCreateCt({ ...desiredCt(), password: { env: "PVE_CT_ROOT_PW" } });
    const step = plan.steps[0]!;
    assert.equal(plannedParams(step.calls[0]!).password, undefined);
    assert.deepEqual(step.calls[0]!.secrets, { password: { env: "PVE_CT_ROOT_PW" } });
    assert.deepEqual(
      step.changes.find((c) => c.field === "password"),
      { field: "password", after: "(from env PVE_CT_ROOT_PW)" },
    );
  });

  it("refuses a create without a template or rootfs", () => {
    const ct = desiredCt();
    delete ct.ostemplate;
    ct.mounts = [];
    const plan = planCreateCt(ct);
    assert.deepEqual(plan.steps, []);
    assert.match(plan.errors.join("\n"), /needs a template/);
    assert.match(plan.errors.join("\n"), /needs rootfs/);
  });

  it("destroy names rootfs and every mount point volume, not the bind mount's host path", () => {
    const plan = planGuestDestroy(GUEST_KINDS.lxc, "web1", liveCt("running"), power);
    assert.deepEqual(actions(plan), ["stop", "destroy"]);
    const destroy = plan.steps[1]!;
    assert.deepEqual(destroy.deletesVolumes, ["local-lvm:vm-200-disk-0", "local-lvm:vm-200-disk-1"]);
    assert.deepEqual(plannedParams(destroy.calls[0]!), { purge: 1, "destroy-unreferenced-disks": 1 });
    assert.equal(plannedPath(destroy.calls[0]!), "/nodes/pve1/lxc/200");
  });
});
