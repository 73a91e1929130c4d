// The addresses a running guest reports (QEMU agent, LXC interfaces) agree with the static
// addresses its config gives it: cloud-init ipconfigN for a VM with a cloud-init drive, ip=/ip6=
// on netN for a container. DHCP (or no setting) keeps the simulator's made-up lease.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Harness } from "./guests-harness.js";

type Row = Record<string, unknown>;
const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

const octet = fc.integer({ min: 1, max: 254 });
const ipv4 = fc.tuple(octet, octet, octet, octet).map((o) => o.join("."));
const hex = fc.integer({ min: 1, max: 0xffff }).map((n) => n.toString(16));
const ipv6 = fc.tuple(hex, hex, hex).map(([a, b, c]) => `2001:db8:${a}:${b}::${c}`);
const settings = fc.record({
  index: fc.integer({ min: 0, max: 3 }),
  ip: ipv4,
  prefix: fc.integer({ min: 8, max: 30 }),
  ip6: ipv6,
  prefix6: fc.integer({ min: 48, max: 128 }),
});

/** A VM with the agent on, booted long enough for the agent to answer. */
async function runningVm(h: Harness, vmid: number, extra: Record<string, string | number>): Promise<void> {
  await h.createVm(vmid, { agent: 1, ...extra });
  await h.ok("POST", `/nodes/pve1/qemu/${vmid}/status/start`);
  h.clock += 60;
}

/** The agent's addresses per NIC MAC: `address/prefix` in the order it lists them. */
async function agentAddresses(h: Harness, vmid: number): Promise<Record<string, string[]>> {
  const res = (await h.call("GET", `/nodes/pve1/qemu/${vmid}/agent/network-get-interfaces`)) as { result: Row[] };
  const out: Record<string, string[]> = {};
  for (const iface of res.result) {
    out[String(iface["hardware-address"])] = (iface["ip-addresses"] as Row[]).map((a) => `${a["ip-address"]}/${a.prefix}`);
  }
  return out;
}

function macOf(net: unknown): string {
  return (/([0-9A-F]{2}(?::[0-9A-F]{2}){5})/i.exec(String(net))?.[1] ?? "").toLowerCase();
}

describe("guest addresses follow the guest's static configuration", () => {
  it("the agent of a VM with a cloud-init drive reports ipconfigN's ip= and ip6= on NIC N", async () => {
    await fc.assert(
      fc.asyncProperty(settings, async (s) => {
        const h = new Harness();
        const key = `net${s.index}`;
        await runningVm(h, 100, {
          ide2: "local-lvm:cloudinit",
          [key]: "virtio,bridge=vmbr0",
          [`ipconfig${s.index}`]: `ip=${s.ip}/${s.prefix},ip6=${s.ip6}/${s.prefix6}`,
        });
        const byMac = await agentAddresses(h, 100);
        const addresses = byMac[macOf((await h.config(100))[key])] ?? [];
        assert.deepEqual(addresses.slice(0, 2), [`${s.ip}/${s.prefix}`, `${s.ip6}/${s.prefix6}`]);
        assert.equal(addresses.length, 3, "plus the link-local address");
        assert.match(addresses[2] ?? "", /^fe80:/);
      }),
      { numRuns: 25 },
    );
  });

  it("a container reports netN's ip= and ip6=", async () => {
    await fc.assert(
      fc.asyncProperty(settings, async (s) => {
        const h = new Harness();
        const name = `eth${s.index}`;
        await h.ok("POST", "/nodes/pve1/lxc", {
          vmid: 200,
          ostemplate: TEMPLATE,
          rootfs: "local-lvm:4",
          [`net${s.index}`]: `name=${name},bridge=vmbr0,ip=${s.ip}/${s.prefix},ip6=${s.ip6}/${s.prefix6}`,
          start: 1,
        });
        const ifaces = (await h.call("GET", "/nodes/pve1/lxc/200/interfaces")) as Row[];
        const iface = ifaces.find((i) => i.name === name) as Row;
        const listed = (iface["ip-addresses"] as Row[]).map((a) => `${a["ip-address-type"]} ${a["ip-address"]}/${a.prefix}`);
        assert.deepEqual(listed.slice(0, 2), [`inet ${s.ip}/${s.prefix}`, `inet6 ${s.ip6}/${s.prefix6}`]);
        assert.equal(iface.inet, `${s.ip}/${s.prefix}`);
        assert.match(String(iface.inet6), /^fe80:/, "the older inet6 key holds the last address, as `ip addr` lists it");
      }),
      { numRuns: 25 },
    );
  });

  it("DHCP or no ipconfigN keeps the made-up lease; an ipconfigN naming only ip6 gives no IPv4", async () => {
    const h = new Harness();
    await runningVm(h, 100, {
      ide2: "local-lvm:cloudinit",
      net0: "virtio,bridge=vmbr0",
      net1: "virtio,bridge=vmbr0",
      net2: "virtio,bridge=vmbr0",
      ipconfig0: "ip=dhcp",
      ipconfig2: "ip6=2001:db8::7/64",
    });
    const cfg = await h.config(100);
    const byMac = await agentAddresses(h, 100);
    const [dhcp, none, only6] = [cfg.net0, cfg.net1, cfg.net2].map((n) => byMac[macOf(n)] ?? []);
    assert.match(dhcp?.[0] ?? "", /^10\.\d+\.\d+\.\d+\/24$/);
    assert.match(none?.[0] ?? "", /^10\.\d+\.\d+\.\d+\/24$/);
    assert.deepEqual(only6?.slice(0, 1), ["2001:db8::7/64"]);
    assert.equal(only6?.length, 2);
  });

  it("ipconfigN without a cloud-init drive reaches no guest; a regenerated drive reaches it at its next boot", async () => {
    const h = new Harness();
    await runningVm(h, 100, { net0: "virtio,bridge=vmbr0", ipconfig0: "ip=192.0.2.10/24" });
    const mac = macOf((await h.config(100)).net0);
    assert.match((await agentAddresses(h, 100))[mac]?.[0] ?? "", /^10\./, "no drive: the guest asks DHCP");
    await runningVm(h, 101, { ide2: "local-lvm:cloudinit", net0: "virtio,bridge=vmbr0", ipconfig0: "ip=192.0.2.11/24" });
    const mac1 = macOf((await h.config(101)).net0);
    await h.call("PUT", "/nodes/pve1/qemu/101/config", { ipconfig0: "ip=192.0.2.99/24" });
    await h.call("PUT", "/nodes/pve1/qemu/101/cloudinit");
    assert.equal((await agentAddresses(h, 101))[mac1]?.[0], "192.0.2.11/24", "the running guest keeps what it booted with");
    await h.ok("POST", "/nodes/pve1/qemu/101/status/reboot");
    h.clock += 60;
    assert.equal((await agentAddresses(h, 101))[mac1]?.[0], "192.0.2.99/24");
  });
});
