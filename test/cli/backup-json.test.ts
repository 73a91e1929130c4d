// `backup run|prune --json` answers with exactly one JSON document on stdout in every outcome
// (done, nothing to do, held back, refused by the preflight, refused for want of --yes, a guest
// that failed), and the guests the selection skipped or did not find are in it, not only on
// stderr: a program reading stdout must learn that a guest was left out.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectlShellCommand } from "../support/pvectl-command.js";
import { pvectl, type Result, ROOT, simEnv } from "../support/cli.js";

const SPEC = `version: 1
vms:
  - { vmid: 801, name: web, node: pve1, memory: 512, disks: { scsi0: { storage: local-lvm, size: 1G } } }
  - { vmid: 802, name: db, node: pve1, memory: 512, disks: { scsi0: { storage: local-lvm, size: 1G } } }
`;
const FOREIGN = 850;

interface Doc {
  ok?: boolean;
  error?: string | { kind: string; message: string };
  guests?: Array<{ key: string; result: string; error?: string; pending: unknown[] }>;
  skipped?: Array<{ vmid: number; reason: string }>;
  notFound?: string[];
}

/** The whole of stdout parses as one JSON document. */
function doc(r: Result): Doc {
  assert.doesNotThrow(() => JSON.parse(r.stdout), `stdout is not one JSON document:\n${r.stdout}\nstderr:\n${r.stderr}`);
  return JSON.parse(r.stdout) as Doc;
}

describe("backup --json: one document on stdout, whatever happens", () => {
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 8 });
    dir = mkdtempSync(join(tmpdir(), "pvectl-cli-bj-"));
    env = simEnv(sim);
    writeFileSync(join(dir, "spec.yaml"), SPEC);
    assert.equal((await pvectl(["apply", "-f", join(dir, "spec.yaml"), "--yes"], env)).code, 0);
    // A guest another team made: selected by vmid, it is skipped.
    const client = new PveClient({
      host: "127.0.0.1",
      port: sim.port,
      user: "root@pam",
      password: sim.rootPassword,
      fingerprint: sim.fingerprint,
    });
    await client.waitForTask((await client.request("POST", "/nodes/pve1/qemu", { vmid: FOREIGN, name: "theirs", memory: 512 })) as string);
    await client.close();
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await sim.close();
  });

  it("done: the report, with the skipped guest and the vmid not found", async () => {
    const r = await pvectl(["backup", "run", "--vmid", "801", String(FOREIGN), "999", "--storage", "local", "--yes", "--json"], env);
    assert.equal(r.code, 0, r.stderr);
    const d = doc(r);
    assert.equal(d.ok, true);
    assert.deepEqual(
      d.guests?.map((g) => [g.key, g.result]),
      [["web-801", "changed"]],
    );
    assert.deepEqual(
      d.skipped?.map((s) => s.vmid),
      [FOREIGN],
    );
    assert.deepEqual(d.notFound, ["vmid 999"]);
    assert.doesNotMatch(r.stderr, /skipped:/, "with --json the skipped guests are in the document");
  });

  it("nothing to do: only a foreign guest selected is still a document naming it", async () => {
    const r = await pvectl(["backup", "run", "--vmid", String(FOREIGN), "--storage", "local", "--yes", "--json"], env);
    assert.equal(r.code, 0, r.stderr);
    const d = doc(r);
    assert.equal(d.ok, true);
    assert.deepEqual(d.guests, []);
    assert.deepEqual(
      d.skipped?.map((s) => s.vmid),
      [FOREIGN],
    );
  });

  it("held back: prune without --allow-data-loss is exit 3 and a document", async () => {
    // A second archive of 801, so that --keep-last 1 marks the first for deletion.
    assert.equal((await pvectl(["backup", "run", "--vmid", "801", "--storage", "local", "--yes"], env)).code, 0);
    const r = await pvectl(["backup", "prune", "--vmid", "801", "--storage", "local", "--keep-last", "1", "--yes", "--json"], env);
    assert.equal(r.code, 3, r.stderr);
    const d = doc(r);
    assert.match(JSON.stringify(d.guests?.[0]?.pending), /allow-data-loss/);
    assert.deepEqual(d.skipped, []);
  });

  it("refused by the preflight (no such storage): exit 1 and a document with the error", async () => {
    const r = await pvectl(["backup", "run", "--vmid", "801", "--storage", "nowhere", "--yes", "--json"], env);
    assert.equal(r.code, 1);
    const d = doc(r);
    assert.equal(d.ok, false);
    assert.match(String(d.error), /nowhere/);
  });

  it("refused without --yes and a terminal: exit 1 and the error as a document", async () => {
    const r = await pvectl(["backup", "run", "--vmid", "801", "--storage", "local", "--json"], env);
    assert.equal(r.code, 1);
    const d = doc(r);
    assert.match(JSON.stringify(d.error), /without confirmation/);
  });

  it("a guest that fails (locked by another operation): exit 1 and the report", async () => {
    sim.admin.holdLock(802, "migrate");
    try {
      const r = await pvectl(["backup", "run", "--vmid", "801", "802", "--storage", "local", "--yes", "--json"], env);
      assert.equal(r.code, 1, r.stderr);
      const d = doc(r);
      assert.equal(d.ok, false);
      assert.match(JSON.stringify(d), /migrate/);
    } finally {
      sim.admin.holdLock(802);
    }
  });
});

describe("backup --json at a terminal", () => {
  it("a confirmation answered 'no' is exit 1 and a document saying nothing changed", async () => {
    const sim = await startSimulator({ port: 0, seed: 9 });
    const dir = mkdtempSync(join(tmpdir(), "pvectl-cli-bjt-"));
    try {
      const env = simEnv(sim);
      writeFileSync(join(dir, "spec.yaml"), SPEC);
      assert.equal((await pvectl(["apply", "-f", join(dir, "spec.yaml"), "--yes"], env)).code, 0);
      // script(1) gives the CLI a terminal on stdin (so it asks) while stdout goes to a file.
      const out = join(dir, "out.json");
      const cli = pvectlShellCommand(["backup", "run", "--vmid", "801", "--storage", "local", "--json"]);
      const r = await new Promise<number | null>((resolve) => {
        const child = spawn("script", ["-qec", `${cli} > ${out}`, "/dev/null"], {
          cwd: ROOT,
          env: { ...env, PATH: process.env.PATH, HOME: process.env.HOME },
          stdio: ["pipe", "ignore", "ignore"],
        });
        child.stdin.end("no\n");
        child.on("close", resolve);
      });
      assert.equal(r, 1);
      const d = JSON.parse(readFileSync(out, "utf8")) as Doc & { cancelled?: boolean };
      assert.equal(d.ok, false);
      assert.equal(d.cancelled, true);
      assert.deepEqual(d.skipped, []);
      assert.equal(
        (await pvectl(["backup", "list", "--vmid", "801", "--json"], env)).stdout.includes("vzdump"),
        false,
        "nothing was backed up",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await sim.close();
    }
  });
});
