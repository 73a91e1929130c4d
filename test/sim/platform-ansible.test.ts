// Fidelity against Debian's ansible (community.general 6.6.2 proxmox modules, through
// python3-proxmoxer): the info modules that read users, groups, realms and tasks.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import type { Router } from "../../src/sim/contract.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { call, login } from "./platform-helpers.js";

const ANSIBLE = "/usr/bin/ansible-playbook";
const MODULES = "/usr/lib/python3/dist-packages/ansible_collections/community/general/plugins/modules/proxmox_user_info.py";
const skip = !existsSync(ANSIBLE) || !existsSync(MODULES) ? "Debian's ansible with community.general is not installed" : false;

function taskEndpoint(router: Router): void {
  router.add("POST", "/nodes/{node}/startall", (ctx) =>
    ctx.tasks.start({ node: String(ctx.params.node), type: "startall", id: "", kind: "start", work: () => {} }),
  );
}

const playbook = (port: number) => `
- hosts: localhost
  gather_facts: false
  vars:
    auth: &auth { api_host: "127.0.0.1:${port}", api_user: root@pam, api_password: proxmox }
  tasks:
    - community.general.proxmox_user_info: { <<: *auth, userid: "ansible@pve" }
    - community.general.proxmox_group_info: { <<: *auth }
    - community.general.proxmox_domain_info: { <<: *auth }
    - community.general.proxmox_tasks_info: { <<: *auth, node: pve1 }
`;

describe("ansible community.general proxmox modules against the simulator", { skip }, () => {
  let sim: RunningSimulator;
  let dir: string;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 2, extraHandlers: taskEndpoint });
    dir = mkdtempSync(join(tmpdir(), "pvectl-sim-ansible-"));
  });
  after(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads users, groups, realms and tasks", async () => {
    const root = await login(sim);
    await call(sim, "POST", "/access/groups", { auth: root, params: { groupid: "ops", comment: "operators" } });
    await call(sim, "POST", "/access/users", { auth: root, params: { userid: "ansible@pve", groups: "ops", firstname: "An" } });
    await call(sim, "POST", "/access/users/ansible@pve/token/ci", { auth: root });
    const upid = (await call(sim, "POST", "/nodes/pve1/startall", { auth: root })).json.data as string;
    await sim.admin.waitForTasks();

    const file = join(dir, "play.yml");
    writeFileSync(file, playbook(sim.port));
    const { stdout } = await promisify(execFile)(ANSIBLE, [file, "-e", "ansible_python_interpreter=/usr/bin/python3"], {
      encoding: "utf8",
      timeout: 120000,
      env: {
        ...process.env,
        ANSIBLE_STDOUT_CALLBACK: "json",
        ANSIBLE_LOCALHOST_WARNING: "False",
        ANSIBLE_INVENTORY_UNPARSED_WARNING: "False",
      },
    });
    const results = JSON.parse(stdout).plays[0].tasks.map((t: { hosts: { localhost: Record<string, unknown> } }) => t.hosts.localhost);
    for (const r of results) assert.equal(r.failed, undefined, JSON.stringify(r));
    const [users, groups, domains, tasks] = results;
    assert.deepEqual(users.proxmox_users, [
      {
        userid: "ansible@pve",
        user: "ansible",
        domain: "pve",
        enabled: true,
        expire: 0,
        firstname: "An",
        groups: ["ops"],
        tokens: [{ tokenid: "ci", privsep: true, expire: 0 }],
      },
    ]);
    assert.deepEqual(groups.proxmox_groups, [{ groupid: "ops", comment: "operators", users: ["ansible@pve"] }]);
    assert.deepEqual(
      domains.proxmox_domains.map((d: { realm: string }) => d.realm),
      ["pam", "pve"],
    );
    assert.deepEqual(
      tasks.proxmox_tasks.map((t: { upid: string; status: string; type: string }) => [t.upid, t.type, t.status]),
      [[upid, "startall", "OK"]],
    );
  });
});
