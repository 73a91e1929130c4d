import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkedCodeFormats, validateValue } from "../../src/pve/index.js";

function check(format: string, value: string): string | undefined {
  return validateValue({ type: "string", format }, value, "x").error;
}

// [format, accepted values, [refused value, PVE's message]]
const CASES: Array<[string, string[], [string, string]]> = [
  ["pve-vmid", ["100", "999999999"], ["99", "value does not look like a valid VM ID"]],
  ["pve-node", ["pve", "node-2"], ["-pve", "value does not look like a valid node name"]],
  ["pve-configid", ["net0", "my_snap-1"], ["9snap", "invalid configuration ID '9snap'"]],
  ["pve-storage-id", ["local-lvm", "ceph.pool_1"], ["local-", "storage ID 'local-' contains illegal characters"]],
  ["pve-bridge-id", ["vmbr0", "vnet.10"], ["vm br0", "invalid bridge ID 'vm br0'"]],
  ["mac-addr", ["BC:24:11:AA:BB:CC", "bc:24:11:aa:bb:cc"], ["01:24:11:AA:BB:CC", "value does not look like a valid unicast MAC address"]],
  ["pve-tag", ["prod", "k8s_node-1+x.y"], ["-x", "invalid characters in tag"]],
  ["dns-name", ["web-01.example.com", "a"], ["web_01", "value does not look like a valid DNS name"]],
  ["ip", ["10.0.0.1", "2001:db8::1"], ["10.0.0.256", "value does not look like a valid IP address"]],
  ["ipv4", ["192.168.1.10"], ["2001:db8::1", "value does not look like a valid IPv4 address"]],
  ["ipv6", ["fe80::1"], ["fe80::1%eth0", "value does not look like a valid IPv6 address"]],
  ["CIDR", ["10.0.0.0/8", "2001:db8::/64"], ["10.0.0.0/7", "value does not look like a valid CIDR network"]],
  ["CIDRv4", ["10.0.0.5/24"], ["10.0.0.5/33", "value does not look like a valid IPv4 CIDR network"]],
  ["pve-ipv4-config", ["dhcp", "manual", "10.0.0.5/24"], ["10.0.0.5", "value does not look like a valid ipv4 network configuration"]],
  ["pve-ipv6-config", ["auto", "dhcp", "fd00::5/64"], ["fd00::5", "value does not look like a valid ipv6 network configuration"]],
  ["email", ["ops@example.com", "first.last+tag@mail.example.org"], ["ops@", "value does not look like a valid email address"]],
  ["pve-userid", ["root@pam", "automation@pve"], ["root", "value 'root' does not look like a valid user name"]],
  ["pve-tokenid", ["automation@pve!ci", "root@pam"], ["automation@pve!", "value 'automation@pve!' does not look like a valid token ID"]],
  ["pve-poolid", ["prod", "team.a-1"], ["team a", "pool name 'team a' contains invalid characters"]],
  ["pve-realm", ["pam", "ldap-corp"], ["1pam", "value does not look like a valid realm"]],
  ["pve-volume-id", ["local-lvm:vm-100-disk-0", "local:iso/debian.iso"], ["vm-100-disk-0", "unable to parse volume ID 'vm-100-disk-0'"]],
  ["pve-volume-id-or-qm-path", ["none", "cdrom", "/dev/sdb", "local-lvm:32"], ["32", "unable to parse volume ID '32'"]],
  ["disk-size", ["32G", "4096", "1.5T"], ["32GB", "value does not look like a valid disk size: 32GB"]],
  ["pve-startup-order", ["order=1,up=30", "2", "down=10"], ["first", "unable to parse startup options"]],
  ["pve-tfa-secret", ["JBSWY3DPEHPK3PXP", "v2-0x0123456789abcdef"], ["short", "unable to decode TFA secret"]],
  ["pve-qm-bootdisk", ["scsi0", "virtio15"], ["net0", "invalid boot disk 'net0'"]],
  ["pve-hotplug-features", ["1", "0", "network,disk,usb", "cpu;memory"], ["gpu", "unable to parse hotplug option"]],
  ["pve-vlan-id-or-range", ["100", "2-4094"], ["1", "invalid VLAN tag '1'"]],
  ["pve-lxc-mp-string", ["/srv/data"], ["/srv/../etc", "/srv/../etc contains illegal character sequences"]],
  // A container's nameserver entries: a link-local address may name its interface.
  ["lxc-ip-with-ll-iface", ["10.0.0.1", "2001:db8::53", "fe80::1%eth0"], ["10.0.0.256", "value does not look like a valid IP address"]],
  [
    "pve-ct-timezone",
    ["host", "UTC", "Europe/Berlin", "Asia/Kolkata", "America/Argentina/Buenos_Aires"],
    ["Europe/Berln", "invalid time zone 'Europe/Berln'"],
  ],
];

describe("code formats", () => {
  for (const [format, good, [bad, message]] of CASES) {
    it(`${format}: accepts valid values and refuses others with PVE's message`, () => {
      for (const value of good) assert.equal(check(format, value), undefined, `${format} ${value}`);
      assert.equal(check(format, bad), `invalid format - ${message}\n`);
    });
  }

  it("applies -list per item (empty list allowed) and -opt to non-empty values only", () => {
    assert.equal(check("pve-vmid-list", "100,101;102 103"), undefined);
    assert.equal(check("pve-vmid-list", ""), undefined);
    assert.equal(check("pve-vmid-list", "100,1"), "invalid format - value does not look like a valid VM ID\n");
    assert.equal(check("mac-addr-opt", ""), undefined);
    assert.equal(check("mac-addr-opt", "zz"), "invalid format - value does not look like a valid unicast MAC address\n");
  });

  it("checks schedules as PVE's calendar event parser does", () => {
    assert.equal(check("pve-calendar-event", "mon..fri 02:30"), undefined);
    assert.match(String(check("pve-calendar-event", "anything at all")), /invalid calendar event 'anything at all'/);
  });

  it("compares a container's time zone as zone.tab writes it, case and all", () => {
    assert.equal(check("pve-ct-timezone", "europe/berlin"), "invalid format - invalid time zone 'europe/berlin'\n");
  });

  it("accepts values of code formats it does not check", () => {
    assert.equal(check("email-or-username-list", "anything at all"), undefined);
    assert.ok(!checkedCodeFormats().includes("email-or-username-list"));
    assert.ok(checkedCodeFormats().includes("pve-vmid"));
  });
});
