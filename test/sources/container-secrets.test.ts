// A container's root password source follows the operator's secret policy like a connection's
// secrets, and may never be a connection's own credential (that would copy it into a guest).
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { checkContainerSecrets, ContainerSecretError } from "../../src/sources/ct-secrets.js";
import { DEFAULT_SECRET_POLICY } from "../../src/sources/secret-policy.js";
import { parseSpec } from "../../src/sources/spec/index.js";

const CONNECTION = ["connections:", "  lab: { host: pve.example.com, tokenId: pvectl, tokenSecretEnv: PVE_LAB_SECRET, user: a@pve }"];

function refusals(specFile: string, ...container: string[]): string[] {
  const spec = parseSpec(
    [...CONNECTION, "containers:", `  - { hostname: ct1, node: pve1, ${container.join(", ")} }`, ""].join("\n"),
    specFile,
  );
  try {
    checkContainerSecrets(spec, DEFAULT_SECRET_POLICY);
    return [];
  } catch (err) {
    assert.ok(err instanceof ContainerSecretError);
    return err.problems;
  }
}

describe("a container's password source", () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "pvectl-ct-secrets-"));
    await writeFile(join(dir, "root.txt"), "s3cret-root\n");
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("may be a variable with an allowed prefix, or a file beside the spec", () => {
    assert.deepEqual(refusals(join(dir, "ct.yaml"), "passwordEnv: PVE_CT_ROOT"), []);
    assert.deepEqual(refusals(join(dir, "ct.yaml"), "passwordFile: root.txt"), []);
  });

  it("is refused outside the policy: another prefix, a file elsewhere", () => {
    const [env] = refusals(join(dir, "ct.yaml"), "passwordEnv: HOME");
    assert.match(
      env ?? "",
      /container ct1 \(.*ct\.yaml:\d+:\d+\): passwordEnv: refusing to read HOME: it does not start with an allowed prefix \(PROXMOX_, PVE_\)/,
    );
    const [file] = refusals(join(dir, "ct.yaml"), "passwordFile: /etc/shadow");
    assert.match(file ?? "", /passwordFile: refusing to read \/etc\/shadow: it is outside the spec's directory/);
  });

  it("is refused when it is a connection's credential", () => {
    for (const variable of ["PVE_LAB_SECRET", "PROXMOX_PASSWORD", "PROXMOX_TOKEN_SECRET"]) {
      const [problem] = refusals(join(dir, "ct.yaml"), `passwordEnv: ${variable}`);
      assert.match(problem ?? "", new RegExp(`refusing to read ${variable}: it is a connection's credential`), variable);
    }
  });
});
