// PVE keeps the numbers of a property string as they were written (JSONSchema's
// parse_property_string only checks them; print_property_string prints the text back), so a
// client that compares the config with the string it sent (community.general's proxmox_nic)
// sees no change on its second run. Only booleans (on -> 1) and sizes (size=) are rewritten.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Harness } from "./guests-harness.js";

describe("numbers in property strings", () => {
  it("a NIC's rate, mtu and queues read back exactly as written", async () => {
    const h = new Harness();
    await h.createVm(100, { net0: "virtio=BC:24:11:00:00:01,bridge=vmbr0" });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 9999 }), fc.constantFrom("", ".0", ".5", ".25", ".000"), async (whole, fraction) => {
        const rate = `${whole}${fraction}`;
        const net0 = `virtio=BC:24:11:00:00:01,bridge=vmbr0,firewall=1,mtu=1500,queues=4,rate=${rate}`;
        await h.call("PUT", "/nodes/pve1/qemu/100/config", { net0 });
        assert.equal((await h.config(100)).net0, net0);
      }),
      { numRuns: 25 },
    );
  });

  it("a disk's limits keep their text; `size` is still printed as PVE prints it", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4,mbps_rd=10.0,iops_rd=0100" });
    assert.equal((await h.config(100)).scsi0, "local-lvm:vm-100-disk-0,iops_rd=0100,mbps_rd=10.0,size=4G");
  });

  it("a container NIC's rate and mtu keep their text", async () => {
    const h = new Harness();
    await h.ok("POST", "/nodes/pve1/lxc", {
      vmid: 200,
      ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
      rootfs: "local-lvm:2",
      net0: "name=eth0,bridge=vmbr0,hwaddr=BC:24:11:00:00:02,rate=12.50",
    });
    assert.equal((await h.config(200, "pve1", "lxc")).net0, "name=eth0,bridge=vmbr0,hwaddr=BC:24:11:00:00:02,rate=12.50,type=veth");
  });
});
