// Snapshots across clients nobody here wrote: community.general 6.6.2's `proxmox_snap` finds the
// snapshot pvectl made (present reports "already present"), rolls it back and removes it;
// `pvectl snapshot list --json` lists the snapshot the module made; python3-proxmoxer lists both,
// with the module's description. A VM and a container, both made by pvectl, on one simulator.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv } from "../support/cli.js";
import { REPO_ROOT, ansibleEnv, ansibleMissing, run } from "../support/conformance.js";
import { runProxmoxerScript } from "./proxmoxer.js";

const missing = ansibleMissing();
const VM = 100;
const CT = 200;
const GUESTS = [VM, CT];
const SPEC = `version: 1
vms:
  - { vmid: ${VM}, name: snap-vm, node: pve1, memory: 1024, disks: { scsi0: { storage: local-lvm, size: 4G } } }
containers:
  - vmid: ${CT}
    hostname: snap-ct
    node: pve2
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"
    rootfs: { storage: local-lvm, size: 2G }
`;
let sim: RunningSimulator;
let dir: string;

before(async () => {
  if (missing) return;
  sim = await startSimulator({ port: 0, nodes: 2 });
  dir = await mkdtemp(join(tmpdir(), "pvectl-snap-ansible-"));
  await writeFile(join(dir, "guests.yaml"), SPEC);
  const applied = await pvectl(["apply", join(dir, "guests.yaml"), "--yes"], simEnv(sim));
  assert.equal(applied.code, 0, `${applied.stdout}${applied.stderr}`);
});
after(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function proxmoxSnap(state: "present" | "absent" | "rollback", name: string, expectChanged: boolean): Promise<void> {
  const vars = JSON.stringify({
    api_host: `127.0.0.1:${sim.port}`,
    api_password: sim.rootPassword,
    vmids: GUESTS,
    snap_state: state,
    snap_name: name,
    expect_changed: expectChanged,
  });
  const result = await run(
    "ansible-playbook",
    [join(REPO_ROOT, "test/conformance/playbooks/snap.yml"), "-e", vars],
    ansibleEnv({}),
    REPO_ROOT,
    300_000,
  );
  assert.equal(result.code, 0, `proxmox_snap ${state} ${name} failed:\n${result.stdout.slice(-6000)}\n${result.stderr.slice(-2000)}`);
}

/** pvectl's own reading of the guests' snapshots: vmid -> snapshot names (without PVE's "current"). */
async function pvectlSnapshots(): Promise<Map<number, string[]>> {
  const listed = await pvectl(["snapshot", "list", "--vmid", String(VM), String(CT), "--json"], simEnv(sim));
  assert.equal(listed.code, 0, `${listed.stdout}${listed.stderr}`);
  return snapshotNames(JSON.parse(listed.stdout));
}

type Listing = { guests: Array<{ vmid: number; snapshots: Array<{ name: string }> }> };

function snapshotNames(doc: Listing): Map<number, string[]> {
  return new Map(
    doc.guests.map((g) => [
      g.vmid,
      g.snapshots
        .map((s) => s.name)
        .filter((n) => n !== "current")
        .sort(),
    ]),
  );
}

/** What proxmoxer (as PVE answers it) lists per guest: name -> description. */
async function proxmoxerSnapshots(): Promise<Record<string, Record<string, string>>> {
  return (await runProxmoxerScript(
    sim,
    `import json, sys
from proxmoxer import ProxmoxAPI
host, port, ca, password = sys.argv[1:5]
api = ProxmoxAPI(host, port=int(port), user="root@pam", password=password, verify_ssl=ca)
out = {}
for node, kind, vmid in (("pve1", "qemu", ${VM}), ("pve2", "lxc", ${CT})):
    snaps = getattr(api.nodes(node), kind)(vmid).snapshot.get()
    out[str(vmid)] = {s["name"]: s.get("description", "") for s in snaps if s["name"] != "current"}
print(json.dumps(out))
`,
  )) as Record<string, Record<string, string>>;
}

test("proxmox_snap and pvectl see each other's snapshots; proxmoxer lists both", { skip: missing }, async () => {
  const env = simEnv(sim);
  const made = await pvectl(["snapshot", "create", "by-pvectl", "--vmid", String(VM), String(CT), "--yes"], env);
  assert.equal(made.code, 0, `${made.stdout}${made.stderr}`);

  // The module lists the guest's snapshots first: pvectl's is "already present", not made again.
  await proxmoxSnap("present", "by-pvectl", false);
  await proxmoxSnap("present", "by-ansible", true);
  assert.deepEqual(
    await pvectlSnapshots(),
    new Map([
      [VM, ["by-ansible", "by-pvectl"]],
      [CT, ["by-ansible", "by-pvectl"]],
    ]),
  );
  const read = await proxmoxerSnapshots();
  for (const vmid of GUESTS) {
    assert.deepEqual(Object.keys(read[String(vmid)] ?? {}).sort(), ["by-ansible", "by-pvectl"], `proxmoxer on ${vmid}`);
    assert.equal(read[String(vmid)]?.["by-ansible"], "made by proxmox_snap");
  }

  // The module rolls back to pvectl's snapshot and removes it; pvectl then lists only the module's.
  await proxmoxSnap("rollback", "by-pvectl", true);
  await proxmoxSnap("absent", "by-pvectl", true);
  assert.deepEqual(
    await pvectlSnapshots(),
    new Map([
      [VM, ["by-ansible"]],
      [CT, ["by-ansible"]],
    ]),
  );

  // pvectl removes the module's snapshot; the module finds nothing left to remove.
  const deleted = await pvectl(["snapshot", "delete", "by-ansible", "--vmid", String(VM), String(CT), "--yes", "--allow-data-loss"], env);
  assert.equal(deleted.code, 0, `${deleted.stdout}${deleted.stderr}`);
  await proxmoxSnap("absent", "by-ansible", false);
  assert.deepEqual(await proxmoxerSnapshots(), { [VM]: {}, [CT]: {} });
});
