import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { stringify } from "yaml";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan } from "../../src/engine/plan.js";
import { selectGuests, showSpecGuests } from "../../src/engine/show.js";
import { desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";
import { TWO_WEB } from "./specs.js";

const RICH = `
vms:
  - vmid: 260
    name: rich
    node: pve3
    sockets: 1
    cores: 4
    cpu: host
    memory: 4G
    balloon: 1G
    machine: q35
    ostype: l26
    scsihw: virtio-scsi-single
    agent: { enabled: true, fstrimClonedDisks: true }
    onboot: true
    boot: [scsi0, ide2]
    description: imported and back
    disks:
      scsi0: { storage: local-lvm, size: 10G, cache: writeback, discard: on, iothread: true, backup: false }
      virtio1: { storage: shared, size: 3G }
    cdroms:
      ide2: {}
    nics:
      net0: { bridge: vmbr0, tag: 30, firewall: true, mtu: 1 }
      net1: { model: e1000, bridge: vmbr1, rate: 50, linkDown: true }
    extraConfig:
      vga: qxl
`;

describe("show and import", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
    for (const yaml of [TWO_WEB, RICH]) {
      const report = await applyPlan(lab.client, (await buildPlan(lab.client, desired(yaml))).plan, fastApply);
      assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
    }
  });
  after(async () => lab.close());

  it("imports every VM into a spec whose plan against the same cluster is empty", async () => {
    const shown = await selectGuests(lab.client, { all: true });
    assert.equal(shown.vms.length, 3);
    const yaml = stringify({ version: 1, vms: shown.vms });
    const { plan } = await buildPlan(lab.client, desired(yaml));
    assert.deepEqual(
      plan.guests.map((g) => [g.key, g.steps.map((s) => `${s.summary} ${JSON.stringify(s.changes)}`), g.errors]),
      plan.guests.map((g) => [g.key, [], []]),
    );
    const rich = shown.vms.find((v) => v.name === "rich")!;
    assert.deepEqual(rich.nics, {
      net0: {
        model: "virtio",
        bridge: "vmbr0",
        tag: 30,
        mtu: 1,
        firewall: true,
        macaddr: (rich.nics as Record<string, { macaddr: string }>).net0!.macaddr,
      },
      net1: {
        model: "e1000",
        bridge: "vmbr1",
        rate: 50,
        linkDown: true,
        macaddr: (rich.nics as Record<string, { macaddr: string }>).net1!.macaddr,
      },
    });
    assert.deepEqual(rich.disks, {
      scsi0: { storage: "local-lvm", size: "10G", backup: false, cache: "writeback", discard: "on", iothread: true },
      virtio1: { storage: "shared", size: "3G" },
    });
  });

  it("shows the spec's guests as they are live, and says which ones do not exist", async () => {
    const shown = await showSpecGuests(lab.client, desired(`${TWO_WEB}\n  - name: ghost\n    node: pve1\n`));
    // Sorted by vmid: web2 got an allocated vmid below web1's 201.
    assert.deepEqual(
      shown.vms.map((v) => v.name),
      ["web2", "web1"],
    );
    assert.deepEqual(shown.missing, ["ghost: does not exist"]);
    const web1 = shown.vms.find((v) => v.name === "web1")!;
    assert.equal(web1.power, "running");
    assert.deepEqual(web1.tags, ["production", "web"]);
  });
});
