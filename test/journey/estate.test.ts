// The journey: one estate driven through the CLI as an operator runs it on the first days, with
// every capability at once (pools, a least-privilege token from `access needs`, a template and
// its linked clones in one spec, cloud-init, a container, a disk move, snapshots, a backup job,
// backup and restore, NetBox records with addresses per VLAN built by sync and by serve's
// webhook, disks by identity, decommission, the inventory through ansible-inventory).
// Root acts once, to grant; the generated token does everything else. Every command's exit code
// is the one CI would read, and the cluster is looked at after each.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { parse, stringify } from "yaml";
import type { SyncReport } from "../../src/app/netbox/sync.js";
import { NetboxClient } from "../../src/netbox/client.js";
import { ansibleEnv, ansibleMissing, run } from "../support/conformance.js";
import { day2Config, runDiskIdentityScenario } from "../netbox/disk-identity-lab.js";
import { addVlanNetworks, pointNetboxAt } from "../support/netbox-lab.js";
import { DAY_ONE, DAY_TWO, estateSpec, NETBOX_CONFIG, NETBOX_TOKEN, PLATFORM_ACCESS, TOKEN } from "./estate.js";
import { type Desk, expectExit, openDesk } from "./operator.js";

const WEBHOOK_SECRET = "journey-webhook-secret";
/** What a NetBox user's script does: a planned record with an interface (python3-pynetbox). */
const NEW_RECORD = [
  "import sys, pynetbox",
  "nb = pynetbox.api(sys.argv[1], token=sys.argv[2])",
  "cluster = nb.virtualization.clusters.get(name='pve-lab')",
  "platform = nb.dcim.platforms.get(slug='debian-13')",
  "vm = nb.virtualization.virtual_machines.create(name='svc-01', status='planned', cluster=cluster.id, platform=platform.id, vcpus=1, memory=1024, disk=8000)",
  "nb.virtualization.interfaces.create(virtual_machine=vm.id, name='eth0')",
  "print(vm.id)",
].join("\n");

type Row = { vmid: number; name?: string; node: string; status: string; pool?: string; type: string; template?: number };

