// Removing a retired guest from known_hosts leaves exactly what OpenSSH's own `ssh-keygen -R`
// leaves, for plain, comma-listed, bracketed and hashed entries; and a line that names none of
// the hosts is never touched (property).
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import fc from "fast-check";
import { removeFromKnownHostsFile, removeKnownHosts } from "../../src/app/netbox/known-hosts.js";

const hasSshKeygen = spawnSync("ssh-keygen", ["-?"], { stdio: "ignore" }).error === undefined;
const dir = mkdtempSync(join(tmpdir(), "pvectl-known-hosts-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function publicKey(): string {
  const key = join(dir, "key");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key]);
  return readFileSync(`${key}.pub`, "utf8").split(" ").slice(0, 2).join(" ");
}

const HOSTS = ["web-01", "web-01.lab.example.com", "10.20.0.5"];

function sample(key: string): string {
  return [
    `web-01 ${key}`,
    `Web-01.Lab.Example.com ${key}`,
    `web-01,10.20.0.5 ${key}`,
    `[web-01]:2222 ${key}`,
    `web-010 ${key}`,
    `other,10.20.0.50 ${key}`,
    `@cert-authority web-01 ${key}`,
    "# web-01 was here",
    "",
    `10.20.0.5 ${key}`,
    "",
  ].join("\n");
}

function sshKeygenRemove(text: string, hosts: string[]): string {
  const file = join(dir, "ssh-keygen");
  writeFileSync(file, text);
  for (const host of hosts) execFileSync("ssh-keygen", ["-R", host, "-f", file], { stdio: "ignore" });
  return readFileSync(file, "utf8");
}

test("the same lines go as with ssh-keygen -R, plain and hashed", { skip: !hasSshKeygen && "ssh-keygen is not installed" }, () => {
  const key = publicKey();
  const plain = sample(key);
  assert.equal(removeKnownHosts(plain, HOSTS).text, sshKeygenRemove(plain, HOSTS));

  const hashedFile = join(dir, "hashed");
  writeFileSync(hashedFile, plain);
  execFileSync("ssh-keygen", ["-H", "-f", hashedFile], { stdio: "ignore" });
  const hashed = readFileSync(hashedFile, "utf8");
  assert.match(hashed, /^\|1\|/m);
  const ours = removeKnownHosts(hashed, HOSTS);
  assert.equal(ours.text, sshKeygenRemove(hashed, HOSTS));
  assert.ok(ours.removed >= 4);
});

test("a line naming none of the hosts is kept byte for byte", () => {
  const hostName = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,12}$/);
  fc.assert(
    fc.property(
      fc.array(fc.array(hostName, { minLength: 1, maxLength: 3 }), { maxLength: 12 }),
      fc.array(hostName, { minLength: 1, maxLength: 3 }),
      (lines, hosts) => {
        const text = lines.map((names) => `${names.join(",")} ssh-ed25519 AAAA`).join("\n");
        const kept = removeKnownHosts(text, hosts)
          .text.split("\n")
          .filter((l) => l !== "");
        const expected = lines
          .filter((names) => !names.some((n) => hosts.includes(n)))
          .map((names) => `${names.join(",")} ssh-ed25519 AAAA`);
        assert.deepEqual(kept, expected);
      },
    ),
  );
});

test("the file keeps its mode, the old one is kept as .old, a missing file is nothing to do", async () => {
  const file = join(dir, "known_hosts");
  writeFileSync(file, "web-01 ssh-ed25519 AAAA\nother ssh-ed25519 BBBB\n", { mode: 0o600 });
  assert.equal(await removeFromKnownHostsFile(file, ["web-01"]), 1);
  assert.equal(readFileSync(file, "utf8"), "other ssh-ed25519 BBBB\n");
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(readFileSync(`${file}.old`, "utf8"), "web-01 ssh-ed25519 AAAA\nother ssh-ed25519 BBBB\n");
  assert.equal(await removeFromKnownHostsFile(join(dir, "absent"), ["web-01"]), 0);
});
