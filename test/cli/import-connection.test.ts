// `pvectl import` writes VMs under `vms:` and containers under `containers:`, templates with
// `template: true`, says what it could not write and fails when nothing asked for was written;
// `import` and `inventory` take `--file SPEC --connection NAME`.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv } from "../support/cli.js";

const CT_TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

async function seed(client: PveClient): Promise<void> {
  const wait = async (upid: unknown) => void (await client.waitForTask(String(upid)));
  await wait(await client.request("POST", "/nodes/pve1/qemu", { vmid: 300, name: "vm1", tags: "imp", memory: 512 }));
  await wait(await client.request("POST", "/nodes/pve1/qemu", { vmid: 301, name: "tpl1", tags: "imp", memory: 512 }));
  await wait(await client.request("POST", "/nodes/pve1/qemu/301/template"));
  await wait(
    await client.request("POST", "/nodes/pve2/lxc", {
      vmid: 302,
      hostname: "ct1",
      tags: "imp",
      ostemplate: CT_TEMPLATE,
      rootfs: "local-lvm:1",
    }),
  );
}

describe("pvectl import: skipped guests and --connection", () => {
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 11 });
    env = simEnv(sim);
    dir = mkdtempSync(join(tmpdir(), "pvectl-import-"));
    const client = new PveClient({
      host: "127.0.0.1",
      port: sim.port,
      user: "root@pam",
      password: sim.rootPassword,
      fingerprint: sim.fingerprint as string,
    });
    try {
      await seed(client);
    } finally {
      await client.close();
    }
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await sim.close();
  });

  it("--vmid of a container writes it under `containers:` (adopt: it was not created by pvectl)", async () => {
    const result = await pvectl(["import", "--vmid", "302"], env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^version: 1\nvms: \[\]\ncontainers:\n {2}- vmid: 302\n {4}hostname: ct1\n {4}node: pve2\n {4}adopt: true\n/,
    );
    assert.match(result.stdout, /rootfs:\n {6}storage: local-lvm\n {6}size: 1G\n/);
    assert.equal(result.stderr, "");
  });

  it("--vmid of a template writes it with `template: true` and no power state", async () => {
    const result = await pvectl(["import", "--vmid", "301"], env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /- vmid: 301\n {4}name: tpl1\n {4}node: pve1\n {4}adopt: true\n {4}template: true\n/);
    assert.doesNotMatch(result.stdout, /power:/);
    assert.equal(result.stderr, "");
  });

  it("--tag writes the VM, the template and the container", async () => {
    const result = await pvectl(["import", "--tag", "imp"], env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /- vmid: 300\n {4}name: vm1\n/);
    assert.match(result.stdout, /- vmid: 301\n {4}name: tpl1\n/);
    assert.match(result.stdout, /containers:\n {2}- vmid: 302\n {4}hostname: ct1\n/);
    assert.equal(result.stderr, "");
  });

  it("a named vmid that does not exist fails the run even when others were written", async () => {
    const result = await pvectl(["import", "--vmid", "300", "399"], env);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /- vmid: 300\n/);
    assert.match(result.stderr, /vmid 399: does not exist/);
  });

  describe("--file SPEC --connection NAME", () => {
    let spec: string;
    // Only the connection's password variable: no PROXMOX_* at all.
    const onlySecret = () => ({ PVE_SIM_PASSWORD: sim.rootPassword });
    before(() => {
      spec = join(dir, "clusters.yaml");
      writeFileSync(
        spec,
        `connections:\n  lab:\n    host: 127.0.0.1\n    port: ${sim.port}\n    user: root@pam\n    passwordEnv: PVE_SIM_PASSWORD\n    fingerprint: "${sim.fingerprint}"\n` +
          `  other:\n    host: 127.0.0.2\n    user: root@pam\n    passwordEnv: PVE_SIM_PASSWORD\n`,
      );
    });

    it("import reads the cluster of the named connection", async () => {
      const result = await pvectl(["import", "--vmid", "300", "--file", spec, "--connection", "lab"], onlySecret());
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /- vmid: 300\n {4}name: vm1\n/);
    });

    it("inventory reads the cluster of the named connection", async () => {
      const result = await pvectl(["inventory", "--list", "--file", spec, "--connection", "lab"], onlySecret());
      assert.equal(result.code, 0, result.stderr);
      const inventory = JSON.parse(result.stdout) as { _meta: { hostvars: Record<string, unknown> } };
      assert.ok(inventory._meta.hostvars.vm1, result.stdout);
    });

    it("several connections and none picked is a usage error naming them", async () => {
      const result = await pvectl(["inventory", "--list", "--file", spec], onlySecret());
      assert.equal(result.code, 1);
      assert.match(result.stderr, /defines 2 connections \(lab, other\)/);
      assert.match(result.stderr, /add --connection NAME/);
    });

    it("--connection without --file says which file is missing", async () => {
      const result = await pvectl(["import", "--all", "--connection", "lab"], onlySecret());
      assert.equal(result.code, 1);
      assert.match(result.stderr, /--connection lab needs the spec file that defines it/);
    });

    it("an unknown connection name lists the defined ones", async () => {
      const result = await pvectl(["import", "--all", "--file", spec, "--connection", "nope"], onlySecret());
      assert.equal(result.code, 1);
      assert.match(result.stderr, /connection `nope` is not defined in the spec \(defined: lab, other\)/);
    });
  });
});
