// A NetBox record whose proxmox_vmid custom field names a running guest pvectl did not create
// (prod-db, made by another team) must not hijack it: sync leaves the guest as it is (name,
// tags, NIC), keeps the record `planned` and says why in the report and the journal, unless
// the NetBox config says `adopt: true`.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";
const PROD_DB = {
  vmid: 555,
  name: "prod-db",
  tags: "db;prod",
  memory: 4096,
  net0: "virtio=BC:24:11:55:55:55,bridge=vmbr1,tag=99",
  start: 1,
};

async function startWithForeignGuest(config = DEMO_CONFIG): Promise<{ lab: NetboxLab; recordId: number }> {
  const lab = await startNetboxLab(config);
  await lab.pve.waitForTask((await lab.pve.request("POST", "/nodes/pve1/qemu", PROD_DB)) as string);
  const record = lab.nb.admin.list(VMS, { name: "web-01" })[0] as Record<string, unknown>;
  const recordId = Number(record.id);
  lab.nb.admin.update(VMS, recordId, { custom_fields: { ...obj(record.custom_fields), proxmox_vmid: PROD_DB.vmid } });
  return { lab, recordId };
}

describe("netbox sync and guests pvectl did not create", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("a record naming a foreign guest's vmid is refused: guest untouched, record stays planned, journal says why", async () => {
    const started = await startWithForeignGuest();
    lab = started.lab;
    const report = await lab.sync({ selection: { names: ["web-01"] } });
    const outcome = report.records[0]!;
    assert.notEqual(outcome.result, "staged");
    assert.equal(outcome.status, "planned");
    assert.match(
      outcome.errors.join("\n"),
      /vmid 555 is an existing guest that pvectl did not create \(name prod-db, node pve1, tags: db;prod/,
    );
    assert.match(outcome.errors.join("\n"), /adopt: true` in the NetBox config/);

    const config = (await lab.pve.request("GET", "/nodes/pve1/qemu/555/config")) as Record<string, string | number>;
    assert.equal(config.name, "prod-db", "not renamed");
    assert.equal(config.tags, "db;prod", "tags untouched");
    assert.equal(config.net0, PROD_DB.net0, "NIC untouched (bridge, VLAN, MAC)");
    const status = (await lab.pve.request("GET", "/nodes/pve1/qemu/555/status/current")) as { status: string };
    assert.equal(status.status, "running");

    const record = lab.nb.admin.get(VMS, started.recordId) ?? {};
    assert.equal(obj(record.status).value, "planned", "not staged");
    const notes = lab.nb.admin.list("extras/journal-entries", { assigned_object_id: String(started.recordId) });
    assert.ok(
      notes.some((n) => /did not create/.test(String(n.comments))),
      `a journal entry says why: ${JSON.stringify(notes.map((n) => n.comments))}`,
    );
  });

  test("with `adopt: true` in the NetBox config the plan adopts it, tagging it first", async () => {
    lab = (await startWithForeignGuest(`${DEMO_CONFIG}adopt: true\n`)).lab;
    const report = await lab.sync({ selection: { names: ["web-01"] }, planOnly: true });
    const plan = Object.values(report.plans)[0]!;
    assert.deepEqual(
      plan.preflightErrors.filter((p) => p.kind === "adoption"),
      [],
    );
    assert.equal(plan.guests[0]!.steps[0]?.action, "adopt");
  });
});
