// Configuration that reaches the hypervisor host (a container's host bind mount of /etc/pve, a
// VM's QEMU args) is its own severity, host-access: the plan says so in text, Markdown and
// JSON, apply runs it only with --allow-host-access (the refusal names the flag), and adding,
// changing or removing such a key on an existing guest is host-access too.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv } from "../support/cli.js";

const VM = (extra: string) => `vms:\n  - name: hostvm\n    node: pve1\n    memory: 512\n${extra}`;
const CT = `containers:
  - hostname: hostct
    node: pve1
    ostemplate: local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst
    unprivileged: false
    rootfs: { storage: local-lvm, size: 2G }
    mounts:
      mp0: { volume: /etc/pve, mountpoint: /mnt/pve }
`;
const ARGS = '    extraConfig: { args: "-fw_cfg name=opt/x,file=/etc/pve/priv/shadow.cfg" }\n';

interface JsonPlan {
  guests: Array<{ key: string; steps: Array<{ action: string; severity: string; hostAccess?: string[] }> }>;
}

describe("host-access steps", () => {
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const spec = (text: string) => {
    const file = join(dir, "spec.yaml");
    writeFileSync(file, `version: 1\n${text}`);
    return file;
  };
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 43 });
    env = simEnv(sim);
    dir = mkdtempSync(join(tmpdir(), "pvectl-host-access-"));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await sim.close();
  });

  it("are shown as host-access in the plan's text, Markdown and JSON", async () => {
    const file = spec(`${VM(ARGS)}${CT}`);
    const text = await pvectl(["plan", file], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /create hostvm .*\[host-access\]\n(.*\n)*? +reaches the hypervisor host \(args\): runs only with --allow-host-access/,
    );
    assert.match(text.stdout, /create container hostct .*\[host-access\]\n(.*\n)*? +reaches the hypervisor host \(mp0\)/);
    assert.match(text.stdout, /^2 step\(s\) reach the hypervisor host .*--allow-host-access\.$/m);
    const md = await pvectl(["plan", file, "--format", "markdown"], env);
    assert.match(md.stdout, /\*\*host-access\*\*/);
    assert.match(md.stdout, /--allow-host-access/);
    const json = JSON.parse((await pvectl(["plan", file, "--json"], env)).stdout) as JsonPlan;
    assert.deepEqual(
      json.guests.map((g) => g.steps.map((s) => [s.severity, s.hostAccess])),
      [[["host-access", ["args"]]], [["host-access", ["mp0"]]]],
    );
  });

  it("do not run without --allow-host-access, and the refusal names the flag", async () => {
    const file = spec(`${VM(ARGS)}${CT}`);
    const held = await pvectl(["apply", file, "--yes"], env);
    assert.equal(held.code, 3, `${held.stdout}${held.stderr}`);
    assert.match(held.stderr, /host-access steps need --allow-host-access/);
    assert.match(held.stdout, /needs --allow-host-access/);
    const applied = await pvectl(["apply", file, "--yes", "--allow-host-access"], env);
    assert.equal(applied.code, 0, `${applied.stdout}${applied.stderr}`);
  });

  it("changing or removing such a key of an existing guest is host-access; other keys stay configuration", async () => {
    const changed = JSON.parse(
      (await pvectl(["plan", spec(`${VM(ARGS.replace("shadow", "other"))}${CT}`), "--json"], env)).stdout,
    ) as JsonPlan;
    assert.deepEqual(
      changed.guests[0]?.steps.map((s) => [s.severity, s.hostAccess]),
      [["host-access", ["args"]]],
    );
    const removed = JSON.parse(
      (await pvectl(["plan", spec(`${VM("    cores: 2\n")}${CT.replace(/mounts:\n.*\n/, "mounts: {}\n")}`), "--json"], env)).stdout,
    ) as JsonPlan;
    assert.deepEqual(
      removed.guests[0]?.steps.map((s) => [s.severity, s.hostAccess]),
      [["configuration", undefined]],
      "args left out of the spec is not managed",
    );
    assert.deepEqual(
      removed.guests[1]?.steps.map((s) => [s.action, s.severity, s.hostAccess]),
      [["disk-detach", "host-access", ["mp0"]]],
    );
  });
});
