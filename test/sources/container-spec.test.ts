// `containers:` in spec files: what a container entry loads into (the engine's DesiredCt), what
// it leaves unmanaged, and every bad input refused at its file:line:col with what to do.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { desiredContainersOf } from "../../src/app/plan-spec.js";
import { parseSpec, SpecError } from "../../src/sources/spec/index.js";

const GiB = 1024 ** 3;
const lines = (...rows: string[]): string => `${rows.join("\n")}\n`;

function problems(text: string): string[] {
  try {
    parseSpec(text, "ct.yaml");
  } catch (err) {
    assert.ok(err instanceof SpecError, `expected a SpecError, got ${String(err)}`);
    return err.issues.map((i) => `${i.location?.line}:${i.location?.column}: ${i.message}`);
  }
  assert.fail("the spec was accepted");
}

const FULL = lines(
  "containers:",
  "  - vmid: 200",
  "    hostname: web1",
  "    node: pve1",
  "    pool: web",
  "    power: running",
  "    ostemplate: local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
  "    unprivileged: true",
  "    features: { nesting: true, keyctl: true, mount: [nfs, cifs] }",
  "    cores: 2",
  "    cpulimit: 1.5",
  "    memory: 1G",
  "    swap: 256",
  "    onboot: true",
  "    tags: [web, prod]",
  "    nameserver: [10.0.0.1, 10.0.0.2]",
  "    searchdomain: [example.com]",
  "    sshPublicKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHB2ZWN0bC1kZW1vLWtleS1vbmx5LW5vdC1hLXJlYWwh ops@example.com ']",
  "    passwordEnv: PVE_CT_ROOT",
  "    rootfs: { storage: local-lvm, size: 8G, quota: true }",
  "    mounts:",
  "      mp0: { storage: local-lvm, size: 32G, mountpoint: /data, backup: true }",
  "      mp1: { volume: /srv/shared, mountpoint: /shared, ro: true }",
  "    detach: [mp2]",
  "    nics:",
  "      net0: { bridge: vmbr0, ip: 10.0.0.5/24, gw: 10.0.0.1, tag: 20, firewall: true }",
  "      net1: { name: data, bridge: vmbr1, ip: dhcp, hwaddr: bc:24:11:2a:3b:4c }",
  "    extraConfig: { tty: 3, console: false }",
);

describe("a container entry", () => {
  it("loads into the engine's DesiredCt: PVE's keys and text, sizes in bytes, slots in order", () => {
    const spec = parseSpec(FULL, "ct.yaml");
    assert.equal(spec.vms.length, 0);
    assert.deepEqual(desiredContainersOf(spec), [
      {
        kind: "lxc",
        key: "web1",
        name: "web1",
        vmid: 200,
        node: "pve1",
        ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
        options: {
          unprivileged: "1",
          cores: "2",
          cpulimit: "1.5",
          memory: "1024",
          swap: "256",
          onboot: "1",
          nameserver: "10.0.0.1 10.0.0.2",
          searchdomain: "example.com",
          features: "keyctl=1,mount=nfs;cifs,nesting=1",
          tty: "3",
          console: "0",
        },
        sshPublicKeys: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHB2ZWN0bC1kZW1vLWtleS1vbmx5LW5vdC1hLXJlYWwh ops@example.com",
        password: { env: "PVE_CT_ROOT" },
        tags: ["prod", "web"],
        mounts: [
          { slot: "rootfs", storage: "local-lvm", sizeBytes: 8 * GiB, options: { quota: "1" } },
          { slot: "mp0", storage: "local-lvm", sizeBytes: 32 * GiB, mountpoint: "/data", options: { backup: "1" } },
          { slot: "mp1", bindPath: "/srv/shared", mountpoint: "/shared", options: { ro: "1" } },
        ],
        nics: [
          { slot: "net0", name: "eth0", bridge: "vmbr0", options: { ip: "10.0.0.5/24", gw: "10.0.0.1", tag: "20", firewall: "1" } },
          { slot: "net1", name: "data", bridge: "vmbr1", hwaddr: "BC:24:11:2A:3B:4C", options: { ip: "dhcp" } },
        ],
        detach: ["mp2"],
        power: "running",
        pool: "web",
      },
    ]);
  });

  it("accepts `name` as the hostname's alias, and leaves sections it does not write unmanaged", () => {
    const [ct] = desiredContainersOf(parseSpec(lines("containers:", "  - name: db1", "    node: pve2", "    state: absent"), "ct.yaml"));
    assert.deepEqual(ct, {
      kind: "lxc",
      key: "db1",
      name: "db1",
      node: "pve2",
      options: {},
      mounts: [],
      nics: [],
      unmanaged: ["mounts", "nics"],
      absent: true,
    });
    assert.equal(ct?.tags, undefined, "no `tags:`: the container's tags are not managed");
  });

  it("an empty `mounts: {}` manages mount points (the container has none)", () => {
    const [ct] = desiredContainersOf(parseSpec(lines("containers:", "  - { hostname: a, node: pve1, mounts: {}, nics: {} }"), "ct.yaml"));
    assert.equal(ct?.unmanaged, undefined);
  });

  it("reads a password file relative to the spec file", () => {
    const spec = parseSpec(lines("containers:", "  - { hostname: a, node: pve1, passwordFile: secrets/root }"), "/etc/specs/ct.yaml");
    assert.deepEqual(spec.containers[0]?.password, { file: "/etc/specs/secrets/root" });
  });
});

