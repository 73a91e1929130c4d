// `pvectl access check --token` against a client nobody here wrote: python3-proxmoxer reads
// GET /access/permissions?userid=<token> as root (and the token its own dump), and what pvectl
// reports missing is exactly what the same needs lack in proxmoxer's dump. Also PVE's rule on
// who may ask: a user without Sys.Audit on /access gets 403 for another user's permissions.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { checkAccess, specAccessNeeds } from "../../src/app/access.js";
import { missingPrivileges } from "../../src/engine/privileges.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { PROXMOXER_PREAMBLE, proxmoxerSkip as skip, runProxmoxerScript } from "./proxmoxer.js";

const SPEC = parseSpec(
  `vms:
  - vmid: 201
    name: web1
    node: pve1
    pool: web
    power: running
    memory: 1G
    disks:
      scsi0: { storage: local-lvm, size: 4G }
    cdroms:
      ide2: { iso: "local:iso/debian-13-netinst.iso" }
    nics:
      net0: { bridge: vmbr0 }
  - vmid: 202
    name: web2
    node: pve1
    memory: 1G
`,
  "web.yaml",
);

const SCRIPT = `${PROXMOXER_PREAMBLE}
out = {}
out["root_reads_token"] = p.access.permissions.get(userid="deploy@pve!ci")
out["root_reads_path"] = p.access.permissions.get(userid="deploy@pve!ci", path="/vms/201")
out["root_reads_user"] = p.access.permissions.get(userid="deploy@pve")
tok = ProxmoxAPI(host, port=port, user="deploy@pve", token_name="ci", token_value=sys.argv[5], verify_ssl=ca)
out["token_reads_itself"] = tok.access.permissions.get()
usr = ProxmoxAPI(host, port=port, user="deploy@pve", password="deploy-pass-1", verify_ssl=ca)
out["user_reads_own_token"] = usr.access.permissions.get(userid="deploy@pve!ci")
try:
    usr.access.permissions.get(userid="root@pam")
    out["user_reads_root"] = "allowed"
except Exception as e:
    out["user_reads_root"] = str(e)
print(json.dumps(out))
`;

type Dump = Record<string, Record<string, number>>;

describe("access check reads permissions as PVE 9 answers them (python3-proxmoxer)", { skip }, () => {
  let sim: RunningSimulator;
  let root: PveClient;
  let secret: string;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 11 });
    root = new PveClient({ host: "127.0.0.1", port: sim.port, user: "root@pam", password: sim.rootPassword, fingerprint: sim.fingerprint });
    await root.request("POST", "/pools", { poolid: "web" });
    await root.waitForTask(
      (await root.request("POST", "/nodes/pve1/qemu", { vmid: 201, name: "web1", pool: "web", tags: "pvectl" })) as string,
    );
    await root.request("POST", "/access/users", { userid: "deploy@pve", password: "deploy-pass-1" });
    secret = ((await root.request("POST", "/access/users/deploy@pve/token/ci", { privsep: 1 })) as { value: string }).value;
    // The user may do much on the pool; its token only part of it (the intersection counts).
    await root.request("PUT", "/access/acl", { path: "/pool/web", roles: "PVEVMAdmin", users: "deploy@pve" });
    await root.request("PUT", "/access/acl", { path: "/pool/web", roles: "PVEVMUser", tokens: "deploy@pve!ci" });
    await root.request("PUT", "/access/acl", { path: "/storage", roles: "PVEDatastoreUser", users: "deploy@pve", tokens: "deploy@pve!ci" });
  });
  after(async () => {
    await root?.close();
    await sim?.close();
  });

  it("reports missing exactly what the needs lack in proxmoxer's dump of the token", async () => {
    const out = await runProxmoxerScript(sim, SCRIPT.replace("sys.argv[5]", JSON.stringify(secret)));
    const dump = out.root_reads_token as Dump;
    assert.deepEqual(out.token_reads_itself, dump, "a token reads the same dump of itself as root reads of it");
    assert.deepEqual(out.user_reads_own_token, dump, "a user may read its own token's permissions");
    assert.match(out.user_reads_root as string, /^403 Forbidden/);
    // Pool members are listed with the pool's privileges, the token's cut to the intersection.
    assert.ok(dump["/vms/201"]?.["VM.PowerMgmt"] !== undefined);
    assert.equal(dump["/vms/201"]?.["VM.Allocate"], undefined, "PVEVMUser on the token: no VM.Allocate");
    assert.notEqual((out.root_reads_user as Dump)["/vms/201"]?.["VM.Allocate"], undefined, "the user itself has it");
    assert.deepEqual(Object.keys(out.root_reads_path as Dump), ["/vms/201"]);

    const needs = specAccessNeeds(SPEC);
    const fromProxmoxer = missingPrivileges(
      dump,
      needs.checks.map((n, i) => ({ ...n, stepId: String(i) })),
    )
      .map((n) => `${n.path} ${n.privilege}`)
      .sort();
    const check = await checkAccess(root, SPEC, "deploy@pve!ci");
    assert.deepEqual([...new Set(fromProxmoxer)], check.missing.map((m) => `${m.path} ${m.privilege}`).sort());
    assert.ok(check.missing.some((m) => m.path === "/pool/web" && m.privilege === "VM.Allocate"));
    assert.ok(
      check.missing.some((m) => m.path === "/vms/202"),
      "web2 is in no pool and nothing grants /vms/202",
    );
  });
});
