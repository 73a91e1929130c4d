// What only root@pam may ask of a container create (pve-container check_ct_modify_config_perm):
// a bind or device mount point, device passthrough, a hookscript, any feature flag but nesting
// alone. An administrator of everything else is refused with PVE's reason; root is not.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { PveClient } from "../../src/api/index.js";
import { clientAs, type Lab, startLab } from "../support/engine-lab.js";

const BASE = { ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst", rootfs: "local-lvm:4" };

describe("container create: what only root@pam may ask", () => {
  let lab: Lab;
  let admin: PveClient;
  before(async () => {
    lab = await startLab({
      config: {
        access: {
          users: [{ userid: "ctadmin@pve", password: "ctadmin123" }],
          acl: [{ path: "/", roles: ["PVEVMAdmin", "PVEDatastoreAdmin", "PVESDNUser"], users: ["ctadmin@pve"] }],
        },
      },
    });
    admin = clientAs(lab, "ctadmin@pve", "ctadmin123");
  });
  after(async () => {
    await admin.close();
    await lab.close();
  });

  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ["a bind mount", { mp0: "/srv/data,mp=/data" }, /mount point type bind is only allowed for root@pam/],
    ["a device mount", { mp0: "/dev/sdb1,mp=/data" }, /mount point type device is only allowed for root@pam/],
    ["device passthrough", { dev0: "/dev/ttyUSB0" }, /configuring device passthrough is only allowed for root@pam/],
    ["a hookscript", { hookscript: "local:snippets/hook.sh" }, /changing the hookscript is only allowed for root@pam/],
    ["keyctl", { features: "keyctl=1,nesting=1" }, /changing feature flags \(except nesting\) is only allowed for root@pam/],
    ["nesting=0", { features: "nesting=0" }, /changing feature flags \(except nesting\) is only allowed for root@pam/],
  ];
  for (const [what, extra, reason] of cases) {
    it(`${what}: 403 with PVE's reason`, async () => {
      await assert.rejects(
        admin.request("POST", "/nodes/pve1/lxc", { vmid: 280, ...BASE, ...extra }),
        (e: Error & { status?: number }) => e.status === 403 && reason.test(e.message),
      );
    });
  }

  it("nesting alone needs VM.Allocate, which the administrator holds", async () => {
    const upid = String(await admin.request("POST", "/nodes/pve1/lxc", { vmid: 281, ...BASE, features: "nesting=1" }));
    assert.equal((await admin.waitForTask(upid)).exitstatus, "OK");
  });
});
