// What `pvectl inventory` loads (issue #20: every `ansible-inventory` run starts pvectl afresh,
// and start-up was most of its time): with a plain configuration file, pvectl's or the
// community plugin's, neither undici (the PVE client is on node:https), nor the yaml library,
// nor zod. A configuration the quick check leaves to the schema does load zod, which shows
// that the check below sees what a run loads.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { pvectlNodeArgs } from "../support/pvectl-command.js";
import { ROOT, simEnv } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

describe("inventory start-up", () => {
  let lab: CliLab;
  let sim: RunningSimulator;
  let dir: string;
  before(async () => {
    lab = await startCliLab("inv-startup", { seed: 20 });
    ({ sim, dir } = lab);
    const out = join(dir, "modules.txt");
    // A loader hook for ES modules, and require.cache at exit for CommonJS (undici is CommonJS).
    writeFileSync(
      join(dir, "hook.mjs"),
      `import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) {\n  appendFileSync(${JSON.stringify(out)}, url + "\\n");\n  return next(url, context);\n}\n`,
    );
    writeFileSync(
      join(dir, "count.mjs"),
      `import { register, createRequire } from "node:module";\nimport { appendFileSync } from "node:fs";\nregister(${JSON.stringify(`file://${join(dir, "hook.mjs")}`)});\nconst cache = createRequire(import.meta.url).cache;\nprocess.on("exit", () => appendFileSync(${JSON.stringify(out)}, Object.keys(cache).join("\\n") + "\\n"));\n`,
    );
  });
  after(async () => {
    await lab.close();
  });

  /** The packages (undici, yaml, zod) an inventory run with `config` loaded (the simulator has no guests: --allow-empty). */
  async function packagesLoaded(config: string): Promise<string[]> {
    const file = join(dir, "inventory.yml");
    writeFileSync(file, config);
    writeFileSync(join(dir, "modules.txt"), "");
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ["--import", join(dir, "count.mjs"), ...pvectlNodeArgs(["inventory", "--config", file, "--list", "--allow-empty"])],
        {
          cwd: ROOT,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, ...simEnv(sim) },
          stdio: ["ignore", "ignore", "inherit"],
        },
      );
      child.on("error", reject);
      child.on("close", (c) => resolve(c ?? -1));
    });
    assert.equal(code, 0);
    const modules = readFileSync(join(dir, "modules.txt"), "utf8");
    return ["undici", "yaml", "zod"].filter((name) => modules.includes(`/node_modules/${name}/`));
  }

  it("loads neither undici nor yaml nor zod for pvectl's plain configuration", async () => {
    assert.deepEqual(await packagesLoaded("facts: basic\nconcurrency: 4\n"), []);
  });

  it("nor for the community plugin's file with connection settings and flags", async () => {
    const plugin = `plugin: community.general.proxmox\nurl: https://127.0.0.1:${sim.port}\nuser: root@pam\npassword: ${sim.rootPassword}\nvalidate_certs: false\nwant_facts: false\n`;
    assert.deepEqual(await packagesLoaded(plugin), []);
  });

  it("loads zod (not undici) for a configuration the schema checks", async () => {
    assert.deepEqual(await packagesLoaded("facts: basic\nfilters:\n  types: [qemu, lxc]\nallowEmpty: true\n"), ["zod"]);
  });
});