describe("an operator's first days, every feature at once", { timeout: 900_000 }, () => {
  let desk: Desk;
  let spec: string;
  const token = (args: string[]) => desk.asToken(TOKEN, "deploy.token", args);
  const netbox = (args: string[]) => desk.asToken(NETBOX_TOKEN, "netbox.token", args);
  const guests = async () => (await desk.root.request("GET", "/cluster/resources", { type: "vm" })) as Row[];
  const guest = async (vmid: number) => (await guests()).find((g) => g.vmid === vmid);
  const config = async (vmid: number) => {
    const row = await guest(vmid);
    assert.ok(row, `guest ${vmid} exists`);
    return (await desk.root.request("GET", `/nodes/${row.node}/${row.type}/${vmid}/config`)) as Record<string, string | number>;
  };

  /**
   * What `access needs --format spec` says the token needs for `specFile` (snapshots, backups to
   * local and restores included), with the token and its user, applied by root beside the other
   * access files the operator keeps (access lists are managed whole).
   */
  const grant = async (specFile: string) => {
    const args = [
      "access",
      "needs",
      specFile,
      "--format",
      "spec",
      "--token",
      TOKEN,
      "--role",
      "TeamDeploy",
      "--snapshots",
      "--backup-storage",
      "local",
    ];
    const needs = expectExit(await desk.asRoot(args), 0, "access needs");
    const doc = parse(needs.stdout) as { access: Record<string, unknown> };
    const [user, name] = TOKEN.split("!") as [string, string];
    doc.access.users = [{ id: user }];
    doc.access.tokens = [{ user, name, secretFile: "./deploy.token" }];
    desk.write("access.yaml", stringify(doc));
    const files = ["access.yaml", ...(existsSync(`${desk.dir}/netbox-access.yaml`) ? ["netbox-access.yaml"] : [])];
    return expectExit(await desk.asRoot(["apply", ...files.flatMap((f) => ["-f", `${desk.dir}/${f}`]), "--yes"]), 0, "grant");
  };

  before(async () => {
    desk = await openDesk();
    spec = desk.write("estate.yaml", estateSpec(DAY_ONE));
  });
  after(async () => desk?.close());

  it("validate passes offline", async () => {
    expectExit(await desk.asRoot(["validate", spec]), 0, "validate");
  });

  it("root grants: the pools, then what `access needs --format spec` says the token needs", async () => {
    expectExit(await desk.asRoot(["apply", "-f", desk.write("platform.yaml", PLATFORM_ACCESS), "--yes"]), 0, "pools");
    const granted = await grant(spec);
    assert.doesNotMatch(granted.stdout, /nothing to do|no changes/i, "the summary of an apply that made objects says so");
    assert.match(desk.read("deploy.token"), /^[0-9a-f-]{36}\s*$/, "the secret is in the file pvectl wrote");
    const second = expectExit(await desk.asRoot(["plan", "-f", `${desk.dir}/access.yaml`, "--detailed-exitcode"]), 0, "access re-plan");
    assert.match(second.stdout, /no changes/);
    expectExit(await desk.asRoot(["access", "check", "--token", TOKEN, spec]), 0, "access check");
  });

  it("the token plans the whole estate in one plan (template and clones together): exit 2", async () => {
    const plan = expectExit(await token(["plan", spec, "--detailed-exitcode"]), 2, "first plan");
    for (const name of ["tpl-a", "a-app1", "a-app2", "a-db1", "b-web1", "b-cache1"])
      assert.match(plan.stdout, new RegExp(`^\\+ ${name} `, "m"));
    assert.match(plan.stdout, /team-b-nightly/);
  });

  it("the token applies it in one run: exit 0, every guest in its pool, running, clones linked", async () => {
    const apply = expectExit(await token(["apply", spec, "--yes", "--allow-restart"]), 0, "apply");
    assert.doesNotMatch(apply.stdout, /not converged|partial/);
    const rows = await guests();
    const byName = new Map(rows.map((g) => [g.name, g]));
    for (const [name, pool] of [
      ["tpl-a", "team-a"],
      ["a-app1", "team-a"],
      ["a-app2", "team-a"],
      ["a-db1", "team-a"],
      ["b-web1", "team-b"],
      ["b-cache1", "team-b"],
    ]) {
      assert.equal(byName.get(name)?.pool, pool, `${name} in ${pool}`);
    }
    for (const name of ["a-app1", "a-app2", "a-db1", "b-web1", "b-cache1"]) assert.equal(byName.get(name)?.status, "running", name);
    assert.equal(byName.get("tpl-a")?.template, 1);
    assert.match(String((await config(311)).scsi0), /base-9100-disk-\d+\/vm-311-disk/, "a linked clone of the template");
    assert.match(String((await config(311)).ipconfig0), /ip=10\.0\.10\.31\/24/);
    const jobs = (await desk.root.request("GET", "/cluster/backup")) as Array<{ id: string; pool?: string }>;
    assert.equal(jobs.find((j) => j.id === "team-b-nightly")?.pool, "team-b");
  });

  it("a second plan is empty: exit 0", async () => {
    const plan = expectExit(await token(["plan", spec, "--detailed-exitcode"]), 0, "second plan");
    assert.doesNotMatch(plan.stdout, /^[+~-] /m);
  });

  it("a hand-made drift is planned (exit 2) and repaired (exit 0)", async () => {
    const db = await guest(313);
    await desk.root.request("PUT", `/nodes/${db?.node}/qemu/313/config`, { memory: 8192 });
    const plan = expectExit(await token(["plan", spec, "--detailed-exitcode"]), 2, "drift plan");
    assert.match(plan.stdout, /memory: 8 GiB -> 4 GiB|memory.*8192.*4096/);
    expectExit(await token(["apply", spec, "--yes", "--allow-restart"]), 0, "repair");
    assert.equal(Number((await config(313)).memory), 4096);
    expectExit(await token(["plan", spec, "--detailed-exitcode"]), 0, "after repair");
  });

  it("day two: more cores and the data disk moved to a ZFS pool (granted first), in one apply", async () => {
    spec = desk.write("estate.yaml", estateSpec(DAY_TWO));
    // The data disk goes to a storage the token was never granted: the plan says so before anything runs.
    const refused = expectExit(await token(["plan", spec, "--detailed-exitcode"]), 1, "day-two plan before the grant");
    assert.match(refused.stdout, /lacks Datastore\.AllocateSpace on \/storage\/tank/);
    await grant(spec);
    expectExit(await token(["plan", spec, "--detailed-exitcode"]), 2, "day-two plan");
    expectExit(await token(["apply", spec, "--yes", "--allow-restart", "--allow-data-loss"]), 0, "day-two apply");
    const db = await config(313);
    assert.equal(Number(db.cores), 4);
    assert.match(String(db.scsi1), /^tank:vm-313-disk-\d+/);
    assert.equal(Object.keys(db).filter((k) => k.startsWith("unused")).length, 0, "the moved source is gone");
    expectExit(await token(["plan", spec, "--detailed-exitcode"]), 0, "after day two");
  });

  it("snapshots of team-a, a rollback of the database, and the snapshot list", async () => {
    expectExit(await token(["snapshot", "create", "before-upgrade", "--pool", "team-a", "--yes"]), 0, "snapshot create");
    const list = expectExit(await token(["snapshot", "list", "--pool", "team-a", "--json"]), 0, "snapshot list");
    const names = JSON.stringify(JSON.parse(list.stdout));
    for (const vmid of [311, 312, 313]) assert.match(names, new RegExp(`${vmid}`));
    // (PVE keeps `description` over a rollback: a hardware key shows it.)
    await desk.root.request("PUT", `/nodes/${(await guest(313))?.node}/qemu/313/config`, { memory: 8192 });
    expectExit(
      await token(["snapshot", "rollback", "before-upgrade", "--vmid", "313", "--allow-data-loss", "--allow-restart", "--start", "--yes"]),
      0,
      "rollback",
    );
    assert.equal(Number((await config(313)).memory), 4096, "the rollback undid the change");
    assert.equal((await guest(313))?.status, "running", "started again after the rollback");
    expectExit(
      await token(["snapshot", "delete", "before-upgrade", "--pool", "team-a", "--allow-data-loss", "--yes"]),
      0,
      "snapshot delete",
    );
  });

  it("backup of team-b and a restore over the guest, which stays in its pool", async () => {
    expectExit(await token(["backup", "run", "--pool", "team-b", "--storage", "local", "--yes"]), 0, "backup run");
    const list = expectExit(await token(["backup", "list", "--vmid", "321", "--json"]), 0, "backup list");
    const archive = (JSON.stringify(JSON.parse(list.stdout)).match(/local:backup\/vzdump-qemu-321-[^"]+/) ?? [])[0];
    assert.ok(archive, list.stdout);
    expectExit(await desk.asRoot(["backup", "status"]), 0, "backup status");
    // Restored over the guest itself (a new vmid would be outside the team's pool, where the token
    // holds nothing). PVE restores only over a stopped guest; pvectl has no stop command, so the
    // operator stops it as the token through the API (pvectl's client used as a library).
    const node = (await guest(321))?.node;
    const api = desk.tokenClient(TOKEN, "deploy.token");
    await api.waitForTask((await api.request("POST", `/nodes/${node}/qemu/321/status/stop`)) as string);
    await api.close();
    await desk.root.request("PUT", `/nodes/${(await guest(321))?.node}/qemu/321/config`, { description: "changed after the backup" });
    expectExit(await token(["restore", archive, "--vmid", "321", "--allow-data-loss", "--start", "--yes"]), 0, "restore");
    assert.equal((await config(321)).description, undefined, "the backup's config is back");
    assert.equal((await guest(321))?.pool, "team-b", "still in its pool");
    expectExit(await token(["plan", spec, "--detailed-exitcode"]), 0, "the restored guest matches the spec");
  });

  it("NetBox: root grants the builder's token what `access needs -c netbox.yaml` says; sync builds the planned records, diff is clean", async () => {
    const nbConfig = desk.write("netbox.yaml", NETBOX_CONFIG);
    const args = ["access", "needs", "-c", nbConfig, "--format", "spec", "--token", NETBOX_TOKEN, "--role", "NetboxBuild"];
    const doc = parse(expectExit(await desk.asRoot(args), 0, "access needs -c netbox.yaml").stdout) as { access: Record<string, unknown> };
    const [user, name] = NETBOX_TOKEN.split("!") as [string, string];
    doc.access.users = [{ id: user }];
    doc.access.tokens = [{ user, name, secretFile: "./netbox.token" }];
    // Access lists are managed whole, so the platform's access files are applied together.
    const files = ["-f", `${desk.dir}/access.yaml`, "-f", desk.write("netbox-access.yaml", stringify(doc))];
    const granted = expectExit(await desk.asRoot(["apply", ...files, "--yes"]), 0, "netbox grant");
    assert.doesNotMatch(granted.stdout, /^- /m, "the team's grants stay");
    expectExit(await desk.asRoot(["access", "check", "-c", nbConfig, "--token", NETBOX_TOKEN]), 0, "access check -c netbox.yaml");
    const sync = expectExit(await netbox(["netbox", "sync", "-c", nbConfig, "--json"]), 0, "netbox sync");
    const report = JSON.parse(sync.stdout) as { records: Array<{ name: string; vmid?: number; result: string }> };
    assert.ok(report.records.length > 0, sync.stdout);
    // Every record got an address from the prefix, and none got its gateway (the prefix's first).
    const nb = new NetboxClient({ url: desk.nb.url, token: desk.nb.token });
    const ips = (await nb.list("ipam/ip-addresses", {})) as Array<{ address: string; assigned_object_type?: string | null }>;
    await nb.close();
    const assigned = ips.filter((ip) => ip.assigned_object_type && ip.address.startsWith("10.20.0."));
    assert.ok(assigned.length > 0, JSON.stringify(ips));
    assert.deepEqual(
      assigned.filter((ip) => ip.address.startsWith("10.20.0.1/")),
      [],
      "never the gateway's address",
    );
    expectExit(await netbox(["netbox", "diff", "-c", nbConfig]), 0, "netbox diff right after a sync");
  });

  it("NetBox VLANs made with pynetbox: each NIC gets its own VLAN's address and gateway; a VLAN without a prefix is refused by name until it has one", async () => {
    const nbConfig = `${desk.dir}/netbox.yaml`;
    const vlans = await addVlanNetworks(desk.nb);
    const both = await netbox(["netbox", "sync", "-c", nbConfig, "--name", "app-01", "--name", "backup-01", "--json"]);
    expectExit(both, 1, "sync with a record on a VLAN without a prefix");
    const report = JSON.parse(both.stdout) as { records: Array<{ name: string; vmid?: number; result: string; errors: string[] }> };
    const app = report.records.find((r) => r.name === "app-01");
    assert.equal(app?.result, "staged", both.stdout);
    const backup = report.records.find((r) => r.name === "backup-01");
    assert.equal(backup?.result, "invalid");
    assert.match(backup?.errors.join() ?? "", /is on VLAN 40 \(backup\), which has no active IPv4 prefix in NetBox/);
    const appConfig = await config(Number(app?.vmid));
    assert.equal(appConfig.ipconfig0, "gw=10.10.0.1,ip=10.10.0.2/24", "VLAN 10's address and gateway");
    assert.equal(appConfig.ipconfig1, "gw=10.30.0.254,ip=10.30.0.1/24", "VLAN 30's address and its router, tagged gateway");
    // The operator adds VLAN 40's prefix (with its gateway): the record builds on the next run.
    desk.nb.admin.create("ipam/prefixes", {
      prefix: "10.40.0.0/24",
      vlan: vlans.vlans["40"],
      status: "active",
      custom_fields: { gateway: "10.40.0.1" },
    });
    const fixed = JSON.parse(
      expectExit(await netbox(["netbox", "sync", "-c", nbConfig, "--name", "backup-01", "--json"]), 0, "sync after the prefix").stdout,
    ) as typeof report;
    const built = fixed.records.find((r) => r.name === "backup-01");
    assert.equal(built?.result, "staged", JSON.stringify(fixed));
    assert.equal((await config(Number(built?.vmid))).ipconfig0, "gw=10.40.0.1,ip=10.40.0.2/24");
    expectExit(await netbox(["netbox", "diff", "-c", nbConfig]), 0, "netbox diff after the VLAN records");
  });

  it("NetBox disks by identity: deleting a record's first virtual disk removes that disk only (held without --allow-data-loss), never grows the OS disk", async () => {
    const day2 = desk.write("netbox-day2.yaml", day2Config(NETBOX_CONFIG));
    const expected = [0, 3, 0, 0, 0];
    await runDiskIdentityScenario(
      { nb: desk.nb, pve: desk.root },
      async ({ allowDataLoss }) => {
        const args = ["netbox", "sync", "-c", day2, "--name", "disk-01", "--json", ...(allowDataLoss ? ["--allow-data-loss"] : [])];
        return JSON.parse(expectExit(await netbox(args), expected.shift() ?? 0, `sync ${args.join(" ")}`).stdout) as SyncReport;
      },
      "disk-01",
    );
    assert.deepEqual(expected, [], "every sync of the scenario ran");
  });

  it("the inventory through Debian's ansible-inventory lists every guest the token sees", { skip: ansibleMissing() }, async () => {
    const script = desk.inventoryScript(TOKEN, "deploy.token");
    const inv = await run("ansible-inventory", ["-i", script, "--list"], ansibleEnv({}));
    assert.equal(inv.code, 0, inv.stderr);
    const hostvars = (JSON.parse(inv.stdout) as { _meta: { hostvars: Record<string, Record<string, unknown>> } })._meta.hostvars;
    for (const name of ["a-app1", "a-app2", "a-db1", "b-web1", "b-cache1"]) assert.ok(hostvars[name], `${name} in the inventory`);
    assert.equal(hostvars["a-app1"]?.ansible_host, "10.0.10.31");
  });

  it("NetBox serve: a record pynetbox creates as planned is built by the webhook it triggers, as the builder's token", async () => {
    const serve = desk.startAsToken(
      NETBOX_TOKEN,
      "netbox.token",
      ["netbox", "serve", "-c", `${desk.dir}/netbox.yaml`, "--listen", "127.0.0.1:0", "--reconcile", "0"],
      {
        NETBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    );
    try {
      const url = (await serve.waitFor(/"msg":"listening","url":"([^"]+)"/))[1];
      pointNetboxAt(desk.nb, String(url), WEBHOOK_SECRET);
      const made = await run("/usr/bin/python3", ["-c", NEW_RECORD, desk.nb.url, desk.nb.token], process.env);
      assert.equal(made.code, 0, made.stderr);
      const id = Number(made.stdout.trim());
      await serve.waitFor(new RegExp(`"msg":"record","record":${id},"name":"svc-01","result":"staged"`));
      const record = desk.nb.admin.get("virtualization/virtual-machines", id) ?? {};
      const vmid = Number((record.custom_fields as Record<string, unknown>).proxmox_vmid);
      assert.equal((await guest(vmid))?.name, "svc-01", "the guest the webhook built");
      const primary = desk.nb.admin.get("ipam/ip-addresses", Number((record.primary_ip4 as { id: number }).id)) ?? {};
      assert.match(String(primary.address), /^10\.20\.0\.(?!1\/)\d+\/24$/, "an address of the prefix, not its gateway");
      const health = (await (await fetch(`${url}/healthz`)).json()) as { ok: boolean };
      assert.equal(health.ok, true);
    } finally {
      assert.equal(await serve.stop(), 0, `serve stops cleanly on SIGTERM\n${serve.output()}`);
    }
    expectExit(await netbox(["netbox", "diff", "-c", `${desk.dir}/netbox.yaml`]), 0, "netbox diff after serve");
  });

  it("NetBox decommission as the builder's token: held without the flag (exit 3), then destroyed and released", async () => {
    const nbConfig = `${desk.dir}/netbox.yaml`;
    const [record] = desk.nb.admin.list("virtualization/virtual-machines", { name: "svc-01" });
    assert.ok(record);
    const vmid = Number((record.custom_fields as Record<string, unknown>).proxmox_vmid);
    desk.nb.admin.update("virtualization/virtual-machines", Number(record.id), { status: "decommissioning" });
    const held = expectExit(await netbox(["netbox", "decommission", "-c", nbConfig, "--yes"]), 3, "decommission without --allow-data-loss");
    assert.match(held.stdout + held.stderr, /allow-data-loss/);
    assert.equal((await guest(vmid))?.name, "svc-01", "held back: the guest is still there");
    expectExit(await netbox(["netbox", "decommission", "-c", nbConfig, "--allow-data-loss", "--yes"]), 0, "decommission");
    assert.equal(await guest(vmid), undefined, "the guest is destroyed");
    const after = desk.nb.admin.get("virtualization/virtual-machines", Number(record.id)) ?? {};
    assert.equal((after.status as { value: string }).value, "offline");
    assert.equal(after.primary_ip4, null, "its address is released");
    expectExit(await netbox(["netbox", "diff", "-c", nbConfig]), 0, "netbox diff after decommission");
  });

  it("the estate destroyed by the token: nothing left", async () => {
    // PVE refuses to destroy a template while its linked clones' disks exist: one run destroys
    // the clones first, then the template, and says so in the plan.
    const destroyed = expectExit(await token(["destroy", spec, "--allow-data-loss", "--allow-restart", "--yes"]), 0, "destroy");
    assert.match(destroyed.stdout, /destroyed after its linked clones a-app1, a-app2 in this run/);
    const left = (await guests()).filter((g) => [9100, 311, 312, 313, 321, 322].includes(g.vmid));
    assert.deepEqual(
      left.map((g) => g.vmid),
      [],
    );
  });
});
