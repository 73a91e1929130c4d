// `pvectl sim --netbox` runs the NetBox simulator beside the PVE one and prints both.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { ROOT } from "../support/cli.js";
import { pvectlNodeArgs } from "../support/pvectl-command.js";

test("pvectl sim --netbox --json: both APIs answer, with the printed URL and token", async () => {
  const child = spawn(process.execPath, pvectlNodeArgs(["sim", "--port", "0", "--http", "--netbox", "--json"]), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ["ignore", "pipe", "pipe"],
  });
  try {
    const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
    const info = JSON.parse(line) as { api: string; netbox: { url: string; token: string } };
    const planned = (await (
      await fetch(`${info.netbox.url}/api/virtualization/virtual-machines/?status=planned`, {
        headers: { Authorization: `Token ${info.netbox.token}` },
      })
    ).json()) as { count: number };
    assert.equal(planned.count, 3, "the demo records are there, all planned");
    const version = await fetch(`${info.api}/version`);
    assert.equal(version.status, 401, "the PVE simulator answers (and wants a login)");
  } finally {
    child.kill("SIGINT");
    await once(child, "close");
  }
});

test("pvectl sim --netbox with a bad port says so", async () => {
  const child = spawn(process.execPath, pvectlNodeArgs(["sim", "--port", "0", "--netbox", "eighty"]), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const [code] = (await once(child, "close")) as [number];
  assert.equal(code, 1);
  assert.match(stderr, /--netbox.*'eighty' is not a port/);
});
