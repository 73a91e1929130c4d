// Day 2, a built record whose guest vanished: building it again makes a blank guest (empty
// disk, the installer ISO, the old MAC), not the old one back, so sync refuses it as a plan
// error naming the way out; `rebuild: [name]` (CLI --rebuild NAME) asks for exactly that.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";
const DAY2 = `${DEMO_CONFIG}select:\n  status: [planned, staged, active]\n`;

describe("netbox sync: a built record whose guest is gone", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("is a plan error, not a blank rebuild, unless the operator asks for the rebuild", async () => {
    lab = await startNetboxLab(DAY2);
    assert.equal((await lab.sync()).ok, true);
    const web = lab.nb.admin.list(VMS, { name: "web-01" })[0]!;
    const vmid = Number(obj(web.custom_fields).proxmox_vmid);
    lab.nb.admin.update(VMS, Number(web.id), { status: "active" });
    await lab.pve.request("DELETE", `/nodes/pve1/qemu/${vmid}`);

    for (const planOnly of [true, false]) {
      const report = await lab.sync({ planOnly });
      const outcome = report.records.find((r) => r.name === "web-01");
      assert.equal(outcome?.result, "failed", JSON.stringify(outcome));
      assert.match(outcome?.errors.join(" ") ?? "", new RegExp(`active.*vmid ${vmid}.*gone.*blank.*--rebuild web-01`));
      assert.equal((await lab.pveGuests()).has("web-01"), false, "nothing was built");
      assert.equal(obj(lab.nb.admin.get(VMS, Number(web.id))?.status).value, "active");
      // The other records converge as usual.
      assert.deepEqual(
        report.records.filter((r) => r.name !== "web-01").map((r) => r.result),
        planOnly ? ["planned", "planned"] : ["converged", "converged"],
      );
    }

    const rebuilt = await lab.sync({ rebuild: ["web-01"] });
    const outcome = rebuilt.records.find((r) => r.name === "web-01");
    assert.equal(outcome?.result, "converged", JSON.stringify(outcome));
    assert.equal((await lab.pveGuests()).has("web-01"), true);
  });
});
