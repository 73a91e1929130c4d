// Privileges as PVE judges them where pools and drives meet: a guest cloned (or created) into a
// pool is a member from then on, so its follow-up steps may hold their privileges on the pool
// (RPCEnvironment gives pool members the pool's roles); qemu-server's create checks no
// VM.Config.* per drive, while adding a cloud-init drive to a VM needs VM.Config.Cloudinit AND
// VM.Config.CDROM (pve/drive-privileges.ts, shared by preflight and the simulator); a vmid taken
// by a guest the identity cannot see is a plan error naming VM.Audit, never a create.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { PveError } from "../../src/api/index.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { clientAs, converge, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const TEMPLATE = `vms:
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
`;
const CLONE = `vms:
  - vmid: 511
    name: web-app
    node: pve1
    pool: web
    clone: { from: 9001 }
    cores: 2
    disks:
      scsi0: { storage: local-lvm, size: 8G }
    nics:
      net0: { bridge: vmbr0 }
    cloudInit: { storage: local-lvm, user: debian, ipconfig: { ipconfig0: { ip: 10.0.10.31/24, gw: 10.0.10.1 } } }
`;
const DRIVES = ["VM.Allocate", "VM.Audit", "VM.Config.Disk", "VM.Config.Memory", "VM.Config.Options"];

describe("pools and drives, as PVE checks them", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({
      config: {
        access: {
          roles: [
            { roleid: "NoCdrom", privs: [...DRIVES, "VM.Config.Cloudinit"] },
            { roleid: "NoCloudinit", privs: [...DRIVES, "VM.Config.CDROM"] },
          ],
          users: [
            { userid: "team@pve", password: "team12345" },
            { userid: "nocdrom@pve", password: "nocdrom12" },
            { userid: "nocloud@pve", password: "nocloud12" },
          ],
          acl: [
            { path: "/pool/web", roles: ["PVEVMAdmin", "PVEPoolAdmin"], users: ["team@pve"] },
            { path: "/storage/local-lvm", roles: ["PVEDatastoreUser"], users: ["team@pve", "nocdrom@pve", "nocloud@pve"] },
            { path: "/sdn/zones/localnetwork/vmbr0", roles: ["PVESDNUser"], users: ["team@pve"] },
            { path: "/vms/700", roles: ["NoCdrom"], users: ["nocdrom@pve"] },
            { path: "/vms/701", roles: ["NoCloudinit"], users: ["nocloud@pve"] },
          ],
        },
      },
    });
    await lab.client.request("POST", "/pools", { poolid: "web" });
    await converge(lab, TEMPLATE);
  });
  after(async () => lab.close());

  it("a clone into the pool: preflight lets the pool's privileges cover its follow-ups, and PVE (the simulator) agrees", async () => {
    const team = clientAs(lab, "team@pve", "team12345");
    try {
      const planned = await planSpec(team, parseSpec(CLONE, "clone.yaml"));
      assert.deepEqual(planned.plan.preflightErrors, []);
      assert.ok(planned.plan.guests[0]!.steps.length > 1, "the clone has follow-ups on /vms/511");
      const report = await applyPlan(team, planned, fastApply);
      assert.deepEqual(
        report.guests.map((g) => [g.key, g.result, g.error]),
        [["web-app", "created", undefined]],
      );
      assert.deepEqual((await planSpec(team, parseSpec(CLONE, "clone.yaml"))).plan.guests[0]!.steps, []);
    } finally {
      await team.close();
    }
  });

  it("the simulator: a create with a cloud-init drive needs no VM.Config.* for it; adding one to a VM needs Cloudinit and CDROM", async () => {
    const create = { node: "pve1", memory: 512, ide2: "local-lvm:cloudinit", scsi0: "local-lvm:1" };
    for (const [user, password, vmid, lacks] of [
      ["nocdrom@pve", "nocdrom12", 700, "VM.Config.CDROM"],
      ["nocloud@pve", "nocloud12", 701, "VM.Config.Cloudinit"],
    ] as const) {
      const client = clientAs(lab, user, password);
      try {
        await client.waitForTask((await client.request("POST", "/nodes/pve1/qemu", { ...create, vmid })) as string);
        await client.request("PUT", `/nodes/pve1/qemu/${vmid}/config`, { delete: "ide2" }).then(
          () => assert.fail(`${user} removed a cloud-init drive without ${lacks}`),
          (err: unknown) => assert.ok(err instanceof PveError && err.message.includes(lacks), String(err)),
        );
      } finally {
        await client.close();
      }
    }
  });

  it("preflight names VM.Config.CDROM for a cloud-init drive added to a VM by a user without it", async () => {
    const nocdrom = clientAs(lab, "nocdrom@pve", "nocdrom12");
    try {
      const spec = parseSpec(
        `vms:\n  - vmid: 700\n    name: ci-drive\n    node: pve1\n    adopt: true\n    cloudInit: { storage: local-lvm, slot: ide0, user: debian }\n`,
        "ci.yaml",
      );
      const { plan } = await planSpec(nocdrom, spec);
      assert.ok(
        plan.preflightErrors.some((p) => p.path === "/vms/700" && p.privilege === "VM.Config.CDROM"),
        JSON.stringify(plan.preflightErrors),
      );
    } finally {
      await nocdrom.close();
    }
  });

  it("a vmid taken by a guest the user cannot see is a plan error naming VM.Audit on it, not a create", async () => {
    await converge(lab, `vms:\n  - vmid: 620\n    name: other-team\n    node: pve1\n    memory: 512\n`);
    const team = clientAs(lab, "team@pve", "team12345");
    try {
      const { plan } = await planSpec(
        team,
        parseSpec(`vms:\n  - vmid: 620\n    name: mine\n    node: pve1\n    pool: web\n    memory: 512\n`, "mine.yaml"),
      );
      assert.deepEqual(plan.guests[0]!.steps, []);
      const problem = plan.preflightErrors.find((p) => p.guest === "mine");
      assert.deepEqual([problem?.path, problem?.privilege], ["/vms/620", "VM.Audit"]);
      assert.match(problem!.message, /vmid 620 \(mine\) exists but is not visible to team@pve/);
    } finally {
      await team.close();
    }
  });
});
