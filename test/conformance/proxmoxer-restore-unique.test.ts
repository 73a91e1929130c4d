// `pvectl restore --unique` as a client nobody here wrote sees the result: python3-proxmoxer
// reads the restored guests' configs back. With --unique every NIC (a VM's two, a container's
// one) has a MAC of its own, unlike the original's; without it every MAC is the archive's, so
// no MAC changes behind anyone's back.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv } from "../support/cli.js";
import { PROXMOXER_PREAMBLE, runProxmoxerScript, proxmoxerSkip as skip } from "./proxmoxer.js";

const CT_TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";
const SPEC = `version: 1
vms:
  - name: web
    vmid: 8201
    node: pve1
    memory: 512
    disks: { scsi0: { storage: local-lvm, size: 1G } }
    nics:
      net0: { bridge: vmbr0 }
      net1: { bridge: vmbr0, tag: 20 }
containers:
  - { vmid: 8202, hostname: cache, node: pve1, ostemplate: "${CT_TEMPLATE}", rootfs: { storage: local-lvm, size: 1G }, nics: { net0: { name: eth0, bridge: vmbr0, ip: dhcp } } }
`;

/** Each guest's netN values, as proxmoxer reads them. */
const SCRIPT = `
${PROXMOXER_PREAMBLE}out = {}
for kind, vmids in (("qemu", [8201, 8211, 8212]), ("lxc", [8202, 8213, 8214])):
    for vmid in vmids:
        cfg = getattr(node, kind)(vmid).config.get()
        out[str(vmid)] = {k: v for k, v in cfg.items() if k.startswith("net")}
print(json.dumps(out))
`;

const macs = (nics: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(nics).map(([k, v]) => [k, /(?:^|,)(?:\w+=)?([0-9A-F]{2}(?::[0-9A-F]{2}){5})(?:,|$)/i.exec(v)?.[1]?.toUpperCase()]),
  );
/** A NIC without its MAC: everything else must come back as it was. */
const withoutMacs = (nics: Record<string, string>) =>
  Object.fromEntries(Object.entries(nics).map(([k, v]) => [k, v.replace(/[0-9A-F]{2}(?::[0-9A-F]{2}){5}/i, "")]));

describe("restore --unique, read back by python3-proxmoxer", { skip }, () => {
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const archives = new Map<number, string>();
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 21, config: { content: [CT_TEMPLATE] } });
    dir = mkdtempSync(join(tmpdir(), "pvectl-unique-"));
    env = simEnv(sim);
    writeFileSync(join(dir, "spec.yaml"), SPEC);
    const applied = await pvectl(["apply", "-f", join(dir, "spec.yaml"), "--yes"], env);
    assert.equal(applied.code, 0, applied.stderr);
    const backup = await pvectl(["backup", "run", "--vmid", "8201", "8202", "--storage", "local", "--yes"], env);
    assert.equal(backup.code, 0, backup.stderr);
    const listing = JSON.parse((await pvectl(["backup", "list", "--vmid", "8201", "8202", "--json"], env)).stdout) as {
      archives: Array<{ vmid: number; volid: string }>;
    };
    for (const a of listing.archives) archives.set(a.vmid, a.volid);
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await sim?.close();
  });

  it("--unique gives every NIC a new MAC; without it every MAC is the archive's", async () => {
    for (const [source, unique, plain] of [
      [8201, 8211, 8212],
      [8202, 8213, 8214],
    ] as const) {
      // without --storage PVE restores a container onto `local`, which holds no container directories here
      const storage = source === 8202 ? ["--storage", "local-lvm"] : [];
      const u = await pvectl(["restore", archives.get(source)!, "--vmid", String(unique), "--unique", "--yes", ...storage], env);
      assert.equal(u.code, 0, u.stderr);
      assert.match(u.stdout, /new MAC addresses/, "the plan says the MACs change");
      const p = await pvectl(["restore", archives.get(source)!, "--vmid", String(plain), "--yes", ...storage], env);
      assert.equal(p.code, 0, p.stderr);
      assert.doesNotMatch(p.stdout, /new MAC addresses/);
    }
    const nics = (await runProxmoxerScript(sim, SCRIPT)) as Record<string, Record<string, string>>;
    for (const [source, unique, plain] of [
      ["8201", "8211", "8212"],
      ["8202", "8213", "8214"],
    ] as const) {
      const original = macs(nics[source]!);
      assert.ok(
        Object.values(original).every((m) => m !== undefined),
        JSON.stringify(nics[source]),
      );
      assert.deepEqual(macs(nics[plain]!), original, `restore ${plain} keeps the archive's MACs`);
      const renewed = macs(nics[unique]!);
      assert.deepEqual(Object.keys(renewed), Object.keys(original));
      for (const key of Object.keys(original)) assert.notEqual(renewed[key], original[key], `restore ${unique} ${key} has a new MAC`);
      assert.equal(
        new Set([...Object.values(renewed), ...Object.values(original)]).size,
        2 * Object.keys(original).length,
        "every MAC is distinct",
      );
      assert.deepEqual(withoutMacs(nics[unique]!), withoutMacs(nics[source]!), "only the MACs changed");
    }
  });
});
