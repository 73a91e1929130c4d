// Fidelity against a client nobody here wrote: Debian's python3-proxmoxer over HTTPS, trusting
// the simulator's CA, with password (ticket + CSRF), API token, and password + TOTP logins.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { totpCode } from "../../src/sim/access/totp.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";

const PYTHON = "/usr/bin/python3";
const TOTP = "JBSWY3DPEHPK3PXP";
const PROXMOXER = "/usr/lib/python3/dist-packages/proxmoxer/__init__.py";
const skip =
  !existsSync(PYTHON) || !existsSync(PROXMOXER) ? "python3-proxmoxer is not installed (apt-get install python3-proxmoxer)" : false;

// The script prints one JSON document; exceptions are reported as {"error": "..."} per step.
const SCRIPT = `
import json, sys
from proxmoxer import ProxmoxAPI
host, port, ca, password, otp = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
out = {}
p = ProxmoxAPI(host, port=port, user="root@pam", password=password, verify_ssl=ca)
out["version"] = p.version.get()
out["nodes"] = sorted(n["node"] for n in p.nodes.get())
out["root_perms"] = len(p.access.permissions.get()["/"])
p.access.users.post(userid="ansible@pve", password="ansible123")
p.access.acl.put(path="/vms", roles="PVEVMUser", users="ansible@pve")
tok = p.access.users("ansible@pve").token("ci").post(privsep=0)
t = ProxmoxAPI(host, port=port, user="ansible@pve", token_name="ci", token_value=tok["value"], verify_ssl=ca)
out["token_version"] = t.version.get()["release"]
out["token_perms"] = sorted(t.access.permissions.get(path="/vms/100")["/vms/100"].keys())
try:
    t.access.groups.post(groupid="nope")
except Exception as e:
    out["denied"] = str(e)
try:
    ProxmoxAPI(host, port=port, user="root@pam", password="wrong", verify_ssl=ca)
except Exception as e:
    out["bad_login"] = type(e).__name__
two = ProxmoxAPI(host, port=port, user="tfa@pve", password="password1", otp=otp, verify_ssl=ca)
out["tfa_version"] = two.version.get()["release"]
print(json.dumps(out))
`;

// A VM admin tries to make itself Administrator of a guest (PVE refuses), then hands itself
// a subset of what it holds (PVE allows).
const ESCALATION_SCRIPT = `
import json, sys
from proxmoxer import ProxmoxAPI
host, port, ca, password = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
root = ProxmoxAPI(host, port=port, user="root@pam", password=password, verify_ssl=ca)
root.access.users.post(userid="vmadmin@pve", password="vmadmin123")
root.access.acl.put(path="/vms", roles="PVEVMAdmin", users="vmadmin@pve")
me = ProxmoxAPI(host, port=port, user="vmadmin@pve", password="vmadmin123", verify_ssl=ca)
out = {}
try:
    me.access.acl.put(path="/vms/100", roles="Administrator", users="vmadmin@pve")
    out["escalated"] = True
except Exception as e:
    out["refused"] = str(e)
me.access.acl.put(path="/vms/100", roles="PVEVMUser", users="vmadmin@pve", propagate=0)
out["delegated"] = sorted(r["roleid"] for r in root.access.acl.get() if r["path"] == "/vms/100")
print(json.dumps(out))
`;

describe("python3-proxmoxer against the simulator", { skip }, () => {
  let sim: RunningSimulator;
  let dir: string;
  before(async () => {
    sim = await startSimulator({
      port: 0,
      seed: 1,
      config: { access: { users: [{ userid: "tfa@pve", password: "password1", totp: TOTP }] } },
    });
    dir = mkdtempSync(join(tmpdir(), "pvectl-sim-proxmoxer-"));
  });
  after(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("logs in with a password and with an API token over verified HTTPS", async () => {
    const caFile = join(dir, "ca.pem");
    const scriptFile = join(dir, "check.py");
    writeFileSync(caFile, sim.ca as string);
    writeFileSync(scriptFile, SCRIPT);
    // Asynchronous on purpose: the simulator runs in this process and must keep answering.
    const { stdout } = await promisify(execFile)(
      PYTHON,
      [scriptFile, "127.0.0.1", String(sim.port), caFile, sim.rootPassword, totpCode(TOTP, Date.now() / 1000)],
      {
        encoding: "utf8",
        timeout: 60000,
      },
    );
    const out = JSON.parse(stdout);
    assert.equal(out.version.release, "9.1");
    assert.deepEqual(out.nodes, ["pve1", "pve2", "pve3"]);
    assert.equal(out.root_perms, 47);
    assert.equal(out.token_version, "9.1");
    assert.deepEqual(out.token_perms, [
      "VM.Audit",
      "VM.Backup",
      "VM.Config.CDROM",
      "VM.Config.Cloudinit",
      "VM.Console",
      "VM.GuestAgent.Audit",
      "VM.GuestAgent.FileRead",
      "VM.GuestAgent.FileSystemMgmt",
      "VM.GuestAgent.FileWrite",
      "VM.PowerMgmt",
    ]);
    assert.equal(out.denied, "403 Forbidden: Permission check failed (/access/groups, Group.Allocate)");
    assert.equal(out.bad_login, "AuthenticationError");
    assert.equal(out.tfa_version, "9.1");
    assert.equal(sim.accessLog().byEndpoint["POST /access/ticket"], 3);
  });

  it("sees a self-escalation through PUT /access/acl refused as PVE refuses it", async () => {
    const caFile = join(dir, "ca.pem");
    const scriptFile = join(dir, "escalate.py");
    writeFileSync(caFile, sim.ca as string);
    writeFileSync(scriptFile, ESCALATION_SCRIPT);
    const { stdout } = await promisify(execFile)(PYTHON, [scriptFile, "127.0.0.1", String(sim.port), caFile, sim.rootPassword], {
      encoding: "utf8",
      timeout: 60000,
    });
    const out = JSON.parse(stdout);
    assert.equal(out.escalated, undefined);
    assert.equal(out.refused, "500 Internal Server Error: ACL update failed: 400 Parameter verification failed.");
    assert.deepEqual(out.delegated, ["PVEVMUser"]);
  });
});
