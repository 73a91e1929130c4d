// The flags of `netbox sync`, `decommission` and `diff` narrow the config's `select:` against a
// real NetBox (simulator) answer: tags add up (a record needs all of them), a name narrows, and
// a cluster the config leaves out is refused before anything is read or changed.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { decommissionNetbox } from "../../src/app/netbox/decommission.js";
import { diffNetbox } from "../../src/app/netbox/diff.js";
import { parseNetboxConfig } from "../../src/sources/netbox/config.js";
import { SelectionOutsideConfig } from "../../src/sources/netbox/selection.js";
import { pvectl } from "../support/cli.js";
import { DEMO_CONFIG } from "./fixtures.js";
import { type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const SELECTED = `${DEMO_CONFIG}select:\n  clusters: [pve-lab]\n  tags: [web]\n`;

describe("netbox record selection: flags narrow the config", () => {
  let lab: NetboxLab;
  const dir = mkdtempSync(join(tmpdir(), "pvectl-netbox-select-"));
  const file = join(dir, "netbox.yaml");
  before(async () => {
    lab = await startNetboxLab(SELECTED);
    writeFileSync(file, SELECTED);
  });
  after(async () => {
    await lab.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("sync: the config's tag and a flag's tag must both match; a name narrows further", async () => {
    const web = await lab.sync({ planOnly: true });
    assert.deepEqual(web.records.map((r) => r.name).sort(), ["web-01", "web-02"]);
    assert.deepEqual((await lab.sync({ planOnly: true, selection: { tags: ["db"] } })).records, []);
    assert.deepEqual(
      (await lab.sync({ planOnly: true, selection: { names: ["web-02", "db-01"] } })).records.map((r) => r.name),
      ["web-02"],
    );
  });

  test("diff and decommission read the same narrowed records", async () => {
    const config = parseNetboxConfig(SELECTED, "netbox.yaml");
    const report = await diffNetbox({ config, netbox: lab.netbox, pveClient: () => lab.pve, selection: { tags: ["db"] } });
    assert.deepEqual(report.records, []);
    const diffed = await diffNetbox({ config, netbox: lab.netbox, pveClient: () => lab.pve });
    assert.deepEqual(diffed.records.map((r) => r.name).sort(), ["web-01", "web-02"]);
    await assert.rejects(
      decommissionNetbox({ config, netbox: lab.netbox, pveClient: () => lab.pve, selection: { clusters: ["pve-prod"] }, planOnly: true }),
      SelectionOutsideConfig,
    );
  });

  test("CLI: a cluster outside select.clusters is refused with what to do, and nothing is read", async () => {
    lab.nb.admin.clearRequests();
    const env = {
      NETBOX_URL: lab.nb.url,
      NETBOX_TOKEN: lab.nb.token,
      PROXMOX_HOST: lab.sim.url,
      PROXMOX_USER: "root@pam",
      PROXMOX_PASSWORD: lab.sim.rootPassword,
    };
    const run = await pvectl(["netbox", "sync", "-c", file, "--cluster", "pve-prod", "--plan-only"], env);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr.trim(),
      `error: --cluster pve-prod: not in select.clusters of ${file} (pve-lab); a flag can only narrow the configured selection\n  give one of pve-lab, or add it to select.clusters in ${file}`,
    );
    assert.deepEqual(
      lab.nb.admin.requests.filter((r) => r.path.includes("virtual-machines")),
      [],
    );
  });
});
