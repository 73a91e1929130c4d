// `pvectl access needs -c netbox.yaml` and `access check -c`: the PVE privileges of netbox sync,
// serve and decommission (text, --json with the NetBox token's permissions, --format spec), what a
// token lacks of them; a NetBox config given as a spec, or a spec given to -c, is refused with
// the way to give it.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parse } from "yaml";
import { PveClient } from "../../src/api/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv } from "../support/cli.js";

const CONFIG = `clusters:
  pve-lab: { node: pve1, storage: local-lvm, bridge: vmbr0 }
platforms:
  debian-13: { ostype: l26, iso: "local:iso/debian-13-netinst.iso" }
  debian-ct: { container: { ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst", bridge: vmbr1 } }
writeBack:
  primaryIp4: { fallbackPrefix: 10.20.0.0/24 }
decommission: { final: delete }
`;
const TWO_CONNECTIONS = `connections:
  a: { host: a.example }
  b: { host: b.example }
clusters:
  one: { connection: a, node: pve1, storage: local-lvm }
  two: { connection: b, node: pve1, storage: local-lvm }
platforms:
  debian-13: { ostype: l26 }
`;

describe("pvectl access with a NetBox config", () => {
  let sim: RunningSimulator;
  let root: PveClient;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "pvectl-access-netbox-"));
    sim = await startSimulator({ port: 0, seed: 3 });
    root = new PveClient({ host: "127.0.0.1", port: sim.port, user: "root@pam", password: sim.rootPassword, fingerprint: sim.fingerprint });
    env = simEnv(sim);
    await root.request("POST", "/access/users", { userid: "netbox@pve" });
    await root.request("POST", "/access/users/netbox@pve/token/sync", { privsep: 0 });
    await root.request("PUT", "/access/acl", { path: "/vms", roles: "PVEVMAdmin", users: "netbox@pve" });
  });
  after(async () => {
    await root.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("needs -c: the guests' privileges on /vms, each storage and bridge the platforms name, and the NetBox token's", async () => {
    const out = await pvectl(["access", "needs", "-c", file("netbox.yaml", CONFIG)]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^\/vms\n(?: {2}.+\n)*? {2}VM\.Allocate +create, destroy: debian-13 on pve-lab, debian-ct on pve-lab$/m);
    assert.match(out.stdout, /^\/sdn\/zones\/localnetwork\/vmbr0\n {2}SDN\.Use +change, create: debian-13 on pve-lab$/m);
    assert.match(out.stdout, /^\/sdn\/zones\/localnetwork\/vmbr1\n {2}SDN\.Use +change, create: debian-ct on pve-lab$/m);
    assert.match(out.stdout, /^note: guests built from NetBox records are in no pool/m);
    assert.match(out.stdout, /^NetBox token \(object permissions/m);
    assert.match(out.stdout, /^ {2}virtualization\.virtualmachine delete +decommission: /m);
  });

  it("needs -c --json and --format spec: the NetBox permissions in JSON, as comments in the spec", async () => {
    const json = await pvectl(["access", "needs", "-c", file("netbox.yaml", CONFIG), "--json"]);
    assert.equal(json.code, 0, json.stderr);
    const { paths, netbox } = JSON.parse(json.stdout) as {
      paths: Array<{ path: string }>;
      netbox: Array<{ objectType: string; action: string }>;
    };
    assert.deepEqual(
      paths.map((p) => p.path),
      ["/sdn/zones/localnetwork/vmbr0", "/sdn/zones/localnetwork/vmbr1", "/storage/local", "/storage/local-lvm", "/vms"],
    );
    assert.ok(
      netbox.some((p) => p.objectType === "ipam.ipaddress" && p.action === "add"),
      "writeBack.primaryIp4 adds addresses",
    );
    const spec = await pvectl([
      "access",
      "needs",
      "-c",
      file("netbox.yaml", CONFIG),
      "--format",
      "spec",
      "--token",
      "netbox@pve!sync",
      "--role",
      "NetboxSync",
    ]);
    assert.equal(spec.code, 0, spec.stderr);
    assert.match(spec.stdout, /^# {3}extras\.journalentry add /m);
    const { access } = parse(spec.stdout) as { access: { acls: Array<{ path: string; propagate: boolean }> } };
    assert.deepEqual([...new Set(access.acls.filter((a) => a.propagate).map((a) => a.path))], ["/vms"]);
  });

  it("a NetBox config given as a spec, and a spec given to -c, are refused with the way to give them", async () => {
    const config = file("netbox.yaml", CONFIG);
    const asSpec = await pvectl(["access", "needs", config]);
    assert.equal(asSpec.code, 1);
    assert.match(asSpec.stderr, /is a NetBox sync config, not a spec file/);
    assert.match(asSpec.stderr, /pvectl access needs -c /);
    const specAsConfig = await pvectl(["access", "needs", "-c", "examples/web.yaml"]);
    assert.equal(specAsConfig.code, 1);
    assert.match(specAsConfig.stderr, /examples\/web\.yaml is a spec file, not a NetBox sync config/);
    const both = await pvectl(["access", "needs", "-c", config, "examples/web.yaml"]);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /either spec files or a NetBox config/);
    const neither = await pvectl(["access", "needs", "-c", file("other.yaml", "foo: 1\n")]);
    assert.equal(neither.code, 1);
    assert.match(neither.stderr, /the NetBox config is invalid/);
  });

  it("check -c: what the token lacks (storages and bridges), exit 1; root lacks nothing, exit 0", async () => {
    const config = file("netbox.yaml", CONFIG);
    const lacking = await pvectl(["access", "check", "-c", config, "--token", "netbox@pve!sync"], env);
    assert.equal(lacking.code, 1, lacking.stderr);
    assert.match(lacking.stdout, /^\/storage\/local-lvm\n {2}Datastore\.AllocateSpace /m);
    assert.match(lacking.stdout, /^\/sdn\/zones\/localnetwork\/vmbr1\n {2}SDN\.Use /m);
    assert.doesNotMatch(lacking.stdout, /^\/vms$/m);
    const full = await pvectl(["access", "check", "-c", config, "--token", "root@pam"], env);
    assert.equal(full.code, 0, full.stderr);
  });

  it("check -c over clusters on two connections asks which one", async () => {
    const out = await pvectl(["access", "check", "-c", file("two.yaml", TWO_CONNECTIONS), "--token", "root@pam"], env);
    assert.equal(out.code, 1);
    assert.match(out.stderr, /use 2 connections \(a, b\)/);
    assert.match(out.stderr, /--connection a/);
  });
});
