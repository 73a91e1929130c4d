// What a decommission's destroy takes with it and what it leaves, said in the plan for that
// guest (qemu-server's destroy with purge): its snapshots go with its volumes, purge edits the
// backup jobs that name its vmid and removes its HA resource, its backup archives stay, and a
// volume of its vmid that its config does not reference stays.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { decommissionNetbox } from "../../src/app/netbox/decommission.js";
import { renderPlan } from "../../src/cli/render/plan.js";
import { obj } from "../support/netbox-http.js";
import { FAST_APPLY, type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";

describe("netbox decommission: the destroy step says what goes and what stays", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("snapshots, backup jobs, HA resource, archives kept, unreferenced volume kept", async () => {
    lab = await startNetboxLab();
    assert.equal((await lab.sync()).ok, true);
    const web = lab.nb.admin.list(VMS, { name: "web-01" })[0]!;
    const other = lab.nb.admin.list(VMS, { name: "web-02" })[0]!;
    const vmid = Number(obj(web.custom_fields).proxmox_vmid);
    const otherVmid = Number(obj(other.custom_fields).proxmox_vmid);
    const pve = lab.pve;
    await pve.request("POST", `/nodes/pve1/qemu/${vmid}/snapshot`, { snapname: "before-upgrade" });
    await pve.request("POST", "/cluster/backup", { id: "only-web", schedule: "daily", storage: "local", vmid: String(vmid) });
    await pve.request("POST", "/cluster/backup", { id: "webs", schedule: "daily", storage: "local", vmid: `${vmid},${otherVmid}` });
    await pve.request("POST", "/cluster/backup", { id: "others", schedule: "daily", storage: "local", vmid: String(otherVmid) });
    await pve.request("POST", "/cluster/ha/resources", { sid: `vm:${vmid}`, state: "stopped" });
    await pve.request("POST", "/nodes/pve1/vzdump", { vmid: String(vmid), storage: "local", mode: "snapshot" });
    await pve.request("POST", "/nodes/pve1/vzdump", { vmid: String(vmid), storage: "local", mode: "snapshot" });
    await pve.request("POST", "/nodes/pve1/storage/local-lvm/content", { vmid, filename: `vm-${vmid}-disk-9`, size: "1G" });
    lab.nb.admin.update(VMS, Number(web.id), { status: "decommissioning" });

    const report = await decommissionNetbox({
      config: lab.config,
      netbox: lab.netbox,
      pveClient: () => pve,
      apply: FAST_APPLY,
      planOnly: true,
    });
    const text = renderPlan(Object.values(report.plans)[0]!);
    assert.match(text, /snapshot before-upgrade goes with the volumes/);
    assert.match(text, /purge deletes backup job only-web \(it names only this guest\)/);
    assert.match(text, new RegExp(`purge removes vmid ${vmid} from backup job webs`));
    assert.doesNotMatch(text, /backup job others/);
    assert.match(text, new RegExp(`purge removes HA resource vm:${vmid}`));
    assert.match(text, /keeps its 2 backup archives \(local\)/);
    assert.match(text, new RegExp(`keeps local-lvm:vm-${vmid}-disk-9: .*not referenced`));

    // A guest with none of these gets none of the notes.
    lab.nb.admin.update(VMS, Number(web.id), { status: "active" });
    lab.nb.admin.update(VMS, Number(other.id), { status: "decommissioning" });
    const plain = await decommissionNetbox({
      config: lab.config,
      netbox: lab.netbox,
      pveClient: () => pve,
      apply: FAST_APPLY,
      planOnly: true,
    });
    const plainText = renderPlan(Object.values(plain.plans)[0]!);
    assert.doesNotMatch(plainText, /snapshot|HA resource|archive|not referenced/);
    assert.match(plainText, new RegExp(`purge removes vmid ${otherVmid} from backup job webs`));
    assert.match(plainText, /purge deletes backup job others/);
  });
});
