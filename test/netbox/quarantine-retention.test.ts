// The vmid quarantine lasts at least as long as the backup retention by default, so a new guest
// does not take a vmid whose old archives are still kept; a configured shorter one is used as
// written, with a warning saying why it is too short.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { decommissionNetbox } from "../../src/app/netbox/decommission.js";
import { quarantineSpans, retentionSpanMs } from "../../src/app/netbox/quarantine-retention.js";
import { vmidsInQuarantine } from "../../src/app/netbox/vmid-quarantine.js";
import { parseNetboxConfig } from "../../src/sources/netbox/config.js";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { FAST_APPLY, type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";
const DAY = 86_400_000;

describe("vmid quarantine and backup retention", () => {
  let lab: NetboxLab | undefined;
  afterEach(() => lab?.close());

  test("keep-* options as the longest time they keep an archive", () => {
    assert.deepEqual(retentionSpanMs("keep-daily=7,keep-weekly=4"), { ms: 28 * DAY, key: "keep-weekly=4" });
    assert.deepEqual(retentionSpanMs("keep-last=3"), { ms: 3 * DAY, key: "keep-last=3" });
    assert.equal(retentionSpanMs("keep-all=1"), undefined);
  });

  test("by default a freed vmid stays out as long as the backup jobs keep archives; a shorter configured one warns", async () => {
    const l = await startNetboxLab();
    lab = l;
    assert.equal((await l.sync()).ok, true);
    await l.pve.request("POST", "/cluster/backup", {
      id: "nightly",
      schedule: "daily",
      storage: "local",
      all: 1,
      "prune-backups": "keep-daily=7",
    });
    const web = l.nb.admin.list(VMS, { name: "web-01" })[0]!;
    const vmid = Number(obj(web.custom_fields).proxmox_vmid);
    l.nb.admin.update(VMS, Number(web.id), { status: "decommissioning" });
    const retired = await decommissionNetbox({
      config: l.config,
      netbox: l.netbox,
      pveClient: () => l.pve,
      apply: FAST_APPLY,
      allowDataLoss: true,
    });
    assert.equal(retired.ok, true, JSON.stringify(retired.records));

    // Two days later: past the 24h default, within the 7 days the job keeps archives.
    const later = Date.now() + 2 * DAY;
    const { spans, warnings } = await quarantineSpans(l.config, [""], () => l.pve);
    assert.deepEqual(warnings, []);
    assert.deepEqual((await vmidsInQuarantine(l.netbox, l.config, later, spans)).get(""), [vmid]);
    assert.equal(
      (await vmidsInQuarantine(l.netbox, l.config, Date.now() + 8 * DAY, spans)).get(""),
      undefined,
      "over once the retention is",
    );

    // A configured quarantine is used as written; shorter than the retention, it warns.
    l.config = parseNetboxConfig(`${DEMO_CONFIG}vmidQuarantine: 1h\n`, "netbox.yaml");
    const short = await quarantineSpans(l.config, [""], () => l.pve);
    assert.equal(short.spans.get(""), 3_600_000);
    assert.match(
      short.warnings.join("\n"),
      /vmidQuarantine 1 h is shorter than the backup retention \(168 h: backup job nightly keeps archives keep-daily=7\)/,
    );
    // A run that selects a record (sync warns only when it plans something).
    const db = l.nb.admin.list(VMS, { name: "db-01" })[0]!;
    l.nb.admin.update(VMS, Number(db.id), { status: "planned" });
    const report = await l.sync({ config: l.config, planOnly: true });
    assert.match((report.warnings ?? []).join("\n"), /vmidQuarantine 1 h is shorter than the backup retention/);
  });
});
