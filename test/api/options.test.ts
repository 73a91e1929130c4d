// Configuration from options and from community.proxmox's PROXMOX_* variables, with one
// message naming everything that is missing or malformed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inspect } from "node:util";
import { clientOptionsFromEnv, normalizeFingerprint, PveClient, PveError } from "../../src/api/index.js";

const SECRET = "5f0c6a3e-1d2b-4c8e-9a7f-0b1c2d3e4f50";
const FP = "AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89";

function configMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof PveError, `expected a PveError, got ${String(err)}`);
    assert.equal(err.kind, "config");
    return err.userMessage();
  }
  assert.fail("no error thrown");
}

describe("clientOptionsFromEnv", () => {
  it("reads every PROXMOX_* variable", () => {
    const options = clientOptionsFromEnv({
      PROXMOX_HOST: "pve1.example.org",
      PROXMOX_PORT: "8443",
      PROXMOX_USER: "automation@pve",
      PROXMOX_TOKEN_ID: "ci",
      PROXMOX_TOKEN_SECRET: SECRET,
      PROXMOX_VALIDATE_CERTS: "false",
      PROXMOX_CA_PATH: "/etc/ssl/pve-root-ca.pem",
      PROXMOX_FINGERPRINT: FP.replace(/:/g, "").toLowerCase(),
      PROXMOX_API_TIMEOUT: "12",
    });
    assert.deepEqual(options, {
      host: "pve1.example.org",
      port: 8443,
      user: "automation@pve",
      tokenId: "ci",
      tokenSecret: SECRET,
      validateCerts: false,
      caPath: "/etc/ssl/pve-root-ca.pem",
      fingerprint: FP,
      timeoutMs: 12_000,
    });
  });

  it("combines a bare token name with PROXMOX_USER, as community.proxmox does", () => {
    const client = PveClient.fromEnv({
      PROXMOX_HOST: "pve1",
      PROXMOX_USER: "automation@pve",
      PROXMOX_TOKEN_ID: "ci",
      PROXMOX_TOKEN_SECRET: SECRET,
    });
    assert.equal(client.identity, "automation@pve!ci");
    assert.equal(client.origin, "https://pve1:8006");
    void client.close();
  });

  it("takes a full token id as it is, and defaults a bare one to root@pam", () => {
    const full = PveClient.fromEnv({ PROXMOX_HOST: "pve1", PROXMOX_TOKEN_ID: "ops@pve!deploy", PROXMOX_TOKEN_SECRET: SECRET });
    const bare = PveClient.fromEnv({ PROXMOX_HOST: "pve1", PROXMOX_TOKEN_ID: "deploy", PROXMOX_TOKEN_SECRET: SECRET });
    assert.equal(full.identity, "ops@pve!deploy");
    assert.equal(bare.identity, "root@pam!deploy");
    void full.close();
    void bare.close();
  });

  it("prefers the password when both a password and a token are set", () => {
    const options = clientOptionsFromEnv({
      PROXMOX_HOST: "h",
      PROXMOX_USER: "root@pam",
      PROXMOX_PASSWORD: "pw-123456",
      PROXMOX_TOKEN_ID: "ci",
      PROXMOX_TOKEN_SECRET: SECRET,
    });
    assert.equal(options.password, "pw-123456");
    assert.equal(options.tokenSecret, undefined);
  });

  it("lists everything that is missing in one message", () => {
    assert.equal(
      configMessage(() => clientOptionsFromEnv({})),
      "cannot connect to Proxmox VE: PROXMOX_HOST is not set (the name or address of a Proxmox VE node); " +
        "no credentials: set PROXMOX_TOKEN_ID and PROXMOX_TOKEN_SECRET (an API token, recommended), or PROXMOX_USER and PROXMOX_PASSWORD",
    );
    assert.equal(
      configMessage(() =>
        clientOptionsFromEnv({ PROXMOX_HOST: "h", PROXMOX_TOKEN_ID: "ci", PROXMOX_PORT: "80x", PROXMOX_VALIDATE_CERTS: "maybe" }),
      ),
      "cannot connect to Proxmox VE: PROXMOX_TOKEN_ID is set but PROXMOX_TOKEN_SECRET is not; " +
        "PROXMOX_PORT='80x' is not a TCP port; use a number from 1 to 65535 (PVE listens on 8006); " +
        "PROXMOX_VALIDATE_CERTS='maybe' is not a boolean; use true or false",
    );
    assert.equal(
      configMessage(() => clientOptionsFromEnv({ PROXMOX_HOST: "h", PROXMOX_PASSWORD: "pw-123456" })),
      "cannot connect to Proxmox VE: PROXMOX_PASSWORD is set but PROXMOX_USER is not (e.g. root@pam)",
    );
  });

  it("never puts a secret into a configuration error", () => {
    const message = configMessage(() => clientOptionsFromEnv({ PROXMOX_TOKEN_SECRET: SECRET, PROXMOX_PORT: "0" }));
    assert.ok(!message.includes(SECRET));
    assert.match(
      message,
      /PROXMOX_HOST is not set.*PROXMOX_TOKEN_SECRET is set but PROXMOX_TOKEN_ID is not.*PROXMOX_PORT='0' is not a TCP port/,
    );
  });

  it("lets explicit overrides fill in what the environment lacks", () => {
    const client = PveClient.fromEnv({ PROXMOX_TOKEN_ID: "ops@pve!ci", PROXMOX_TOKEN_SECRET: SECRET }, { host: "10.0.0.5", port: 8007 });
    assert.equal(client.origin, "https://10.0.0.5:8007");
    void client.close();
    const kept = PveClient.fromEnv(
      { PROXMOX_HOST: "pve1", PROXMOX_PORT: "8443", PROXMOX_TOKEN_ID: "ops@pve!ci", PROXMOX_TOKEN_SECRET: SECRET },
      { port: undefined },
    );
    assert.equal(kept.origin, "https://pve1:8443", "an undefined override does not erase the environment");
    void kept.close();
  });
});

