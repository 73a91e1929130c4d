import { plannedParams } from "../../src/plan/resolve-call.js";
// A container create, privilege by privilege: the token is granted what `pvectl access needs`
// says a pooled container needs (applied by pvectl as root), then each privilege its create
// call needs is taken away in turn. pvectl's preflight refuses the plan naming that privilege
// on that path, and the simulator, driven by Debian's python3-proxmoxer with the same create
// request, answers 403 naming the same pair (pve-container create_vm: the pool's
// check_perm_modify, VM.Allocate, check_ct_modify_config_perm per option, SDN.Use on the
// bridge, the storages). With everything granted both let the create through.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { PveClient } from "../../src/api/index.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { callNeeds } from "../../src/engine/privileges.js";
import type { ApiCall } from "../../src/plan/types.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { grantByPvectl, setRolePrivileges, startTlsLab, type TlsLab } from "../app/access-by-pvectl.js";
import { PROXMOXER_PREAMBLE, runProxmoxerScript, proxmoxerSkip as skip } from "./proxmoxer.js";

const SPEC = `
containers:
  - vmid: 260
    hostname: cache9
    node: pve3
    pool: team
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"
    features: { nesting: true }
    cores: 1
    memory: 1G
    swap: 512
    onboot: true
    nameserver: [10.0.0.53]
    rootfs: { storage: local-lvm, size: 4G }
    mounts:
      mp0: { storage: local-lvm, size: 2G, mountpoint: /srv, backup: false }
    nics:
      net0: { bridge: vmbr0, ip: 10.0.10.29/24, gw: 10.0.10.1 }
`;

/** The create request as proxmoxer sends it, signed in as the token; the answer's status and message. */
const SCRIPT = (tokenId: string, secret: string, params: Record<string, unknown>) => `${PROXMOXER_PREAMBLE}
from proxmoxer.core import ResourceException
user, name = ${JSON.stringify(tokenId)}.split("!")
t = ProxmoxAPI(host, port=port, user=user, token_name=name, token_value=${JSON.stringify(secret)}, verify_ssl=ca)
try:
    upid = t.nodes("pve3").lxc.post(**json.loads(${JSON.stringify(JSON.stringify(params))}))
    node = p.nodes("pve3")  # the task runs on the container's node
    print(json.dumps({"status": 200, "exit": wait(upid)}))
except ResourceException as e:
    print(json.dumps({"status": e.status_code, "message": str(e), **({"errors": e.errors} if e.errors else {})}))
`;

describe("container create privileges: preflight and the simulator (python3-proxmoxer) agree", { skip }, () => {
  let lab: TlsLab;
  let token: PveClient;
  let secret: string;
  let roles: Array<{ id: string; privileges: string[] }>;
  let create: ApiCall;
  const tokenId = "deploy@pve!ct";
  before(async () => {
    lab = await startTlsLab();
    await lab.client.request("POST", "/pools", { poolid: "team" });
    const file = join(lab.dir, "ct.yaml");
    writeFileSync(file, SPEC);
    const granted = await grantByPvectl(lab, [file], tokenId, "Ct");
    token = granted.token;
    secret = readFileSync(join(lab.dir, "token.secret"), "utf8").trim();
    roles = (granted.access.roles ?? []).map((r) => ({ id: r.id, privileges: [...r.privileges] }));
    const planned = await planSpec(lab.client, parseSpec(SPEC, file));
    const step = planned.plan.guests.flatMap((g) => g.steps).find((s) => s.calls.some((c) => c.intent.op === "create"));
    create = step?.calls.find((c) => c.intent.op === "create") as ApiCall;
    assert.ok(create, "root's plan creates the container");
  });
  after(async () => {
    await token?.close();
    await lab?.close();
  });

  // As a form would carry them: PVE's booleans are 0/1.
  const wire = () => Object.fromEntries(Object.entries(plannedParams(create)).map(([k, v]) => [k, typeof v === "boolean" ? Number(v) : v]));
  const proxmoxerCreate = () =>
    runProxmoxerScript(lab.sim, SCRIPT(tokenId, secret, wire())) as Promise<{ status: number; message?: string; exit?: string }>;
  const preflight = async () => (await planSpec(token, parseSpec(SPEC, join(lab.dir, "ct.yaml")))).plan.preflightErrors;

  it("each privilege the create call needs, taken away: both refuse and name it", async () => {
    const needed = new Set(callNeeds(create).map((n) => n.privilege));
    let tried = 0;
    for (const role of roles) {
      for (const privilege of role.privileges.filter((p) => needed.has(p))) {
        await setRolePrivileges(
          lab,
          role.id,
          role.privileges.filter((p) => p !== privilege),
        );
        try {
          const errors = await preflight();
          assert.ok(
            errors.some((e) => e.kind === "permission" && (e.privilege ?? "").split(" or ").includes(privilege)),
            `${role.id} without ${privilege}: preflight ${JSON.stringify(errors)}`,
          );
          const answer = await proxmoxerCreate();
          assert.equal(
            answer.status,
            403,
            `${role.id} without ${privilege}: the simulator let the create through (${JSON.stringify(answer)})`,
          );
          tried++;
          // create_vm refuses VM.Allocate (on the guest or its pool) with a bare raise_perm_exc().
          if (privilege === "VM.Allocate") {
            assert.equal(answer.message, "403 Forbidden: Permission check failed");
            continue;
          }
          assert.match(answer.message ?? "", new RegExp(privilege.replace(".", "\\.")), `${role.id} without ${privilege}`);
          const path = errors.find((e) => (e.privilege ?? "").split(" or ").includes(privilege))?.path ?? "";
          assert.ok((answer.message ?? "").includes(path), `${privilege}: preflight names ${path}, the simulator ${answer.message}`);
        } finally {
          await setRolePrivileges(lab, role.id, role.privileges);
        }
      }
    }
    for (const p of [
      "VM.Allocate",
      "VM.Config.Network",
      "VM.Config.CPU",
      "VM.Config.Memory",
      "VM.Config.Disk",
      "VM.Config.Options",
      "SDN.Use",
      "Datastore.AllocateSpace",
      "Pool.Allocate",
    ]) {
      assert.ok(needed.has(p), `the create needs ${p}`);
    }
    assert.ok(tried >= 9, `tried ${tried}`);
  });

  it("with everything granted, preflight passes and the simulator creates the container", async () => {
    assert.deepEqual(await preflight(), []);
    const answer = await proxmoxerCreate();
    assert.deepEqual(answer, { status: 200, exit: "OK" });
  });
});
