// Template conversions on storages that cannot hold base volumes (plain LVM): a container's is
// refused in preflight, naming the volume, as pve-container refuses it ("Template feature is
// not available for '<volume>'"); a VM's is converted (qemu-server does) with a plan warning
// that its disk stays an ordinary volume, which only full clones can copy.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { planSpec } from "../../src/app/plan-spec.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { converge, type Lab, startLab } from "../support/engine-lab.js";

const STORAGES = [
  { id: "local", type: "dir" as const, content: ["iso", "vztmpl", "import", "snippets"] },
  { id: "local-lvm", type: "lvmthin" as const, content: ["images", "rootdir"] },
  { id: "thick", type: "lvm" as const, content: ["images", "rootdir"] },
];

const CT = (storage: string, template = "template: true") => `
containers:
  - vmid: 400
    hostname: ct-tpl
    node: pve1
    ${template}
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"
    rootfs: { storage: ${storage}, size: 4G }
`;

const VM = `
vms:
  - vmid: 410
    name: vm-tpl
    node: pve1
    template: true
    memory: 512
    disks:
      scsi0: { storage: thick, size: 1G }
`;

describe("template conversions and the storages of their volumes", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({ config: { storages: STORAGES, content: ["local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"] } });
  });
  after(async () => lab.close());

  it("a new container template on plain LVM is refused in preflight, naming the volume; nothing is created", async () => {
    const { plan } = await planSpec(lab.client, parseSpec(CT("thick"), "test.yaml"));
    assert.deepEqual(
      plan.preflightErrors.map((p) => [p.kind, p.guest, p.message]),
      [
        [
          "template",
          "ct-tpl",
          "Template feature is not available for rootfs on thick: storage thick (lvm) cannot hold base volumes, and PVE refuses to convert the container. " +
            "Put the volume on LVM-thin, ZFS, RBD, btrfs or a directory storage (its storage: in the spec moves it first), or leave template out",
        ],
      ],
    );
  });

  it("an existing container on plain LVM: the conversion names its volume; moving it in the same spec clears the problem", async () => {
    assert.equal((await converge(lab, CT("thick", ""))).report.ok, true);
    const { plan } = await planSpec(lab.client, parseSpec(CT("thick"), "test.yaml"));
    assert.match(
      plan.preflightErrors[0]?.message ?? "",
      /^Template feature is not available for 'thick:vm-400-disk-0' \(rootfs\): storage thick \(lvm\)/,
    );
    const moved = await planSpec(lab.client, parseSpec(CT("local-lvm"), "test.yaml"));
    assert.deepEqual(moved.plan.preflightErrors, []);
    assert.deepEqual(
      moved.plan.guests[0]!.steps.map((s) => s.action),
      ["disk-move", "disk-delete", "template"],
    );
  });

  it("a VM template on plain LVM is converted, with a warning that its disk can only be full-cloned", async () => {
    const { plan, report } = await converge(lab, VM);
    assert.deepEqual(plan.preflightErrors, []);
    assert.deepEqual(plan.guests[0]!.warnings, [
      "scsi0 on thick stays an ordinary volume when the VM becomes a template: storage thick (lvm) cannot hold base volumes, so PVE converts the VM but not that disk, " +
        "and the template can only be full-cloned (full: true). Put the disk on LVM-thin, ZFS, RBD, btrfs or a directory storage to link clones to it",
    ]);
    assert.equal(report.ok, true, JSON.stringify(report.guests));
  });
});
