// `--adopt` on plan, apply and destroy: without it a spec vmid naming a guest pvectl did not create is
// refused (exit 1, the guest named with its tags); with it the plan shows the adoption step and
// apply tags the guest, keeping its other tags.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { pvectl } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

describe("pvectl plan / apply --adopt", () => {
  let lab: CliLab;
  let client: PveClient;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    lab = await startCliLab("adopt", { seed: 5 });
    ({ dir, env } = lab);
    const { sim } = lab;
    client = new PveClient({
      host: "127.0.0.1",
      port: sim.port,
      user: "root@pam",
      password: sim.rootPassword,
      fingerprint: sim.fingerprint,
    });
    await client.waitForTask((await client.request("POST", "/nodes/pve1/qemu", { vmid: 250, name: "legacy", tags: "ops" })) as string);
    await client.waitForTask((await client.request("POST", "/nodes/pve1/qemu", { vmid: 251, name: "retired", tags: "ops" })) as string);
    lab.write("a.yaml", "vms:\n  - vmid: 250\n    name: legacy\n    node: pve1\n");
    lab.write("retired.yaml", "vms:\n  - vmid: 251\n    name: retired\n    node: pve1\n");
  });
  after(async () => {
    await client.close();
    await lab.close();
  });

  it("plan refuses a foreign guest without --adopt and shows the adoption step with it", async () => {
    const refused = await pvectl(["plan", "-f", join(dir, "a.yaml")], env);
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(
      refused.stdout + refused.stderr,
      /vmid 250 is an existing guest that pvectl did not create \(name legacy, node pve1, tags: ops/,
    );
    const adopting = await pvectl(["plan", "-f", join(dir, "a.yaml"), "--adopt", "--detailed-exitcode"], env);
    assert.equal(adopting.code, 2, adopting.stdout + adopting.stderr);
    assert.match(adopting.stdout, /adopt: add tag pvectl/);
  });

  it("apply --adopt tags the guest and keeps its tags; the next plan needs no --adopt", async () => {
    const applied = await pvectl(["apply", "-f", join(dir, "a.yaml"), "--adopt", "--yes"], env);
    assert.equal(applied.code, 0, applied.stdout + applied.stderr);
    const config = (await client.request("GET", "/nodes/pve1/qemu/250/config")) as { tags?: string };
    assert.equal(config.tags, "ops;pvectl");
    const again = await pvectl(["plan", "-f", join(dir, "a.yaml"), "--detailed-exitcode"], env);
    assert.equal(again.code, 0, again.stdout + again.stderr);
  });

  it("destroy refuses a foreign guest without --adopt, and destroys it with --adopt", async () => {
    const file = join(dir, "retired.yaml");
    const refused = await pvectl(["destroy", "-f", file, "--allow-data-loss", "--yes"], env);
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(refused.stdout + refused.stderr, /vmid 251 is an existing guest that pvectl did not create/);
    assert.equal(((await client.request("GET", "/nodes/pve1/qemu/251/config")) as { name?: string }).name, "retired", "still there");
    const destroyed = await pvectl(["destroy", "-f", file, "--adopt", "--allow-data-loss", "--yes"], env);
    assert.equal(destroyed.code, 0, destroyed.stdout + destroyed.stderr);
    const left = (await client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number }>;
    assert.equal(
      left.some((g) => g.vmid === 251),
      false,
    );
  });
});
