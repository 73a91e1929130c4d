// `clone:` in a spec: the shape PVE's clone call takes, every problem at file:line:column, and
// the choices the engine gets (full left to PVE's default when unset).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseSpec, SpecError } from "../../src/sources/spec/index.js";
import { desiredVmFromSpec } from "../../src/resources/qemu/spec-desired.js";

function problems(text: string): string[] {
  try {
    parseSpec(text, "web.yaml");
  } catch (err) {
    assert.ok(err instanceof SpecError, `expected a SpecError, got ${String(err)}`);
    return err
      .userMessage()
      .split("\n")
      .slice(1)
      .map((line) => line.trim());
  }
  assert.fail("the spec was accepted");
}

const vm = (clone: string) => `vms:\n  - name: web1\n    node: pve1\n    clone: ${clone}\n`;

describe("spec: clone", () => {
  it("carries the source and the choices the spec makes, nothing it leaves out", () => {
    const [a] = parseSpec(vm("{ from: debian-tpl }"), "web.yaml").vms.map(desiredVmFromSpec);
    assert.deepEqual(a!.clone, { from: "debian-tpl" });
    const [b] = parseSpec(
      vm("{ from: 9000, full: true, storage: shared, format: qcow2, node: pve2, snapname: golden }"),
      "web.yaml",
    ).vms.map(desiredVmFromSpec);
    assert.deepEqual(b!.clone, { from: 9000, full: true, storage: "shared", format: "qcow2", node: "pve2", snapname: "golden" });
    assert.match(problems(vm("{ from: 9000, snapname: 1bad }")).join("\n"), /vms\[0\]\.clone\.snapname/);
  });

  it("a linked clone that names a storage or format is refused where it is written", () => {
    assert.deepEqual(problems(vm("{ from: 9000, full: false, storage: shared, format: raw }")), [
      "web.yaml:4:39: vms[0].clone.storage: storage applies to full clones only (PVE refuses it for a linked clone): remove it, or set full: true",
      "web.yaml:4:56: vms[0].clone.format: format applies to full clones only (PVE refuses it for a linked clone): remove it, or set full: true",
    ]);
  });

  it("a bad source, an unknown key and a format PVE does not know are each named", () => {
    const found = problems(vm("{ from: 42, fromage: x, format: vhd }"));
    assert.equal(found.length, 3, found.join("\n"));
    assert.match(found.join("\n"), /vms\[0\]\.clone\.from/);
    assert.match(found.join("\n"), /vms\[0\]\.clone\.fromage: unknown key `fromage`/);
    assert.match(found.join("\n"), /vms\[0\]\.clone\.format/);
    assert.match(problems(vm("{ full: true }")).join("\n"), /vms\[0\]\.clone\.from/);
  });

  it("boot may name the cloud-init drive (PVE boots it as a CD-ROM; import writes it so), and a clone's devices from its source", () => {
    const ci =
      "vms:\n  - name: a\n    node: pve1\n    boot: [scsi0, ide2]\n    disks:\n      scsi0: { storage: local-lvm, size: 4G }\n    cloudInit: { storage: local-lvm, slot: ide2 }\n";
    assert.deepEqual(parseSpec(ci, "web.yaml").vms[0]!.boot, ["scsi0", "ide2"]);
    assert.deepEqual(parseSpec(`${vm("{ from: tpl }")}    boot: [scsi0, net0]\n`, "web.yaml").vms[0]!.boot, ["scsi0", "net0"]);
    assert.match(
      problems("vms:\n  - name: a\n    node: pve1\n    boot: [scsi0]\n").join("\n"),
      /`scsi0` is not a disk, CD-ROM or NIC of this VM/,
    );
  });
});
