// `pvectl apply --plan FILE` with a saved plan someone edited, or one that no longer fits: the
// plan is recomputed from its spec and the cluster, and anything that differs is refused
// before a single change (exit 1, a list of what differs, the cluster untouched).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import type { SavedPlan } from "../../src/engine/saved-plan.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

const GUEST = (cores: number) => `version: 1
vms:
  - vmid: 260
    name: tamper1
    node: pve1
    cores: ${cores}
    memory: 512
    power: running
    disks:
      scsi0: { storage: local-lvm, size: 2G }
`;

const VICTIM = `version: 1
vms:
  - { vmid: 261, name: victim, node: pve1, memory: 512, power: running, disks: { scsi0: { storage: local-lvm, size: 2G } } }
`;

describe("apply --plan with an edited or unfitting saved plan", () => {
  let lab: CliLab;
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let n = 0;
  let basePlan = "";
  let client: PveClient;

  async function cli(args: string[], environment = env) {
    return pvectl(args, environment);
  }

  /** A copy of the plan of spec.yaml (made once: the cluster does not change until the last test), edited. */
  function savedPlan(edit: (saved: SavedPlan) => void = () => {}): string {
    n += 1;
    const file = join(dir, `plan${n}.json`);
    const saved = JSON.parse(basePlan) as SavedPlan;
    edit(saved);
    writeFileSync(file, JSON.stringify(saved, null, 2));
    return file;
  }

  async function guestState(vmid: number): Promise<{ exists: boolean; status?: string; cores?: number }> {
    const guests = (await client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number; status: string }>;
    const guest = guests.find((g) => g.vmid === vmid);
    if (!guest) return { exists: false };
    const config = (await client.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as { cores?: number };
    return { exists: true, status: guest.status, ...(config.cores !== undefined ? { cores: Number(config.cores) } : {}) };
  }

  before(async () => {
    lab = await startCliLab("tamper", { seed: 11 });
    ({ sim, dir } = lab);
    env = lab.env;
    writeFileSync(join(dir, "spec.yaml"), GUEST(1));
    writeFileSync(join(dir, "victim.yaml"), VICTIM);
    for (const spec of ["spec.yaml", "victim.yaml"]) {
      const done = await cli(["apply", "-f", join(dir, spec), "--yes"]);
      assert.equal(done.code, 0, done.stderr);
    }
    // The change to plan: more cores on a running guest (waits for a reboot: service-impact).
    writeFileSync(join(dir, "spec.yaml"), GUEST(2));
    const made = await cli(["plan", "-f", join(dir, "spec.yaml"), "--out", join(dir, "base.json")]);
    assert.equal(made.code, 0, made.stderr);
    basePlan = readFileSync(join(dir, "base.json"), "utf8");
    client = new PveClient({
      host: "127.0.0.1",
      port: sim.port,
      user: "root@pam",
      password: sim.rootPassword,
      fingerprint: sim.fingerprint!,
    });
  });
  after(async () => {
    await client.close();
    await lab.close();
  });

  it("refuses a plan that was given an extra stop and destroy of another guest", async () => {
    const file = savedPlan((saved) => {
      const guest = saved.plan.guests[0]!;
      guest.steps.push(
        {
          id: "tamper1/9-stop",
          action: "stop",
          severity: "configuration",
          summary: "tidy up",
          changes: [],
          calls: [
            {
              method: "POST",
              endpoint: "/nodes/{node}/qemu/{vmid}/status/stop",
              pathParams: { node: "pve1", vmid: 261 },
              body: {},
              intent: { kind: "qemu", op: "power", action: "stop" },
            },
          ],
        },
        {
          id: "tamper1/10-destroy",
          action: "destroy",
          severity: "configuration",
          summary: "tidy up",
          changes: [],
          calls: [
            {
              method: "DELETE",
              endpoint: "/nodes/{node}/qemu/{vmid}",
              pathParams: { node: "pve1", vmid: 261 },
              body: { purge: 1 },
              intent: { kind: "qemu", op: "destroy" },
            },
          ],
        },
      );
    });
    const result = await cli(["apply", "--plan", file, "--yes"]);
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stderr, /^error: the saved plan .*cannot be applied:\n/);
    assert.match(
      result.stderr,
      /\n {2}- tamper1: step tamper1\/9-stop \(stop\) is not in the recomputed plan\n {2}- tamper1: step tamper1\/10-destroy \(destroy\) is not in the recomputed plan\n/,
    );
    assert.doesNotMatch(result.stdout, /changed|created|destroyed/);
    assert.deepEqual(await guestState(261), { exists: true, status: "running" });
  });

  it("refuses a service-impact step relabelled as configuration (which would run without --allow-restart)", async () => {
    const plain = JSON.parse(basePlan) as SavedPlan;
    assert.deepEqual(
      plain.plan.guests[0]!.steps.map((s) => [s.action, s.severity]),
      [
        ["config-pending", "service-impact"],
        ["reboot", "service-impact"],
      ],
      "the honest plan marks the change and the reboot as service-impact",
    );
    const file = savedPlan((saved) => {
      for (const step of saved.plan.guests[0]!.steps) step.severity = "configuration";
    });
    const result = await cli(["apply", "--plan", file, "--yes"]);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /- tamper1: step tamper1\/1-\S+ differs from the recomputed plan in severity \(saved configuration, recomputed service-impact\)\n.*tamper1\/2-reboot differs from the recomputed plan in severity/s,
    );
    assert.equal((await guestState(260)).cores, 1);
  });

  it("refuses edited call parameters", async () => {
    const file = savedPlan((saved) => {
      const call = saved.plan.guests[0]!.steps[0]!.calls[0]!;
      call.body = { ...call.body, cores: 64 };
    });
    const result = await cli(["apply", "--plan", file, "--yes", "--allow-restart"]);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /- tamper1: step tamper1\/1-\S+ differs from the recomputed plan in calls\[0\]\.body\.cores \(saved 64, recomputed 2\)\n/,
    );
    assert.equal((await guestState(260)).cores, 1);
  });

  it("refuses a plan made by another pvectl version, and one for which the spec file changed", async () => {
    const other = savedPlan((saved) => {
      saved.pvectlVersion = "9.9.9";
    });
    const version = await cli(["apply", "--plan", other, "--yes"]);
    assert.equal(version.code, 1);
    assert.match(version.stderr, /- it was made by pvectl 9\.9\.9; this is pvectl \d+\.\d+\.\d+, which applies only its own plans\n/);

    const file = savedPlan();
    writeFileSync(join(dir, "spec.yaml"), GUEST(4));
    try {
      const changed = await cli(["apply", "--plan", file, "--yes"]);
      assert.equal(changed.code, 1);
      assert.match(
        changed.stderr,
        new RegExp(`- the spec file ${join(dir, "spec.yaml")} changed since the plan was made \\(its SHA-256 differs\\)\\n`),
      );
    } finally {
      writeFileSync(join(dir, "spec.yaml"), GUEST(2));
    }
  });

  it("refuses a truncated or garbage file with a clear message, never a stack trace", async () => {
    const file = savedPlan();
    const text = readFileSync(file, "utf8");
    // Truncated, and well-formed JSON of the wrong shape (more shapes: test/engine/saved-plan.test.ts).
    for (const content of [text.slice(0, 200), text.replace(/"steps": \[/, '"steps": 7, "x": [')]) {
      writeFileSync(file, content);
      const result = await cli(["apply", "--plan", file, "--yes"]);
      assert.equal(result.code, 1, content);
      assert.match(result.stderr, /^error: the saved plan .* cannot be applied:\n {2}- /, content);
      assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
    }
  });

  it("refuses a plan made for another cluster", async () => {
    const second = await startSimulator({ port: 0, seed: 12, config: { name: "elsewhere" } });
    try {
      const file = join(dir, "other-cluster.json");
      const made = await cli(["plan", "-f", join(dir, "spec.yaml"), "--out", file], simEnv(second));
      assert.equal(made.code, 0, made.stderr);
      const result = await cli(["apply", "--plan", file, "--yes"]);
      assert.equal(result.code, 1);
      assert.match(
        result.stderr,
        new RegExp(`- it was made against https://127\\.0\\.0\\.1:${second.port}, not https://127\\.0\\.0\\.1:${sim.port}\\n`),
      );
      assert.match(result.stderr, /- it was made for cluster elsewhere, but the endpoint now belongs to cluster simcluster\n/);
      assert.match(
        result.stderr,
        /- the endpoint's TLS certificate is not the one the plan was made with \(fingerprint [0-9A-F:]{95} is now [0-9A-F:]{95}\)\n/,
      );
    } finally {
      await second.close();
    }
  });

  it("refuses flags that would change the plan, and applies the untouched plan with the recomputed severities", async () => {
    const file = savedPlan();
    const mixed = await cli(["apply", "--plan", file, "--shutdown-timeout", "5", "--yes"]);
    assert.equal(mixed.code, 1);
    assert.match(mixed.stderr, /^error: --plan cannot be combined with --shutdown-timeout: /);
    const guarded = await cli(["apply", "--plan", file, "--yes"]);
    assert.equal(guarded.code, 3, guarded.stderr);
    assert.match(guarded.stderr, /2 step\(s\) will not run and stay pending: .*--allow-restart/);
    const applied = await cli(["apply", "--plan", file, "--yes", "--allow-restart"]);
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal((await guestState(260)).cores, 2);
  });
});
