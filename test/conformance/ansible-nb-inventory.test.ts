// The seed article's inventory, netbox.netbox.nb_inventory from Debian's ansible, against the
// NetBox simulator: NetBox records in clusters with statuses planned/staged/active become the
// groups the article's play selects with `cluster_pve:&status_planned`. After `pvectl netbox
// sync` builds the planned ones, the same inventory shows them staged, and pvectl's own
// inventory of the PVE simulator (NetBox facts keyed as cluster_*/status_*) lists exactly the
// guests that were built, in the same groups.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type NetboxSimAdmin, seedDemo } from "../../src/netbox/sim/index.js";
import { DEMO_CONFIG } from "../netbox/fixtures.js";
import { type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";
import { REPO_ROOT, ansibleEnv, run } from "../support/conformance.js";
import { articleNetboxYml, nbInventoryMissing } from "./nb-inventory.js";
import { pvectlNodeArgs } from "../support/pvectl-command.js";

const missing = nbInventoryMissing();
let lab: NetboxLab;
let dir: string;
let env: NodeJS.ProcessEnv;

interface Inventory {
  _meta: { hostvars: Record<string, Record<string, unknown>> };
  [group: string]: { hosts?: string[]; children?: string[] } | Inventory["_meta"];
}

/** The demo records in a cluster named as the article's (`pve`), plus records further along and one elsewhere. */
function seed(admin: NetboxSimAdmin): void {
  seedDemo(admin); // web-01, web-02, db-01: planned
  const pve = admin.idOf("virtualization/clusters", { name: "pve-lab" });
  admin.update("virtualization/clusters", pve, { name: "pve" });
  const site = admin.idOf("dcim/sites", { slug: "lab" });
  const type = admin.idOf("virtualization/cluster-types", { slug: "proxmox-ve" });
  const dr = admin.create("virtualization/clusters", { name: "dr", type, scope_type: "dcim.site", scope_id: site });
  const vm = (name: string, status: string, cluster: number) =>
    admin.create("virtualization/virtual-machines", { name, status, site, cluster, vcpus: 1, memory: 1024 });
  vm("mail-01", "staged", pve);
  vm("dns-01", "active", pve);
  vm("dr-01", "planned", Number(dr.id));
}

const sorted = (xs: readonly string[] | undefined) => [...(xs ?? [])].sort();

async function nbInventory(): Promise<Inventory> {
  const result = await run("ansible-inventory", ["-i", join(dir, "netbox.yml"), "--list"], env);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr.trim(), "", "the plugin ran cleanly: no warning");
  return JSON.parse(result.stdout) as Inventory;
}

const hostsOf = (inv: Inventory, group: string) => sorted((inv[group] as { hosts?: string[] } | undefined)?.hosts);

/** The hosts the article's play would run on: Ansible's own resolution of its host pattern. */
async function articlePattern(): Promise<string[]> {
  const result = await run("ansible", ["cluster_pve:&status_planned", "-i", join(dir, "netbox.yml"), "--list-hosts"], env);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  return sorted(
    result.stdout
      .split("\n")
      .slice(1)
      .map((l) => l.trim())
      .filter(Boolean),
  );
}

before(async () => {
  if (missing) return;
  lab = await startNetboxLab(DEMO_CONFIG.replace("pve-lab:", "pve:"), {}, { seed });
  dir = await mkdtemp(join(tmpdir(), "pvectl-nb-inventory-"));
  await writeFile(join(dir, "netbox.yml"), articleNetboxYml(lab.nb.url, lab.nb.token));
  // The plugin caches NetBox's schema next to Ansible's local tmp: keep it in this test's directory.
  env = ansibleEnv({ ANSIBLE_LOCAL_TEMP: join(dir, "tmp"), ANSIBLE_INVENTORY_UNPARSED_FAILED: "True" });
});

after(async () => {
  await lab?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("the article's nb_inventory groups the NetBox records by cluster and status", { skip: missing }, async () => {
  const inv = await nbInventory();
  assert.deepEqual(hostsOf(inv, "cluster_pve"), ["db-01", "dns-01", "mail-01", "web-01", "web-02"]);
  assert.deepEqual(hostsOf(inv, "cluster_dr"), ["dr-01"]);
  assert.deepEqual(hostsOf(inv, "status_planned"), ["db-01", "dr-01", "web-01", "web-02"]);
  assert.deepEqual(hostsOf(inv, "status_staged"), ["mail-01"]);
  assert.deepEqual(hostsOf(inv, "status_active"), ["dns-01"]);
  const web = inv._meta.hostvars["web-01"];
  assert.deepEqual(web?.status, { value: "planned", label: "Planned" });
  assert.equal(web?.is_virtual, true);
  assert.equal(web?.memory, 2048);
  assert.deepEqual(web?.platforms, ["debian-13"]);
  assert.deepEqual(web?.config_context, [{}]);
  assert.deepEqual(await articlePattern(), ["db-01", "web-01", "web-02"]);
});

test("after pvectl netbox sync, the built records are staged in nb_inventory and are the guests pvectl's inventory lists", {
  skip: missing,
}, async () => {
  const report = await lab.sync({ selection: { clusters: ["pve"] } });
  assert.deepEqual(report.records.map((r) => `${r.name} ${r.result}`).sort(), ["db-01 staged", "web-01 staged", "web-02 staged"]);
  const inv = await nbInventory();
  assert.deepEqual(hostsOf(inv, "status_planned"), ["dr-01"]);
  assert.deepEqual(hostsOf(inv, "status_staged"), ["db-01", "mail-01", "web-01", "web-02"]);
  assert.deepEqual(await articlePattern(), [], "a rerun of the article's play selects nothing");

  // pvectl's own inventory of the PVE side, with NetBox facts keyed into the article's group names.
  const pveYaml = join(dir, "pve.yaml");
  await writeFile(
    pveYaml,
    [
      "netbox:",
      `  url: ${lab.nb.url}`,
      "keyedGroups:",
      "  - { key: netbox_cluster, prefix: cluster }",
      "  - { key: netbox_status, prefix: status }",
      "",
    ].join("\n"),
  );
  const pvectl = await run(
    "node",
    pvectlNodeArgs(["inventory", "--config", pveYaml, "--list"]),
    {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PROXMOX_HOST: lab.sim.url,
      PROXMOX_USER: "root@pam",
      PROXMOX_PASSWORD: lab.sim.rootPassword,
      NETBOX_TOKEN: lab.nb.token,
    },
    REPO_ROOT,
  );
  assert.equal(pvectl.code, 0, pvectl.stderr);
  const own = JSON.parse(pvectl.stdout) as Inventory;
  const built = ["db-01", "web-01", "web-02"];
  assert.deepEqual(sorted(Object.keys(own._meta.hostvars)), built, "the guests PVE has are the records sync built");
  // Each guest sits in the same groups as its NetBox record in nb_inventory.
  assert.deepEqual(hostsOf(own, "cluster_pve"), built);
  assert.deepEqual(hostsOf(own, "status_staged"), built);
  for (const host of built) assert.ok(hostsOf(inv, "cluster_pve").includes(host) && hostsOf(inv, "status_staged").includes(host));
});
