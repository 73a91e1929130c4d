// NetBox platforms whose records are built as clones: the config's checks (what a clone platform
// cannot also say), and the spec a record maps to (the template's first disk grown, its storage
// left to the clone; further disks new on the record's storage).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { NetboxConfigError, parseNetboxConfig } from "../../src/sources/netbox/config.js";
import { mapRecord } from "../../src/sources/netbox/mapping.js";
import type { NetboxVmRecord } from "../../src/sources/netbox/records.js";

const text = (platform: string) => `clusters:\n  lab: { node: pve1, storage: local-lvm, bridge: vmbr0 }\nplatforms:\n  p:\n${platform}`;
const MiB = 2 ** 20;

/** A record of platform `p` with the given disk sizes (MiB) and one interface. */
function record(sizes: number[], primary?: string): NetboxVmRecord {
  return {
    vm: {
      id: 7,
      name: "app-01",
      cluster: { name: "lab" },
      platform: { slug: "p" },
      vcpus: 2,
      memory: 2048,
      tags: [],
      ...(primary ? { primary_ip4: { id: 3, address: primary } } : {}),
    },
    interfaces: [{ id: 1, name: "eth0" }],
    disks: sizes.map((size, i) => ({ id: i + 1, name: `d${i}`, size })),
  } as unknown as NetboxVmRecord;
}

function mapped(platform: string, sizes: number[], primary?: string) {
  const r = mapRecord(record(sizes, primary), parseNetboxConfig(text(platform), "nb.yaml"));
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.spec.kind, "vm");
  return r.spec;
}

describe("NetBox config: clone platforms", () => {
  test("a clone platform needs no ostype, takes neither iso nor image, and a storage only for full clones", () => {
    assert.doesNotThrow(() => parseNetboxConfig(text("    clone: { from: debian-13-tpl }\n"), "nb.yaml"));
    assert.throws(
      () => parseNetboxConfig(text("    clone: { from: 9000 }\n    image: local:import/noble.qcow2\n"), "nb.yaml"),
      (err: unknown) =>
        err instanceof NetboxConfigError &&
        /nb\.yaml:6:5: platforms\.p\.image: `image` and `clone` both say where the VM's system comes from/.test(err.userMessage()),
    );
    assert.throws(
      () => parseNetboxConfig(text("    clone: { from: 9000, storage: local-lvm }\n"), "nb.yaml"),
      /platforms\.p\.clone\.storage: `storage` applies to full clones only .*set `full: true`, or remove it/,
    );
    assert.throws(() => parseNetboxConfig(text("    clone: { from: 9000, ful: true }\n"), "nb.yaml"), /platforms\.p\.clone/);
    assert.throws(
      () => parseNetboxConfig(text("    container: { ostemplate: local:vztmpl/d.tar.zst }\n    clone: { from: 9000 }\n"), "nb.yaml"),
      /platforms\.p\.clone: `clone` is a VM setting, and this platform maps to a container/,
    );
    assert.throws(
      () => parseNetboxConfig(text("    ostype: l26\n    iso: local:iso/d.iso\n    cloudInit: { gw: 10.0.0.1 }\n"), "nb.yaml"),
      /platforms\.p\.cloudInit\.slot: the ISO's CD-ROM is on ide2, where the cloud-init drive goes by default: set `cloudInit\.slot` to another slot/,
    );
    assert.throws(
      () => parseNetboxConfig(text("    clone: { from: 9000 }\n    cloudInit: { gw: 10.0.0 }\n"), "nb.yaml"),
      /platforms\.p\.cloudInit\.gw: expected an IPv4 address/,
    );
  });
});

describe("mapping a record of a clone platform", () => {
  test("linked: clone from the template, the first disk grown where the clone puts it, further disks new on the record's storage", () => {
    const spec = mapped("    clone: { from: debian-13-tpl, full: false }\n", [8192, 20480]);
    assert.ok(spec.kind === "vm");
    assert.deepEqual(spec.clone, { from: "debian-13-tpl", full: false });
    assert.equal(spec.ostype, undefined, "the template's ostype is kept");
    assert.deepEqual(spec.disks, {
      scsi0: { sizeBytes: 8192 * MiB, options: {} },
      scsi1: { storage: "local-lvm", sizeBytes: 20480 * MiB, options: {} },
    });
    assert.deepEqual(spec.unmanaged, ["cdroms", "cloudInit"], "the template's CD-ROM and cloud-init drives are kept");
  });

  test("full onto a storage: the first disk is managed on that storage", () => {
    const spec = mapped("    ostype: l26\n    clone: { from: 9000, full: true, storage: shared }\n    bios: ovmf\n", [8192]);
    assert.ok(spec.kind === "vm");
    assert.deepEqual(spec.clone, { from: 9000, full: true, storage: "shared" });
    assert.deepEqual(spec.disks, { scsi0: { storage: "shared", sizeBytes: 8192 * MiB, options: {} } });
    assert.equal(spec.ostype, "l26");
    assert.equal(spec.efidisk, undefined, "a clone has its template's EFI vars disk");
  });

  test("cloudInit: net0's address is the record's primary IPv4 (with the gateway), else DHCP; a clone's drive stays where the template has it", () => {
    const platform = "    clone: { from: 9000 }\n    cloudInit: { gw: 10.20.0.1 }\n";
    const withIp = mapped(platform, [8192], "10.20.0.17/24");
    assert.ok(withIp.kind === "vm");
    assert.deepEqual(withIp.cloudInit, { slot: "ide2", ipconfig: { ipconfig0: { ip: "10.20.0.17/24", gw: "10.20.0.1" } } });
    assert.deepEqual(withIp.unmanaged, ["cdroms"], "the cloud-init drive is managed once configured");
    const dhcp = mapped(platform, [8192]);
    assert.ok(dhcp.kind === "vm");
    assert.deepEqual(dhcp.cloudInit, { slot: "ide2", ipconfig: { ipconfig0: { ip: "dhcp" } } });
    const made = mapped("    ostype: l26\n    image: local:import/noble.qcow2\n    cloudInit: { slot: ide0 }\n", [8192]);
    assert.ok(made.kind === "vm");
    assert.deepEqual(
      made.cloudInit,
      { slot: "ide0", storage: "local-lvm", ipconfig: { ipconfig0: { ip: "dhcp" } } },
      "a VM built from an image gets its drive on the record's storage",
    );
  });
});
