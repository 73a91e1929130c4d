// A real crash: `pvectl netbox sync` runs as its own process and is killed with SIGKILL while
// Proxmox VE is still creating the guests. Rerunning converges: every record ends staged, and
// PVE saw exactly one create per record (no duplicate guests).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";
import { pvectlNodeArgs } from "../support/pvectl-command.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CREATE = "POST /nodes/{node}/qemu";

async function until(what: string, check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let lab: NetboxLab | undefined;
const dir = mkdtempSync(join(tmpdir(), "pvectl-netbox-kill-"));
after(async () => {
  await lab?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a sync killed (SIGKILL) during the creates, run again, finishes without duplicates", async () => {
  // Creates take 3 simulated seconds at time scale 1: long enough to kill the process mid-way.
  lab = await startNetboxLab(DEMO_CONFIG, { timing: "realistic", timeScale: 1, authFailureDelayMs: 0 });
  const current = lab;
  const config = join(dir, "netbox.yaml");
  writeFileSync(config, DEMO_CONFIG);
  const child = spawn(process.execPath, pvectlNodeArgs(["netbox", "sync", "-c", config]), {
    cwd: ROOT,
    env: {
      ...process.env,
      PROXMOX_HOST: current.sim.url,
      PROXMOX_USER: "root@pam",
      PROXMOX_PASSWORD: current.sim.rootPassword,
      NETBOX_URL: current.nb.url,
      NETBOX_TOKEN: current.nb.token,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => {
    output += d;
  });
  child.stderr.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  await until("the first create", () => (current.sim.accessLog().byEndpoint[CREATE] ?? 0) >= 1 || child.exitCode !== null);
  assert.equal(child.exitCode, null, `the sync ended before it could be killed:\n${output}`);
  child.kill("SIGKILL");
  assert.equal(await exited, "SIGKILL");
  const creates = current.sim.accessLog().byEndpoint[CREATE] ?? 0;
  assert.ok(creates >= 1);
  assert.equal(current.nb.admin.list("virtualization/virtual-machines", { status: "staged" }).length, 0);

  // Run again (in-process) until nothing is left; guests still being created make their
  // record wait for the next run instead of being created a second time.
  const seen: string[] = [];
  for (let run = 0; run < 10; run++) {
    const report = await current.sync();
    seen.push(...report.records.map((r) => `${r.name}:${r.result}:${r.guestResult ?? ""}:${r.errors.join(" ")}`));
    if (report.records.length === 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const staged = current.nb.admin.list("virtualization/virtual-machines", { status: "staged" });
  assert.deepEqual(staged.map((v) => v.name).sort(), ["db-01", "web-01", "web-02"], seen.join("\n"));
  const guests = await current.pveGuests();
  assert.deepEqual([...guests.entries()].map(([n, ids]) => [n, ids.length]).sort(), [
    ["db-01", 1],
    ["web-01", 1],
    ["web-02", 1],
  ]);
  for (const vm of staged) assert.deepEqual(guests.get(String(vm.name)), [obj(vm.custom_fields).proxmox_vmid]);
  // Exactly one create per record over both processes.
  assert.equal(current.sim.accessLog().byEndpoint[CREATE], 3, seen.join("\n"));
});
