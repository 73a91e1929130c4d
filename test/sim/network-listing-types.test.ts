// PVE's /nodes/{node}/network answers with what its interfaces reader parsed out of the file:
// every option is text (`mtu: "9000"`, `netmask6: "64"`, `vlan-id: "20"`); only the reader's
// own flags (autostart, bridge_vlan_aware, active, exists) and priority are numbers.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Harness } from "./guests-harness.js";

type Entry = Record<string, unknown>;

describe("node network listings: value types", () => {
  it("options come back as text, in the listing and the single read, pending or applied", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1280, max: 9000 }),
        fc.integer({ min: 2, max: 4094 }),
        fc.integer({ min: 8, max: 128 }),
        async (mtu, vlan, prefix) => {
          const h = new Harness();
          await h.call("POST", "/nodes/pve1/network", {
            iface: "vmbr7",
            type: "bridge",
            mtu: 9000,
            cidr6: `fd00::1/${prefix}`,
            autostart: 1,
          });
          await h.call("PUT", "/nodes/pve1/network/vmbr7", { type: "bridge", mtu, cidr6: `fd00::1/${prefix}` });
          await h.call("POST", "/nodes/pve1/network", { iface: "vlan20", type: "vlan", "vlan-raw-device": "eno1", "vlan-id": vlan, mtu });
          for (const stage of ["pending", "applied"]) {
            const list = (await h.call("GET", "/nodes/pve1/network")) as Entry[];
            const bridge = list.find((e) => e.iface === "vmbr7");
            const vlanIface = list.find((e) => e.iface === "vlan20");
            assert.deepEqual([bridge?.mtu, bridge?.netmask6, bridge?.autostart], [String(mtu), String(prefix), 1], stage);
            assert.deepEqual([vlanIface?.mtu, vlanIface?.["vlan-id"]], [String(mtu), String(vlan)], stage);
            assert.equal(typeof bridge?.priority, "number");
            const single = (await h.call("GET", "/nodes/pve1/network/vlan20")) as Entry;
            assert.equal(single["vlan-id"], String(vlan), stage);
            await h.call("PUT", "/nodes/pve1/network");
          }
        },
      ),
      { numRuns: 10 },
    );
  });

  it("a flag set to 0 is left out, as the file has no line for it", async () => {
    const h = new Harness();
    await h.call("POST", "/nodes/pve1/network", { iface: "vmbr5", type: "bridge", autostart: 0, bridge_vlan_aware: 0 });
    const entry = (await h.call("GET", "/nodes/pve1/network/vmbr5")) as Entry;
    assert.equal(entry.autostart, undefined);
    assert.equal(entry.bridge_vlan_aware, undefined);
  });
});
