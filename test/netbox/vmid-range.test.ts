// vmid ranges and quarantine: records of a cluster with `vmidRange` get ids from it (lowest
// free first, skipping ids in use); an id freed by decommission is not handed out again while
// the quarantine lasts, and is once it is over; a full range fails the records with a message
// saying what to do; a reversed range or a bad duration is refused in the config.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { decommissionNetbox } from "../../src/app/netbox/decommission.js";
import { parseNetboxConfig } from "../../src/sources/netbox/config.js";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { FAST_APPLY, type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";
import { pynetboxRead } from "./pynetbox-read.js";

const VMS = "virtualization/virtual-machines";
const ranged = (range: string, quarantine = "1h") =>
  DEMO_CONFIG.replace("    bridge: vmbr0\n", `    bridge: vmbr0\n    vmidRange: ${range}\n`) + `vmidQuarantine: ${quarantine}\n`;

function vmids(lab: NetboxLab): Record<string, number> {
  return Object.fromEntries(lab.nb.admin.list(VMS).map((v) => [String(v.name), Number(obj(v.custom_fields).proxmox_vmid)]));
}

function newRecord(lab: NetboxLab, name: string): void {
  const like = lab.nb.admin.list(VMS, { name: "web-01" })[0]!;
  lab.nb.admin.create(VMS, {
    name,
    status: "planned",
    site: obj(like.site).id,
    cluster: obj(like.cluster).id,
    platform: obj(like.platform).id,
    vcpus: 1,
    memory: 512,
    disk: 4096,
  });
}

async function retire(lab: NetboxLab, name: string): Promise<void> {
  const vm = lab.nb.admin.list(VMS, { name })[0]!;
  lab.nb.admin.update(VMS, Number(vm.id), { status: "decommissioning" });
  const done = await decommissionNetbox({
    config: lab.config,
    netbox: lab.netbox,
    pveClient: () => lab.pve,
    apply: FAST_APPLY,
    allowDataLoss: true,
  });
  assert.equal(done.ok, true, JSON.stringify(done.records));
}

describe("netbox vmid ranges", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("ids come from the range, skipping ids in use; a freed id waits out its quarantine", async () => {
    lab = await startNetboxLab(ranged("[1000, 1009]"));
    await lab.pve.request("POST", "/nodes/pve1/qemu", { vmid: 1001, name: "someone-elses", memory: 256 });
    const first = await lab.sync();
    assert.equal(first.ok, true, JSON.stringify(first.records));
    assert.deepEqual(Object.values(vmids(lab)).sort(), [1000, 1002, 1003]);
    assert.ok(Object.keys(first.plans)[0]?.endsWith("(vmids 1000-1009)"));

    const freed = vmids(lab)["web-01"]!;
    await retire(lab, "web-01");
    newRecord(lab, "web-03");
    assert.equal((await lab.sync()).ok, true);
    assert.equal(vmids(lab)["web-03"], 1004, `the freed ${freed} stays in quarantine`);
    // The freed id is noted on the NetBox cluster, where any client (and every runner) reads it.
    const notes = (await pynetboxRead(
      lab.nb,
      `[j.comments for j in nb.extras.journal_entries.filter(assigned_object_type="virtualization.cluster")]`,
    )) as string[];
    assert.ok(
      notes.some((n) => n.startsWith(`pvectl freed vmid ${freed} (web-01)`)),
      JSON.stringify(notes),
    );

    // With the quarantine over (0: none), the lowest free id is used again.
    newRecord(lab, "web-04");
    assert.equal((await lab.sync({ config: parseNetboxConfig(ranged("[1000, 1009]", "0"), "netbox.yaml") })).ok, true);
    assert.equal(vmids(lab)["web-04"], freed);
  });

  test("a full range fails the records it cannot place, saying what to do", async () => {
    lab = await startNetboxLab(ranged("[1000, 1001]"));
    const report = await lab.sync();
    assert.equal(report.ok, false);
    const failed = report.records.filter((r) => r.result === "failed");
    assert.equal(failed.length, 1, JSON.stringify(report.records));
    assert.match(
      failed[0]?.errors.join(" ") ?? "",
      /no free vmid in the range 1000-1001: every id is used; widen the range or shorten the quarantine/,
    );
  });

  test("a reversed range and a bad quarantine are refused with their location", () => {
    assert.throws(
      () => parseNetboxConfig(ranged("[1999, 1000]"), "netbox.yaml"),
      /clusters\.pve-lab\.vmidRange.*starts above its end \(1999 > 1000\)/s,
    );
    assert.throws(() => parseNetboxConfig(ranged("[1000, 1999]", "soon"), "netbox.yaml"), /vmidQuarantine.*`soon` is not a duration/s);
  });
});
