// The NetBox simulator driven by Debian's python3-pynetbox (a client nobody here wrote):
// filters, get, save() (PATCH), create, MAC objects, available_ips, pagination, error shapes.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { type NetboxSimulator, startNetboxSimulator } from "../../src/netbox/sim/index.js";

const PYTHON = "/usr/bin/python3";
const probe = spawnSync(PYTHON, ["-c", "import pynetbox"], { encoding: "utf8" });
const missing = probe.status !== 0 ? "python3-pynetbox is not installed (apt-get install python3-pynetbox)" : false;

let nb: NetboxSimulator;
before(async () => {
  nb = await startNetboxSimulator({ seed: "demo" });
});
after(async () => {
  await nb.close();
});

test("pynetbox 7 works against the NetBox simulator", { skip: missing }, async () => {
  const script = fileURLToPath(new URL("./pynetbox-check.py", import.meta.url));
  // Run asynchronously: the simulator lives in this process and must keep answering.
  const { spawn } = await import("node:child_process");
  const child = spawn(PYTHON, [script, nb.url, nb.token], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  assert.equal(code, 0, `pynetbox script failed:\n${stderr}`);
  const out = JSON.parse(stdout) as Record<string, unknown>;

  assert.equal(out.status_version, "4.6.8");
  assert.deepEqual(out.planned, ["db-01", "web-01", "web-02"]);
  assert.deepEqual(out.get_by_name, { id: 1, cluster: "pve-lab", status: "planned", memory: 2048 });
  assert.equal(out.get_by_id, "web-01");
  assert.equal(out.save_changed, true);
  assert.deepEqual(out.after_save, { status: "staged", vmid: 4242 });
  assert.deepEqual(out.interface, { name: "eth9", vm: 1, mode: "access" });
  assert.equal(out.interface_mac, "BC:24:11:00:00:09");
  assert.equal(out.available_first, "10.20.0.1/24");
  assert.equal(out.allocated, "10.20.0.1/24");
  assert.equal(typeof out.allocated_on, "number");
  assert.equal(out.allocated_type, "virtualization.vminterface");
  assert.equal(out.all_count, 63);
  assert.equal(out.planned_count, 62);
  assert.equal(out.count_call, 62);
  assert.deepEqual(out.bad_create, {
    cluster: ["Related object not found using the provided numeric ID: 9999"],
    vcpus: ["Ensure this value is greater than or equal to 0.01."],
  });
  assert.equal(out.interface_gone, true);
  // Deleting the interface removed its MAC object and its IP address too, as NetBox does.
  assert.equal(nb.admin.list("dcim/mac-addresses").length, 0);
  assert.equal(nb.admin.list("ipam/ip-addresses").length, 0);
});
