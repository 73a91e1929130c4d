// Every check a plan makes on spec values runs when the spec is loaded (validate, plan and
// apply all load it): a value PVE would refuse fails at its file:line:column, next to the
// spec's other problems, instead of failing later in `plan` with no position.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { parseSpec, SpecError } from "../../src/sources/spec/index.js";
import { pvectl } from "../support/cli.js";

const lines = (...rows: string[]): string => `${rows.join("\n")}\n`;

function problems(text: string): string[] {
  try {
    parseSpec(text, "web.yaml");
  } catch (err) {
    assert.ok(err instanceof SpecError, `expected a SpecError, got ${String(err)}`);
    return err.issues.map((i) => `${i.location?.line}:${i.location?.column} ${i.path.join(".")}: ${i.message}`);
  }
  assert.fail("the spec was accepted");
}

describe("values PVE would refuse, found offline", () => {
  it("refuses a multicast MAC at the NIC that has it, every NIC on its own", () => {
    assert.deepEqual(
      problems(
        lines(
          "vms:",
          "  - name: a",
          "    node: pve1",
          "    nics:",
          "      net0: { bridge: vmbr0, macaddr: '01:00:5E:00:00:01' }",
          "      net1: { bridge: vmbr0, macaddr: 'BC:24:11:00:00:01' }",
          "      net2: { bridge: vmbr0, macaddr: '33:33:00:00:00:01' }",
        ),
      ),
      [
        "5:39 vms.0.nics.net0.macaddr: PVE would refuse this: invalid format - value does not look like a valid unicast MAC address (a NIC needs a unicast MAC: the first octet must be even, e.g. BC:24:11:...)",
        "7:39 vms.0.nics.net2.macaddr: PVE would refuse this: invalid format - value does not look like a valid unicast MAC address (a NIC needs a unicast MAC: the first octet must be even, e.g. BC:24:11:...)",
      ],
    );
  });

  it("refuses cloud-init addresses, drive options and plain values PVE would refuse, each at its field", () => {
    assert.deepEqual(
      problems(
        lines(
          "vms:",
          "  - name: a",
          "    node: pve1",
          `    description: ${"x".repeat(8193)}`,
          "    disks:",
          "      scsi0: { storage: local-lvm, size: 1G, serial: 'not url-encoded!' }",
          "    nics:",
          "      net0: { bridge: vmbr0 }",
          "    cloudInit:",
          "      storage: local-lvm",
          "      ipconfig:",
          "        ipconfig0: { ip: 999.0.0.1/24, gw: 10.0.0.300 }",
        ),
      ),
      [
        "4:18 vms.0.description: PVE would refuse this: value may only be 8192 characters long",
        "6:54 vms.0.disks.scsi0.serial: PVE would refuse this: invalid format - invalid urlencoded string: not url-encoded!",
        "12:26 vms.0.cloudInit.ipconfig.ipconfig0.ip: PVE would refuse this: invalid format - value does not look like a valid ipv4 network configuration",
        "12:44 vms.0.cloudInit.ipconfig.ipconfig0.gw: PVE would refuse this: invalid format - value does not look like a valid IPv4 address",
      ],
    );
  });

  it("keeps reporting the other VMs' problems", () => {
    const found = problems(
      lines(
        "vms:",
        "  - name: a",
        "    node: pve1",
        "    nics: { net0: { bridge: vmbr0, macaddr: '01:00:5E:00:00:01' } }",
        "  - name: b",
        "    node: pve1",
        "    corse: 2",
      ),
    );
    assert.equal(found.length, 2);
    assert.match(found[0] as string, /^4:45 vms\.0\.nics\.net0\.macaddr: /);
    assert.match(found[1] as string, /^7:5 vms\.1\.corse: unknown key/);
  });

  it("checks a VM's cloud-init SSH keys as qemu-server's ssh-keygen would", () => {
    assert.deepEqual(
      problems(
        lines(
          "vms:",
          "  - name: a",
          "    node: pve1",
          "    cloudInit:",
          "      storage: local-lvm",
          "      sshKeys:",
          "        - ssh-ed25519 AAAAC3Nza+/x= me@host",
          "        - ops@laptop",
        ),
      ),
      [
        "7:11 vms.0.cloudInit.sshKeys.0: PVE would refuse this key: it is not a complete ssh-ed25519 key: its base64 part is cut off or damaged (copy the whole line of the .pub file)",
        "8:11 vms.0.cloudInit.sshKeys.1: PVE would refuse this key: it is not an OpenSSH public key: expected a key type (ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256 ...) followed by the key",
      ],
    );
  });

  it("accepts what PVE accepts: SSH keys (sent URL-encoded), addresses, options", () => {
    const spec = parseSpec(
      lines(
        "vms:",
        "  - name: a",
        "    node: pve1",
        "    boot: [scsi0, net0]",
        "    agent: { enabled: true, type: virtio }",
        "    disks: { scsi0: { storage: local-lvm, size: 1G, serial: abc-123, cache: none } }",
        "    nics: { net0: { bridge: vmbr0, macaddr: 'BC:24:11:00:00:01', tag: 10, trunks: '20;30' } }",
        "    cloudInit:",
        "      storage: local-lvm",
        "      sshKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemoKeyOnlyDemoKeyOnlyDemoKeyOnly0000000000 me@host']",
        "      ipconfig: { ipconfig0: { ip: 10.0.0.5/24, gw: 10.0.0.1, ip6: auto } }",
      ),
      "ok.yaml",
    );
    assert.equal(spec.vms.length, 1);
  });
});

describe("validate and plan refuse the same spec at the same place", () => {
  it("stops plan before any connection, with the position validate gives", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pvectl-offline-"));
    try {
      const file = join(dir, "mac.yaml");
      await writeFile(
        file,
        lines("vms:", "  - name: a", "    node: pve1", "    nics:", "      net0: { bridge: vmbr0, macaddr: '01:00:5E:00:00:01' }"),
      );
      const where = `${file}:5:39: vms[0].nics.net0.macaddr: PVE would refuse this: invalid format - value does not look like a valid unicast MAC address`;
      // No PROXMOX_* variables: plan could not connect anywhere, so it must stop at the spec.
      for (const command of ["validate", "plan"]) {
        const result = await pvectl([command, file]);
        assert.equal(result.code, 1, `${command} exit code`);
        assert.ok(result.stderr.includes(where), `${command} says where: ${result.stderr}`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
