// The seed's scenario through the CLI: a guest under HA, HA recovers it on another node, and the
// next `pvectl plan` is empty apart from the placement warning (exit 0), `apply` moves nothing
// back, and `--follow-placement` lists the node to write into the spec (text and JSON).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";
import type { Lab } from "../support/engine-lab.js";
import { addHaResource, listedGuest, migrateBehindOurBack } from "../support/placement.js";

const SPEC = `
vms:
  - vmid: 810
    name: ha-db
    node: pve1
    power: running
    memory: 1024
    disks:
      scsi0: { storage: shared, size: 2G }
  - vmid: 811
    name: plain
    node: pve1
    memory: 512
`;

describe("placement through the CLI", () => {
  let cli: CliLab;
  let lab: Lab;
  let spec: string;
  before(async () => {
    cli = await startCliLab("placement", { https: false });
    const url = new URL(cli.sim.url);
    const client = new PveClient({
      host: url.hostname,
      port: Number(url.port),
      protocol: "http",
      user: "root@pam",
      password: cli.sim.rootPassword,
    });
    lab = { sim: cli.sim, client, close: () => client.close() };
    spec = cli.write("placement.yaml", SPEC);
    const applied = await cli.pvectl(["apply", "-f", spec, "--yes"]);
    assert.equal(applied.code, 0, applied.stderr);
    await addHaResource(lab, "vm:810", "started");
    // HA recovers it elsewhere; an operator moves the other one.
    await migrateBehindOurBack(lab, "qemu", 810, "pve1", "pve2");
    await migrateBehindOurBack(lab, "qemu", 811, "pve1", "pve3");
  });
  after(async () => {
    await lab.close();
    await cli.close();
  });

  it("plan: no changes, the warnings only, exit 0 (also with --detailed-exitcode)", async () => {
    const result = await cli.pvectl(["plan", "-f", spec, "--detailed-exitcode"]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /runs on pve2, the spec says pve1: HA manages it as vm:810/);
    assert.match(result.stdout, /runs on pve3, the spec says pve1, where pvectl placed it: someone else moved it/);
    assert.doesNotMatch(result.stdout, /migrate /);
  });

  it("--follow-placement lists each moved guest with its spec and live node, in text and JSON", async () => {
    const text = await cli.pvectl(["plan", "-f", spec, "--follow-placement"]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Placement to follow/);
    assert.match(text.stdout, /ha-db \(vmid 810\): spec node pve1, live node pve2: set node: pve2/);
    assert.match(text.stdout, /plain \(vmid 811\): spec node pve1, live node pve3: set node: pve3/);
    const json = await cli.pvectl(["plan", "-f", spec, "--json", "--follow-placement"]);
    assert.deepEqual(JSON.parse(json.stdout).followPlacement, [
      { guest: "ha-db", vmid: 810, specNode: "pve1", liveNode: "pve2" },
      { guest: "plain", vmid: 811, specNode: "pve1", liveNode: "pve3" },
    ]);
  });

  it("apply moves nothing back; --placement spec would move only the guest HA does not manage", async () => {
    const applied = await cli.pvectl(["apply", "-f", spec, "--yes"]);
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal((await listedGuest(lab, 810))?.node, "pve2");
    assert.equal((await listedGuest(lab, 811))?.node, "pve3");
    const back = await cli.pvectl(["plan", "-f", spec, "--placement", "spec", "--json"]);
    const plan = JSON.parse(back.stdout) as { guests: Array<{ key: string; errors: string[]; steps: Array<{ action: string }> }> };
    const byKey = new Map(plan.guests.map((g) => [g.key, g]));
    assert.deepEqual(
      byKey.get("plain")!.steps.map((s) => s.action),
      ["migrate", "record-placement"],
    );
    assert.match(byKey.get("ha-db")!.errors.join("\n"), /vm:810/);
    const bad = await cli.pvectl(["plan", "-f", spec, "--placement", "anywhere"]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--placement must be record or spec, got 'anywhere'/);
  });
});
