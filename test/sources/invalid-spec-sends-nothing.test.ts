// "An invalid spec sends nothing to the cluster": `pvectl plan` and `pvectl apply` with a
// broken spec fail before the first request. A counting server stands in for the cluster; the
// same run with a valid spec does reach it, so the count is known to work.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { buildProgram } from "../../src/cli/main.js";
import { SpecError } from "../../src/sources/spec/index.js";

describe("an invalid spec sends nothing to the cluster", () => {
  let server: Server;
  let requests = 0;
  let dir = "";
  const saved: Record<string, string | undefined> = {};

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "pvectl-nothing-"));
    server = createServer((_req, res) => {
      requests++;
      res.writeHead(401, { "content-type": "application/json" });
      res.end('{"data":null}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const env: Record<string, string> = {
      PROXMOX_HOST: `http://127.0.0.1:${port}`,
      PROXMOX_USER: "root@pam",
      PROXMOX_PASSWORD: "not-a-real-password",
    };
    for (const [key, value] of Object.entries(env)) {
      saved[key] = process.env[key];
      process.env[key] = value;
    }
  });

  after(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  for (const command of ["plan", "apply"]) {
    it(`pvectl ${command} refuses the spec before any request`, async () => {
      const bad = join(dir, `bad-${command}.yaml`);
      await writeFile(bad, "vms:\n  - { vmid: 201, name: web1, node: pve1, corse: 2 }\n");
      requests = 0;
      const args = command === "apply" ? ["node", "pvectl", command, bad, "--yes"] : ["node", "pvectl", command, bad];
      await assert.rejects((await buildProgram(args)).parseAsync(args), SpecError);
      assert.equal(requests, 0);
    });
  }

  it("the same command with a valid spec does reach the server (the count works)", async () => {
    const good = join(dir, "good.yaml");
    await writeFile(good, "vms:\n  - { vmid: 201, name: web1, node: pve1, cores: 2 }\n");
    requests = 0;
    // Silence the plan's text; the test runner's own (binary) messages still go through.
    const stdout = process.stdout.write;
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
      typeof chunk === "string" ? true : stdout.call(process.stdout, chunk, ...rest)) as typeof process.stdout.write;
    try {
      await (await buildProgram()).parseAsync(["node", "pvectl", "plan", good]).catch(() => undefined);
    } finally {
      process.stdout.write = stdout;
    }
    assert.ok(requests > 0, "the valid spec's plan never reached the server");
  });
});