describe("PveClient options", () => {
  it("accepts host:port, URLs and IPv6 addresses", () => {
    const cases: Array<[string, string]> = [
      ["pve1:8443", "https://pve1:8443"],
      ["https://pve1.example.org:8006/", "https://pve1.example.org:8006"],
      ["http://127.0.0.1:9000", "http://127.0.0.1:9000"],
      ["[fd00::5]:8006", "https://[fd00::5]:8006"],
      ["fd00::5", "https://[fd00::5]:8006"],
    ];
    for (const [host, origin] of cases) {
      const client = new PveClient({ host, tokenId: "ops@pve!ci", tokenSecret: SECRET });
      assert.equal(client.origin, origin, host);
      void client.close();
    }
  });

  it("explains a user without realm and a malformed token id", () => {
    assert.equal(
      configMessage(() => new PveClient({ host: "h", user: "root", password: "pw-123456" })),
      "PROXMOX_USER 'root' is not a user id with a realm; write it as name@realm, e.g. root@pam or automation@pve",
    );
    assert.equal(
      configMessage(() => new PveClient({ host: "h", tokenId: "a@pve!", tokenSecret: SECRET })),
      "PROXMOX_TOKEN_ID 'a@pve!' is not a token id; use the full id user@realm!name (e.g. automation@pve!ci), or only the name with PROXMOX_USER set",
    );
    assert.equal(
      configMessage(() => new PveClient({ host: " " })),
      "no host given; set PROXMOX_HOST (the name or address of a Proxmox VE node)",
    );
  });

  it("does not show its secrets when printed", () => {
    const token = new PveClient({ host: "h", tokenId: "ops@pve!ci", tokenSecret: SECRET });
    const password = new PveClient({ host: "h", user: "root@pam", password: "pw-secret-99" });
    for (const text of [
      inspect(token, { depth: 10, showHidden: true }),
      JSON.stringify(token),
      inspect(password, { depth: 10, showHidden: true }),
    ]) {
      assert.ok(!text.includes(SECRET) && !text.includes("pw-secret-99"), text);
    }
    void token.close();
    void password.close();
  });

  it("normalizes fingerprints to Node's notation", () => {
    assert.equal(normalizeFingerprint(`sha256:${FP.toLowerCase()}`), FP);
    assert.equal(normalizeFingerprint(FP.replace(/:/g, " ")), FP);
  });
});
