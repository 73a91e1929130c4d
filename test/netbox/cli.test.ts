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
import { type NetboxLab, startNetboxLab } from "./lab.js";

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
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
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
    `error: no NetBox token: export NETBOX_TOKEN (a v1 key of 40 hex digits, or a v2 token nbt_<key>.<secret>), or set \`netbox.tokenFile\` in ${config}`,
  );

  // One record that cannot be built: the run builds the others and exits 1.
  const site = lab.nb.admin.idOf("dcim/sites", { slug: "lab" });
  lab.nb.admin.create("virtualization/virtual-machines", { name: "orphan", status: "planned", site, vcpus: 1, memory: 512, disk: 1024 });
  const readable = await pvectl(["netbox", "sync", "-c", config]);
  assert.equal(readable.code, 1, readable.stderr);
  const lines = readable.stdout.split("\n");
  assert.ok(lines.includes("+ web-01 (new vmid) on pve1"), readable.stdout);
  assert.ok(lines.some((l) => /^staged {2}web-01 \(NetBox id 1\): vm \d+ on pve1 \(created\); wrote proxmox_vmid=\d+, eth0 MAC [0-9A-F:]{17}, primary IPv4 10\.20\.0\.\d+\/24, status staged$/.test(l)), readable.stdout);
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
  assert.deepEqual(report.records.map((r) => [r.name, r.result]), [["orphan", "invalid"]]);
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
