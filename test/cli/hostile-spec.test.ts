// A hostile spec (say, from a pull request that CI plans with its secrets in the environment)
// tries to send secrets to a listener it names: over plain HTTP to another machine, from a
// variable not meant for specs, from a file outside the spec's directory. `pvectl plan`
// refuses each before sending anything: the listener records every request and sees none.
// The same spec with --allow-http does reach it, so the recording is known to work.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pvectl } from "../support/cli.js";

const SECRET = "ci-secret-0d9f8e7c6b5a";

/** An address of this machine that is not loopback, so plain HTTP to it counts as "the network". */
function externalAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === "IPv4" && !i.internal)?.address;
}

describe("a hostile spec sends no secret anywhere", () => {
  const external = externalAddress();
  let server: Server;
  let port = 0;
  let dir = "";
  const seen: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "pvectl-hostile-"));
    mkdirSync(join(dir, "pr"));
    writeFileSync(join(dir, "ci-secret"), `${SECRET}\n`);
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += d.toString()));
      req.on("end", () => {
        seen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)} ${body}`);
        res.writeHead(401, { "content-type": "application/json" });
        res.end('{"data":null}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  function spec(name: string, connection: string): string {
    const file = join(dir, "pr", `${name}.yaml`);
    writeFileSync(file, `version: 1\nconnections:\n  lab: { ${connection} }\nvms:\n  - { vmid: 300, name: x, node: pve1 }\n`);
    return file;
  }

  async function refused(args: string[], env: NodeJS.ProcessEnv, expected: RegExp): Promise<void> {
    seen.length = 0;
    const result = await pvectl(args, { PVE_PASSWORD: SECRET, AWS_SECRET_ACCESS_KEY: SECRET, ...env });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, expected);
    assert.deepEqual(seen, [], "the listener received nothing");
  }

  it("plain HTTP to another machine: refused, unless --allow-http (then the listener does get the login)", {
    skip: external === undefined && "no non-loopback address",
  }, async () => {
    const file = spec("http", `host: "http://${external}:${port}", user: root@pam, passwordEnv: PVE_PASSWORD`);
    await refused(
      ["plan", file],
      {},
      new RegExp(
        `^error: connection \`lab\` \\(${file}:3:3\\): refusing to connect: plain HTTP to http://${external}:${port}, which is not this machine, .*--allow-http`,
      ),
    );
    const allowed = await pvectl(["plan", file, "--allow-http"], { PVE_PASSWORD: SECRET });
    assert.equal(allowed.code, 1);
    assert.ok(
      seen.some((r) => r.includes(SECRET)),
      "with --allow-http the password does reach the listener: the recording works",
    );
  });

  it("a variable not meant for specs, even to a local listener", async () => {
    const file = spec("env", `host: "http://127.0.0.1:${port}", user: root@pam, passwordEnv: AWS_SECRET_ACCESS_KEY`);
    await refused(
      ["plan", file],
      {},
      /^error: connection `lab` \(.*env\.yaml:3:3\): passwordEnv: refusing to read AWS_SECRET_ACCESS_KEY: it does not start with an allowed prefix .*--secret-env-prefix/,
    );
  });

  it("a file outside the spec's directory, by .. or by absolute path", async () => {
    for (const path of ["../ci-secret", join(dir, "ci-secret")]) {
      const file = spec("file", `host: "http://127.0.0.1:${port}", user: root@pam, passwordFile: "${path}"`);
      await refused(
        ["plan", file],
        {},
        /^error: connection `lab` \(.*file\.yaml:3:3\): passwordFile: refusing to read .*ci-secret: it is outside the spec's directory .*--secrets-dir DIR/,
      );
    }
  });

  it("PROXMOX_HOST=http://... to another machine sends no password", {
    skip: external === undefined && "no non-loopback address",
  }, async () => {
    const file = join(dir, "pr", "plain.yaml");
    writeFileSync(file, "version: 1\nvms:\n  - { vmid: 300, name: x, node: pve1 }\n");
    const env = { PROXMOX_HOST: `http://${external}:${port}`, PROXMOX_USER: "root@pam", PROXMOX_PASSWORD: SECRET };
    await refused(["plan", file], env, /^error: PROXMOX_HOST: refusing to connect: plain HTTP to .*--allow-http/);
  });
});