describe("bad container input", () => {
  it("refuses an inline password, with what to write instead", () => {
    assert.deepEqual(problems(lines("containers:", "  - { hostname: a, node: pve1, password: hunter22 }")), [
      "2:32: inline secrets are not accepted: write `passwordEnv` or `passwordFile` (a password in a spec file ends up in git and logs), naming where the password is kept",
    ]);
  });

  it("suggests the field for typos and for PVE's and the proxmox module's names", () => {
    assert.deepEqual(
      problems(
        lines(
          "containers:",
          "  - hostname: a",
          "    node: pve1",
          "    memroy: 1G",
          "    netif: x",
          "    tty: 2",
          "    nics: { net0: { bridge: vmbr0, macaddr: BC:24:11:2A:3B:4C } }",
        ),
      ),
      [
        "4:5: unknown key `memroy`; did you mean `memory`?",
        "5:5: unknown key `netif`; here it is `nics` (keyed by slot: `nics: { net0: { bridge: vmbr0, ip: dhcp } }`)",
        "6:5: `tty` is a PVE container config key without a field of its own here: put it under `extraConfig` (e.g. `extraConfig: { tty: ... }`)",
        "7:36: unknown key `macaddr`; a container NIC's MAC is `hwaddr`",
      ],
    );
  });

  it("checks hostname and alias, template, password sources, mount points, NICs and the escape hatch", () => {
    assert.deepEqual(
      problems(
        lines(
          "containers:",
          "  - hostname: a",
          "    name: a",
          "    node: pve1",
          "    ostemplate: local:iso/debian.iso",
          "    passwordEnv: PVE_A",
          "    passwordFile: root.txt",
          "    mounts:",
          "      mp0: { storage: local-lvm, size: 8G, volume: /srv, mountpoint: /data }",
          "      mp1: { mountpoint: /x }",
          "    detach: [mp1]",
          "    nics:",
          "      net0: { bridge: vmbr0, ip: 10.0.0.300/24 }",
          "      net1: { bridge: vmbr0, hwaddr: 01:00:00:00:00:01 }",
          "      net2: { bridge: vmbr0, name: eth0 }",
          "    extraConfig: { memory: 5, ttty: 2, cmode: foo, lock: backup }",
          "  - node: pve1",
        ),
      ),
      [
        "3:5: `name` is an alias of `hostname`: give one of them, not both",
        "5:17: `local:iso/debian.iso` must be in the storage's vztmpl folder: local:vztmpl/<file>.tar.zst (or .gz, .xz, .bz2)",
        "7:5: give root's password either by `passwordEnv` or by `passwordFile`, not both",
        "9:14: a bind mount (`volume: /srv`) has no `storage`: leave it out, or drop `volume` for a new volume",
        "9:34: a bind mount (`volume: /srv`) has no `size`: leave it out, or drop `volume` for a new volume",
        "10:7: mp1 needs `storage` and `size` for a new volume (e.g. `{ storage: local-lvm, size: 8G }`), or `volume: /host/path` for a bind mount",
        "11:14: mp1 is listed under `mounts` too; detach a mount point by removing it from `mounts`",
        "13:34: PVE would refuse this: invalid format - value does not look like a valid ipv4 network configuration (write dhcp, manual or an IPv4 address in CIDR form, e.g. 10.0.0.5/24)",
        "14:38: PVE would refuse this: invalid format - value does not look like a valid unicast MAC address (a NIC needs a unicast MAC: the first octet must be even, e.g. BC:24:11:2A:3B:4C)",
        "15:7: net2 and net0 both name the interface eth0; give each NIC its own `name`",
        "16:20: `memory` has a place of its own in the spec: write it as the container's own `memory` field, not under extraConfig",
        "16:31: `ttty` is not a container config key in PVE's schema; did you mean `tty`?",
        "16:47: PVE would refuse \"foo\" for `cmode`: value 'foo' does not have a value in the enumeration 'shell, console, tty'",
        "16:52: `lock` cannot be set through a spec (PVE keeps it itself or it belongs to a single API call)",
        "17:5: a container needs `hostname` (or its alias `name`), e.g. `hostname: web1`",
      ],
    );
  });

  it("checks SSH public keys as PVE's ssh-keygen would", () => {
    assert.deepEqual(
      problems(
        lines(
          "containers:",
          "  - hostname: a",
          "    node: pve1",
          "    sshPublicKeys:",
          "      - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemo ops@x",
          "      - AAAAB3NzaC1yc2E ops@x",
        ),
      ),
      [
        "5:9: PVE would refuse this key: it is not a complete ssh-ed25519 key: its base64 part is cut off or damaged (copy the whole line of the .pub file)",
        "6:9: PVE would refuse this key: it is not an OpenSSH public key: expected a key type (ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256 ...) followed by the key",
      ],
    );
  });

  it("checks values as PVE would: ranges, MiB units, a mount point's path", () => {
    assert.deepEqual(
      problems(
        lines(
          "containers:",
          "  - hostname: a",
          "    node: pve1",
          "    memory: 8",
          "    swap: 1.5K",
          "    mounts: { mp0: { volume: /srv, mountpoint: data } }",
        ),
      ),
      ["4:13: must be at least 16, got 8", "6:48: `data` is not valid: an absolute path inside the container, e.g. /data"],
    );
  });

  it("refuses SLAAC on a host-managed NIC as pve-container does, unless the link is down", () => {
    const nic = (options: string) =>
      lines(
        "containers:",
        "  - hostname: c1",
        "    node: pve1",
        "    ostemplate: local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
        "    rootfs: { storage: local-lvm, size: 8G }",
        `    nics: { net0: { bridge: vmbr0, ${options} } }`,
      );
    const found = problems(nic("host-managed: true, ip6: auto"));
    assert.equal(found.length, 1);
    assert.match(found[0]!, /^6:\d+: PVE would refuse this: SLAAC \(ip6: auto\) is not supported for a host-managed NIC/);
    // A NIC whose link is down, or one the host does not manage, may ask for SLAAC.
    assert.doesNotThrow(() => parseSpec(nic("host-managed: true, ip6: auto, link_down: true"), "ct.yaml"));
    assert.doesNotThrow(() => parseSpec(nic("ip6: auto"), "ct.yaml"));
  });

  it("refuses a passthrough device without a path, or with one outside /dev/, as pve-container does", () => {
    const dev = (value: string) =>
      lines(
        "containers:",
        "  - hostname: c1",
        "    node: pve1",
        "    ostemplate: local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
        "    rootfs: { storage: local-lvm, size: 8G }",
        `    extraConfig: { dev0: "${value}" }`,
      );
    assert.match(problems(dev("gid=5")).join("\n"), /dev0`: a passthrough device needs its path/);
    assert.match(problems(dev("path=/tmp/x")).join("\n"), /\/tmp\/x is not a valid device path/);
    assert.match(problems(dev("/dev/../etc/shadow")).join("\n"), /is not a valid device path/);
    assert.doesNotThrow(() => parseSpec(dev("/dev/ttyUSB0,gid=20"), "ct.yaml"));
    assert.doesNotThrow(() => parseSpec(dev("path=/dev/dri/renderD128"), "ct.yaml"));
  });

  it("one vmid and one name per guest, VMs and containers together", () => {
    assert.deepEqual(
      problems(
        lines(
          "vms:",
          "  - { vmid: 200, name: a, node: pve1 }",
          "containers:",
          "  - { vmid: 200, hostname: b, node: pve1 }",
          "  - { hostname: a, node: pve1 }",
        ),
      ),
      [
        "4:13: vmid 200 is declared twice: here (b) and at ct.yaml:2:5 (a); a vmid identifies one guest",
        "5:17: the name a is used twice: here and at ct.yaml:2:5; give each guest its own name (PVE allows duplicates, which makes names useless for finding a guest)",
      ],
    );
  });
});
