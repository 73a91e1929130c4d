// A container config change is checked as pve-container's check_ct_modify_config_perm does:
// `hostname` is a network option (VM.Config.Network), and a NIC needs SDN.Use on both the
// bridge it leaves and the one it joins. pvectl's preflight asks for the same, so a plan the
// preflight passes is not refused halfway by the simulator, and the other way round.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { buildPlan } from "../../src/engine/plan.js";
import type { PveClient } from "../../src/api/index.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { desiredOf } from "../../src/app/plan-spec.js";
import { clientAs, converge, type Lab, startLab } from "../support/engine-lab.js";

const CT = (hostname: string, bridge: string) => `containers:
  - vmid: 270
    hostname: ${hostname}
    node: pve1
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"
    memory: 512
    rootfs: { storage: local-lvm, size: 4G }
    nics:
      net0: { bridge: ${bridge}, ip: dhcp }
`;

describe("container config changes: hostname and bridges", () => {
  let lab: Lab;
  let options: PveClient;
  let network: PveClient;
  before(async () => {
    lab = await startLab({
      config: {
        access: {
          roles: [
            { roleid: "CtOptions", privs: ["VM.Audit", "VM.Config.Options"] },
            { roleid: "CtNetwork", privs: ["VM.Audit", "VM.Config.Network", "VM.Config.Options"] },
          ],
          users: [
            { userid: "options@pve", password: "options123" },
            { userid: "network@pve", password: "network123" },
          ],
          acl: [
            { path: "/vms/270", roles: ["CtOptions"], users: ["options@pve"] },
            { path: "/vms/270", roles: ["CtNetwork"], users: ["network@pve"] },
            { path: "/sdn/zones/localnetwork/vmbr0", roles: ["PVESDNUser"], users: ["network@pve"] },
            { path: "/storage", roles: ["PVEDatastoreUser"], users: ["options@pve", "network@pve"] },
          ],
        },
      },
    });
    await converge(lab, CT("ct-a", "vmbr0"));
    options = clientAs(lab, "options@pve", "options123");
    network = clientAs(lab, "network@pve", "network123");
  });
  after(async () => {
    await options.close();
    await network.close();
    await lab.close();
  });

  const missing = async (client: PveClient, text: string) =>
    (await buildPlan(client, desiredOf(parseSpec(text, "ct.yaml")))).plan.preflightErrors
      .filter((e) => e.kind === "permission")
      .map((e) => `${e.path} ${e.privilege}`);

  it("hostname needs VM.Config.Network: preflight and the simulator both say so", async () => {
    assert.deepEqual(await missing(options, CT("ct-b", "vmbr0")), ["/vms/270 VM.Config.Network"]);
    await assert.rejects(
      options.request("PUT", "/nodes/pve1/lxc/270/config", { hostname: "ct-b" }),
      /Permission check failed \(\/vms\/270, VM\.Config\.Network\)/,
    );
    await network.request("PUT", "/nodes/pve1/lxc/270/config", { hostname: "ct-b" });
  });

  it("a NIC moved to a bridge without SDN.Use is refused by both", async () => {
    assert.deepEqual(await missing(network, CT("ct-b", "vmbr1")), ["/sdn/zones/localnetwork/vmbr1 SDN.Use"]);
    await assert.rejects(
      network.request("PUT", "/nodes/pve1/lxc/270/config", { net0: "name=eth0,bridge=vmbr1,ip=dhcp" }),
      /Permission check failed \(\/sdn\/zones\/localnetwork\/vmbr1, SDN\.Use\)/,
    );
  });
});
