// `pvectl netbox sync` as a user runs it: readable lines per record and a summary, `--json`
// for machines, exit code 1 when a record failed, and a clear message without a token.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { SyncReport } from "../../src/app/netbox/sync.js";
import { DEMO_CONFIG } from "./fixtures.js";
import { type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";
import { pvectlNodeArgs } from "../support/pvectl-command.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let lab: NetboxLab;
const dir = mkdtempSync(join(tmpdir(), "pvectl-netbox-cli-"));
const config = join(dir, "netbox.yaml");

before(async () => {
  lab = await startNetboxLab();
  writeFileSync(config, DEMO_CONFIG);
});
after(async () => {
  await lab.close();
  rmSync(dir, { recursive: true, force: true });
});

function pvectl(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, pvectlNodeArgs(args), {
    cwd: ROOT,
    env: {
      ...process.env,
      NO_COLOR: "1",
      PROXMOX_HOST: lab.sim.url,
      PROXMOX_USER: "root@pam",
      PROXMOX_PASSWORD: lab.sim.rootPassword,
      NETBOX_URL: lab.nb.url,
      NETBOX_TOKEN: lab.nb.token,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

test("pvectl netbox sync: readable output, --json, exit codes, missing token", async () => {
  const noToken = await pvectl(["netbox", "sync", "-c", config], { NETBOX_TOKEN: "" });
  assert.equal(noToken.code, 1);
  assert.equal(
    noToken.stderr.trim(),
    `error: no NetBox token\n  export NETBOX_TOKEN (a v1 key of 40 hex digits, or a v2 token nbt_<key>.<secret>), or set \`netbox.tokenFile\` in ${config}`,
  );

  // One record that cannot be built: the run builds the others and exits 1.
  const site = lab.nb.admin.idOf("dcim/sites", { slug: "lab" });
  lab.nb.admin.create("virtualization/virtual-machines", { name: "orphan", status: "planned", site, vcpus: 1, memory: 512, disk: 1024 });
  const readable = await pvectl(["netbox", "sync", "-c", config]);
  assert.equal(readable.code, 1, readable.stderr);
  const lines = readable.stdout.split("\n");
  assert.ok(lines.includes("+ web-01 (new vmid) on pve1"), readable.stdout);
  assert.ok(
    lines.some((l) =>
      /^staged {2}web-01 \(NetBox id 1\): vm \d+ on pve1 \(created\); wrote proxmox_vmid=\d+, eth0 MAC [0-9A-F:]{17}, eth0 IPv4 (10\.20\.0\.\d+\/24) \(VLAN 20 \(servers\)\), primary IPv4 \1, status staged$/.test(
        l,
      ),
    ),
    readable.stdout,
  );
  assert.ok(
    lines.includes(
      "invalid orphan (NetBox id 4): has no cluster; assign it to one of the configured clusters (pve-lab); has no platform; set one in NetBox or `defaults.platform` (configured: debian-13, ubuntu-24-04, windows-2022) (status stays planned)",
    ),
    readable.stdout,
  );
  assert.ok(lines.includes("3 staged, 0 planned only, 0 held back, 0 failed, 1 invalid"), readable.stdout);
  assert.ok(!readable.stdout.includes(lab.nb.token) && !readable.stderr.includes(lab.nb.token));

  const json = await pvectl(["netbox", "sync", "-c", config, "--json"]);
  assert.equal(json.code, 1);
  const report = JSON.parse(json.stdout) as SyncReport;
  assert.deepEqual(
    report.records.map((r) => [r.name, r.result]),
    [["orphan", "invalid"]],
  );
  assert.equal(report.ok, false);
});

test("pvectl netbox decommission without --yes and without a terminal is refused before anything is read", async () => {
  lab.nb.admin.clearRequests();
  const refused = await pvectl(["netbox", "decommission", "-c", config, "--allow-data-loss"]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /refusing to decommission without confirmation and there is no terminal to ask on/);
  assert.match(refused.stderr, /--plan-only, then run again with --yes/);
  assert.deepEqual(lab.nb.admin.requests, []);
});

test("pvectl netbox serve refuses to start without a webhook secret, and a bad --listen is a usage error", async () => {
  const noSecret = await pvectl(["netbox", "serve", "-c", config, "--listen", "0"], { NETBOX_WEBHOOK_SECRET: "" });
  assert.equal(noSecret.code, 1);
  assert.match(noSecret.stderr, /no webhook secret .*\n {2}export NETBOX_WEBHOOK_SECRET \(or give --secret-file\)/);
  const badListen = await pvectl(["netbox", "serve", "-c", config, "--listen", "nowhere:http"]);
  assert.notEqual(badListen.code, 0);
  assert.match(badListen.stderr, /--listen.*give a port \(8080\), :port \(every interface\) or host:port/s);
});

test("pvectl netbox decommission: held back without --allow-data-loss exits 3, as sync does; the help says so", async () => {
  const web = lab.nb.admin.list("virtualization/virtual-machines", { name: "web-02" })[0]!;
  if ((web.status as { value: string }).value === "planned")
    assert.equal((await pvectl(["netbox", "sync", "-c", config, "--name", "web-02"])).code, 0);
  lab.nb.admin.update("virtualization/virtual-machines", Number(web.id), { status: "decommissioning" });
  const held = await pvectl(["netbox", "decommission", "-c", config, "--yes", "--name", "web-02"]);
  assert.equal(held.code, 3, held.stdout + held.stderr);
  assert.match(held.stdout, /^held {4}web-02 \(NetBox id \d+\): held back: .*needs --allow-data-loss\) \(status stays decommissioning\)$/m);
  const done = await pvectl(["netbox", "decommission", "-c", config, "--yes", "--name", "web-02", "--allow-data-loss"]);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.match(done.stdout, /^offline +web-02 \(NetBox id \d+\): guest destroyed/m);
  for (const command of ["sync", "decommission"]) {
    const help = await pvectl(["netbox", command, "--help"]);
    assert.match(help.stdout, /Exit codes: 0 .*\n?.*1 .*failed.*\n?.*3 .*held back/s, `${command} --help`);
  }
});
