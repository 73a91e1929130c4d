// A migration is checked before anything runs: the target must have the guest's bridges, the
// storages of its volumes, and for a running guest its memory free. Every refusal names what is
// missing and the guest; nothing moves.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { fastApply, type Lab, startLab } from "../support/engine-lab.js";

const guests = (target: string) => `
vms:
  - vmid: 610
    name: on-vmbr1
    node: ${target}
    power: stopped
    disks:
      scsi0: { storage: shared, size: 1G }
    nics:
      net0: { bridge: vmbr1 }
  - vmid: 611
    name: on-fast
    node: ${target === "pve1" ? "pve1" : "pve3"}
    power: stopped
    disks:
      scsi0: { storage: fast, size: 1G }
  - vmid: 612
    name: big
    node: ${target}
    power: running
    memory: 4096
    disks:
      scsi0: { storage: shared, size: 1G }
  - vmid: 613
    name: with-iso
    node: ${target}
    power: stopped
    disks:
      scsi0: { storage: shared, size: 1G }
    cdroms:
      ide2: { iso: "local:iso/debian-13-netinst.iso" }
`;

describe("migration preflight", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({
      config: {
        nodes: [{ name: "pve1", memory: 64 }, { name: "pve2", memory: 2, bridges: ["vmbr0"] }, "pve3"],
        storages: [
          { id: "local", type: "dir", content: "iso,vztmpl,backup,import" },
          { id: "local-lvm", type: "lvmthin", content: "images,rootdir" },
          { id: "shared", type: "nfs", content: "images,rootdir,iso", shared: true },
          { id: "fast", type: "lvmthin", content: "images,rootdir", nodes: ["pve1"] },
        ],
      },
    });
    const created = await planSpec(lab.client, parseSpec(guests("pve1"), "test.yaml"));
    const report = await applyPlan(lab.client, created, fastApply);
    assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
  });
  after(async () => lab.close());

  it("refuses a missing bridge, a missing storage and too little free memory on the target, naming each", async () => {
    const planned = await planSpec(lab.client, parseSpec(guests("pve2"), "test.yaml"));
    const problems = planned.plan.preflightErrors.filter((p) => p.kind === "migration");
    const of = (guest: string) => problems.filter((p) => p.guest === guest).map((p) => p.message);
    assert.match(of("on-vmbr1").join("\n"), /cannot migrate on-vmbr1 from pve1 to pve2: bridge vmbr1 of its NICs does not exist on pve2/);
    assert.match(
      of("on-fast").join("\n"),
      /cannot migrate on-fast from pve1 to pve3: storage fast, which holds its volumes, does not exist on pve3/,
    );
    assert.match(
      of("big").join("\n"),
      /cannot migrate big from pve1 to pve2: it runs with 4 GiB of memory and pve2 has [\d.]+ [KMG]?i?B free/,
    );
    assert.equal(problems.length, 3);
    await assert.rejects(applyPlan(lab.client, planned, fastApply), /preflight/i);
    const listed = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number; node: string }>;
    for (const vmid of [610, 611, 612]) assert.equal(listed.find((g) => g.vmid === vmid)?.node, "pve1");
  });

  it("a guest tied to its node cannot move: a plan error that says why (a CD-ROM image on node-local storage)", async () => {
    const planned = await planSpec(lab.client, parseSpec(guests("pve2"), "test.yaml"));
    const guest = planned.plan.guests.find((g) => g.key === "with-iso")!;
    assert.deepEqual(guest.steps, []);
    assert.match(
      guest.errors.join("\n"),
      /with-iso cannot move from pve1 to pve2: ide2 shows local:iso\/debian-13-netinst.iso, on node-local storage local \(PVE does not copy CD-ROM images\)/,
    );
  });
});
