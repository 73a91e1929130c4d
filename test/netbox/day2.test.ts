// Day 2: with `select.status: [planned, staged, active]`, sync converges records already built
// with the same guard rails as apply. A change that needs a restart is held back (the record
// keeps its status, a journal entry says what waits and which flag releases it); with the flag
// it runs and the record keeps `active`; a rerun with nothing to do writes nothing at all.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { FAST_APPLY, type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";
const DAY2 = `${DEMO_CONFIG}select:\n  status: [planned, staged, active]\n`;

function journal(lab: NetboxLab, vmId: unknown): { kind: string; comments: string }[] {
  return lab.nb.admin
    .list("extras/journal-entries", { assigned_object_id: String(vmId) })
    .map((j) => ({ kind: String(obj(j.kind).value), comments: String(j.comments) }));
}

describe("netbox sync, day 2", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("a built record converges with the guard rails; its status is kept; an empty rerun writes nothing", async () => {
    lab = await startNetboxLab(DAY2);
    assert.equal((await lab.sync()).ok, true);
    const web = lab.nb.admin.list(VMS, { name: "web-01" })[0]!;
    const vmid = Number(obj(web.custom_fields).proxmox_vmid);
    await lab.pve.request("POST", `/nodes/pve1/qemu/${vmid}/status/start`);
    lab.nb.admin.update(VMS, Number(web.id), { status: "active", memory: 4096 });
    const notes = journal(lab, web.id).length;

    const held = await lab.sync();
    const outcome = held.records.find((r) => r.name === "web-01");
    assert.equal(outcome?.result, "held", JSON.stringify(outcome));
    assert.equal(outcome?.status, "active");
    const waiting = journal(lab, web.id).at(-1);
    assert.equal(waiting?.kind, "warning");
    assert.match(waiting?.comments ?? "", /^pvectl netbox sync: changes wait, held back: .*memory.*--allow-restart/);
    assert.equal(obj(lab.nb.admin.get(VMS, Number(web.id))?.status).value, "active");

    const done = await lab.sync({ apply: { ...FAST_APPLY, allowRestart: true } });
    const converged = done.records.find((r) => r.name === "web-01");
    assert.equal(converged?.result, "converged", JSON.stringify(converged));
    assert.equal(converged?.status, "active");
    const config = (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as Record<string, unknown>;
    assert.equal(Number(config.memory), 4096);
    assert.equal(obj(lab.nb.admin.get(VMS, Number(web.id))?.status).value, "active");
    assert.match(journal(lab, web.id).at(-1)?.comments ?? "", /^pvectl converged vm \d+ on pve1 \(changed\)/);
    assert.equal(journal(lab, web.id).length, notes + 2);

    lab.nb.admin.clearRequests();
    const again = await lab.sync();
    assert.deepEqual(
      again.records.map((r) => r.result),
      again.records.map(() => "converged"),
    );
    // Only the run's own claim on each record (record-claims.ts): created, then deleted.
    const writes = lab.nb.admin.requests.filter((r) => r.method !== "GET" && !r.path.startsWith("/api/extras/journal-entries/"));
    assert.deepEqual(writes, [], "an empty day-2 run writes nothing to NetBox but its transient claims");
    assert.deepEqual(
      lab.nb.admin.list("extras/journal-entries").filter((e) => String(e.comments).startsWith("pvectl claim")),
      [],
      "claims released",
    );
  });
});
