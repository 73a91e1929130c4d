// A container's values checked as pve-container checks them, the counterpart of the VM value
// checks: each value PVE would refuse is reported at its file:line:col with what to do, every
// one in the same run, and what pve-container accepts stays accepted.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseSpec, SpecError } from "../../src/sources/spec/index.js";

const lines = (...rows: string[]): string => `${rows.join("\n")}\n`;

/** A container that could be created, with `extra` as line 6. */
function ct(extra: string, { hostname = "c1", ostemplate = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst" } = {}): string {
  return lines(
    "containers:",
    `  - hostname: ${hostname}`,
    "    node: pve1",
    `    ostemplate: ${ostemplate}`,
    "    rootfs: { storage: local-lvm, size: 8G }",
    `    ${extra}`,
  );
}

function problems(text: string): string[] {
  try {
    parseSpec(text, "ct.yaml");
  } catch (err) {
    assert.ok(err instanceof SpecError, `expected a SpecError, got ${String(err)}`);
    return err.issues.map((i) => `${i.location?.line}:${i.location?.column}: ${i.message}`);
  }
  assert.fail("the spec was accepted");
}

const LONG_NAME = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(64)}`;
const NIC = (options: string) => `nics: { net0: { bridge: vmbr0, ${options} } }`;
const MP = (options: string) => `mounts: { mp0: { storage: local-lvm, size: 8G, mountpoint: /d, ${options} } }`;

// [what, the spec, the one problem PVE's reason and position give]
const REFUSED: Array<[string, string, string]> = [
  [
    "a hostname that is not a DNS name",
    ct("onboot: true", { hostname: "web_1" }),
    "2:15: `web_1` is not valid: letters, digits and '-', dots only between labels (a DNS name)",
  ],
  [
    "a hostname over 255 characters",
    ct("onboot: true", { hostname: LONG_NAME }),
    "2:15: PVE would refuse this: value may only be 255 characters long",
  ],
  [
    "an ostemplate over 255 characters",
    ct("onboot: true", { ostemplate: `local:vztmpl/${"a".repeat(240)}.tar.zst` }),
    "4:17: PVE would refuse this: value may only be 255 characters long",
  ],
  [
    "a nameserver with an octet over 255",
    ct("nameserver: [10.0.0.1, 999.1.1.1]"),
    "6:17: PVE would refuse this: invalid format - value does not look like a valid IP address",
  ],
  [
    "a nameserver that is not IPv6",
    ct("nameserver: ['::::::']"),
    "6:17: PVE would refuse this: invalid format - value does not look like a valid IP address",
  ],
  [
    "a search domain that is not a DNS name",
    ct("searchdomain: ['exa mple']"),
    "6:20: `exa mple` is not valid: a DNS name, e.g. example.com",
  ],
  ["an unknown time zone", ct("timezone: Mars/Base"), "6:15: PVE would refuse this: invalid format - invalid time zone 'Mars/Base'"],
  [
    "a time zone in the wrong case",
    ct("timezone: europe/berlin"),
    "6:15: PVE would refuse this: invalid format - invalid time zone 'europe/berlin'",
  ],
  [
    "an ostype PVE has no setup for",
    ct("ostype: windows"),
    "6:13: `windows` is not one of debian, devuan, ubuntu, centos, fedora, opensuse, archlinux, alpine, gentoo, nixos, unmanaged",
  ],
  ["no cores", ct("cores: 0"), "6:12: must be at least 1, got 0"],
  ["more cores than PVE allows", ct("cores: 9000"), "6:12: must be at most 8192, got 9000"],
  ["a cpulimit over 8192", ct("cpulimit: 9000"), "6:15: must be at most 8192, got 9000"],
  ["cpuunits over 500000", ct("cpuunits: 600000"), "6:15: must be at most 500000, got 600000"],
  ["memory under 16 MiB", ct("memory: 8"), "6:13: must be at least 16, got 8"],
  ["negative swap", ct("swap: -1"), "6:11: must be at least 0, got -1"],
  ["a tag PVE refuses", ct("tags: ['-x']"), "6:12: `-x` is not valid: letters, digits and _ - + . (not starting with - + .)"],
  [
    "a startup order PVE cannot parse",
    ct("startup: 'order=1,up=-1'"),
    "6:14: PVE would refuse this: invalid format - unable to parse startup options",
  ],
  [
    "a description over 8192 characters",
    ct(`description: ${"x".repeat(8193)}`),
    "6:18: PVE would refuse this: value may only be 8192 characters long",
  ],
  [
    "an empty list of file systems to mount",
    ct("features: { nesting: true, mount: [] }"),
    "6:39: PVE would refuse this: value does not match the regex pattern (list at least one file system type, e.g. [nfs], or leave `mount` out)",
  ],
  [
    "a mount option PVE does not know",
    ct(MP("mountoptions: 'noatime;bogus'")),
    "6:82: PVE would refuse this: value does not match the regex pattern (write PVE's mount options joined with ;, from discard, lazytime, noatime, nodev, noexec, nosuid, e.g. noatime;nodev)",
  ],
  [
    "a size without a unit PVE knows",
    ct("mounts: { mp0: { storage: local-lvm, size: 8X, mountpoint: /d } }"),
    "6:48: `8X` is not a size; write a size with a unit: K, M, G or T (powers of 1024), e.g. 32G or 512M",
  ],
  [
    "a mount path with a .. step",
    ct("mounts: { mp0: { storage: local-lvm, size: 8G, mountpoint: /d/../etc } }"),
    "6:64: PVE would refuse this: invalid format - /d/../etc contains illegal character sequences",
  ],
  [
    "an IPv4 address without its prefix length",
    ct(NIC("ip: 10.0.0.3")),
    "6:40: PVE would refuse this: invalid format - value does not look like a valid ipv4 network configuration (write dhcp, manual or an IPv4 address in CIDR form, e.g. 10.0.0.5/24)",
  ],
  [
    "an IPv6 gateway as gw",
    ct(NIC("ip: 10.0.0.3/24, gw: 'fd00::1'")),
    "6:57: PVE would refuse this: invalid format - value does not look like a valid IPv4 address (write an IPv4 address, e.g. 10.0.0.1)",
  ],
  [
    "an IPv6 address without its prefix length",
    ct(NIC("ip6: 'fd00::5'")),
    "6:41: PVE would refuse this: invalid format - value does not look like a valid ipv6 network configuration (write dhcp, auto, manual or an IPv6 address in CIDR form, e.g. fd00::5/64)",
  ],
  [
    "an IPv4 gateway as gw6",
    ct(NIC("ip6: 'fd00::5/64', gw6: 10.0.0.1")),
    "6:60: PVE would refuse this: invalid format - value does not look like a valid IPv6 address (write an IPv6 address, e.g. fd00::1)",
  ],
  ["a rate that is not a number", ct(NIC("rate: fast")), '6:42: expected a number, got the string "fast"'],
  ["VLAN tag 0", ct(NIC("tag: 0")), "6:41: must be at least 1, got 0"],
  ["VLAN tag 4095", ct(NIC("tag: 4095")), "6:41: must be at most 4094, got 4095"],
  ["trunks separated by commas", ct(NIC("trunks: '10,20'")), "6:44: PVE would refuse this: illegal value with commas for trunks"],
  [
    "a multicast MAC",
    ct(NIC("hwaddr: '01:00:00:00:00:01'")),
    "6:44: PVE would refuse this: invalid format - value does not look like a valid unicast MAC address (a NIC needs a unicast MAC: the first octet must be even, e.g. BC:24:11:2A:3B:4C)",
  ],
  ["an MTU under 64", ct(NIC("mtu: 10")), "6:41: must be at least 64, got 10"],
  ["an MTU over 65535", ct(NIC("mtu: 70000")), "6:41: must be at most 65535, got 70000"],
];

describe("container values PVE would refuse", () => {
  for (const [what, spec, problem] of REFUSED) {
    it(`refuses ${what} at its position, with what to write`, () => {
      assert.deepEqual(problems(spec), [problem]);
    });
  }

  // The spec's shape is checked first (a container with a shape error goes no further, as a VM);
  // these are PVE's checks, made on every value of a container whose shape is right.
  it("reports every such value of a container in one run", () => {
    const found = problems(
      lines(
        "containers:",
        `  - hostname: ${LONG_NAME}`,
        "    node: pve1",
        "    timezone: Mars/Base",
        "    nameserver: [999.1.1.1]",
        "    features: { mount: [] }",
        "    mounts: { mp0: { storage: local-lvm, size: 8G, mountpoint: /d, mountoptions: bogus } }",
        "    nics: { net0: { bridge: vmbr0, ip: 10.0.0.3, gw: 'fd00::1' } }",
      ),
    );
    assert.deepEqual(
      found.map((problem) => problem.split(": ")[0]),
      ["2:15", "4:15", "5:17", "6:24", "7:82", "8:40", "8:54"],
    );
  });
});

describe("container values pve-container accepts", () => {
  const ACCEPTED: Array<[string, string]> = [
    ["the host's time zone, UTC, and zones by their zone.tab names", "timezone: host"],
    ["UTC", "timezone: UTC"],
    ["a zone whose name changed in the time zone database", "timezone: Asia/Kolkata"],
    ["IPv4 and IPv6 nameservers", "nameserver: [10.0.0.1, '2001:db8::53']"],
    // update_pct_config and the create call check none of these.
    [
      "two mount points at one path",
      "mounts: { mp0: { storage: local-lvm, size: 8G, mountpoint: /d }, mp1: { volume: /srv, mountpoint: /d } }",
    ],
    ["a mount point at /", "mounts: { mp0: { storage: local-lvm, size: 8G, mountpoint: / } }"],
    ["a gateway on a NIC without an address of its own", NIC("gw: 10.0.0.1")],
    ["PVE's mount options", MP("mountoptions: 'noatime;nodev;discard'")],
    ["VLAN trunks", NIC("trunks: '10;20'")],
    ["a hostname of 255 characters", "onboot: true"],
  ];
  for (const [what, extra] of ACCEPTED) {
    it(`accepts ${what}`, () => {
      const hostname = what.startsWith("a hostname") ? LONG_NAME.slice(1) : "c1";
      assert.doesNotThrow(() => parseSpec(ct(extra, { hostname }), "ct.yaml"));
    });
  }
});
