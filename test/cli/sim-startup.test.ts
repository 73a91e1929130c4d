// `pvectl sim` startup lines: what it prints about TLS matches what it serves.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, it } from "node:test";
import { ROOT } from "../support/cli.js";
import { pvectlNodeArgs } from "../support/pvectl-command.js";

/** Starts `pvectl sim ARGS`, returns its banner (up to "Press Ctrl-C"), then stops it. */
async function banner(args: string[]): Promise<string> {
  const child = spawn(process.execPath, pvectlNodeArgs(["sim", "--port", "0", ...args]), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  while (!out.includes("Press Ctrl-C")) {
    const [chunk] = await Promise.race([once(child.stdout, "data"), once(child, "exit").then(() => [undefined])]);
    if (chunk === undefined) throw new Error(`pvectl sim exited early: ${out}`);
  }
  child.kill("SIGINT");
  await once(child, "exit");
  return out;
}

describe("pvectl sim startup lines", () => {
  it("says TLS is on when it serves HTTPS, next to the fingerprint", async () => {
    const text = await banner([]);
    assert.match(text, /listening on https:\/\/127\.0\.0\.1:\d+\/api2\/json/);
    assert.match(text, /\n {2}TLS: +on \(HTTPS/);
    assert.match(text, /\n {2}fingerprint: ([0-9A-F]{2}:){31}[0-9A-F]{2} /);
    assert.doesNotMatch(text, /plain HTTP/);
  });

  it("says TLS is off with --http, and prints no fingerprint", async () => {
    const text = await banner(["--http"]);
    assert.match(text, /listening on http:\/\/127\.0\.0\.1:\d+\/api2\/json/);
    assert.match(text, /\n {2}TLS: +off \(plain HTTP\)/);
    assert.doesNotMatch(text, /fingerprint/);
  });
});
