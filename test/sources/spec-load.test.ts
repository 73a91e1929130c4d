// Valid spec files load into the normalized model the engine consumes: sizes in bytes, memory
// in MiB, tags sorted, defaults filled in, connections resolved, several files merged.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadSpecFiles, parseSpec } from "../../src/sources/spec/index.js";

const GiB = 1024 ** 3;

describe("examples/web.yaml (the README demo)", () => {
  it("loads three VMs with sizes in bytes, memory in MiB and sorted tags", async () => {
    const spec = await loadSpecFiles(["examples/web.yaml"]);
    assert.deepEqual(
      spec.vms.map((vm) => [vm.vmid, vm.name, vm.node, vm.power]),
      [
        [201, "web1", "pve1", "running"],
        [202, "web2", "pve2", "running"],
        [301, "db1", "pve3", "stopped"],
      ],
    );
    const [web1, web2, db1] = spec.vms;
    assert.ok(web1 && web2 && db1);
    assert.deepEqual(spec.connections, {});
    assert.equal(web1.connection, undefined, "no connection named: the PROXMOX_* environment is used");
    assert.equal(web1.memory, 2048);
    assert.deepEqual(web1.tags, ["production", "web"]);
    assert.deepEqual(web2.tags, ["production", "web"], "written [production, web] and [web, production]: same list");
    assert.deepEqual(web1.disks.scsi0, {
      storage: "local-lvm",
      sizeBytes: 16 * GiB,
      options: { discard: "on", iothread: true, ssd: true },
    });
    assert.deepEqual(web1.nics.net0, { bridge: "vmbr0", firewall: true }, "no model written: not managed (a new NIC gets virtio)");
    assert.deepEqual(web1.agent, { enabled: true });
    assert.deepEqual(web1.cloudInit, {
      slot: "ide2",
      storage: "local-lvm",
      user: "debian",
      sshKeys: ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemoKeyOnlyDemoKeyOnlyDemoKeyOnly0000000000 ops@example.com"],
      ipconfig: { ipconfig0: { ip: "10.0.10.11/24", gw: "10.0.10.1" } },
      nameservers: ["10.0.10.1"],
    });
    assert.deepEqual(web1.unmanaged, ["cdroms"], "web1 writes no `cdroms:` section: its CD-ROM drives are left alone");
    assert.deepEqual(db1.unmanaged, ["cloudInit"], "db1 writes disks, cdroms and nics but no `cloudInit:`");
    assert.equal(db1.memory, 8192);
    assert.equal(db1.balloon, 4096);
    assert.equal(db1.disks.scsi1?.sizeBytes, 100 * GiB);
    assert.equal(db1.disks.scsi1?.format, "raw");
    assert.deepEqual(db1.cdroms, { ide2: { iso: "local:iso/debian-13-netinst.iso" } });
    assert.deepEqual(db1.nics.net1, { bridge: "vmbr1", tag: 20, mtu: 1 });
    assert.deepEqual(db1.boot, ["scsi0", "ide2"]);
    // The VM's position is where its mapping starts: the `vmid` after "  - ".
    const lines = (await readFile("examples/web.yaml", "utf8")).split("\n");
    assert.deepEqual(db1.source, { file: "examples/web.yaml", line: lines.indexOf("  - vmid: 301") + 1, column: 5 });
  });
});

describe("examples/full.yaml (every part of the format)", () => {
  it("loads the connection, the escape hatch and an absent VM", async () => {
    const spec = await loadSpecFiles(["examples/full.yaml"]);
    const lab = spec.connections.lab;
    assert.ok(lab);
    assert.equal(lab.tokenSecretEnv, "PVE_LAB_TOKEN_SECRET");
    assert.equal(lab.caPath, join(process.cwd(), "examples", "lab-ca.pem"), "paths are relative to the spec file");
    const [win, cloud, old] = spec.vms;
    assert.ok(win && cloud && old);
    assert.equal(win.connection, "lab", "the only connection is the default");
    assert.deepEqual(win.extraConfig, {
      rng0: "source=/dev/urandom",
      spice_enhancements: "videostreaming=all",
      vga: "qxl",
      hotplug: "disk,network,usb",
    });
    assert.equal(win.balloon, 0);
    assert.deepEqual(win.efidisk, { storage: "local-lvm", format: "raw", efitype: "4m", preEnrolledKeys: true });
    assert.deepEqual(win.tpm, { storage: "local-lvm", version: "v2.0" });
    assert.deepEqual(win.agent, { enabled: true, fstrimClonedDisks: true });
    assert.deepEqual(win.disks.scsi1?.options, { iothread: true, backup: false, mbps_wr: 200 });
    assert.deepEqual(win.cdroms.ide3, {}, "an empty drive");
    assert.deepEqual(win.nics.net0?.macaddr, "BC:24:11:00:04:10");
    assert.deepEqual(win.nics.net1, { model: "e1000", bridge: "vmbr1", rate: 50, linkDown: true });
    assert.equal(cloud.disks.virtio0?.sizeBytes, undefined);
    assert.equal(cloud.disks.virtio0?.importFrom, "local:import/debian-13-genericcloud-amd64.qcow2");
    assert.deepEqual(cloud.cloudInit?.ipconfig, { ipconfig0: { ip: "dhcp", ip6: "auto" } });
    assert.equal(old.state, "absent");
    assert.deepEqual(old.unmanaged, ["disks", "cdroms", "nics", "cloudInit"]);
    assert.equal(old.kind, "vm");
  });
});

describe("normalization", () => {
  it("accepts memory in MiB or with a unit, sizes with K/M/G/T and GiB spelling, discard as a boolean", () => {
    const spec = parseSpec(
      [
        "vms:",
        "  - name: a",
        "    node: pve1",
        "    memory: 1536",
        "    balloon: 1G",
        "    tags: [Zeta, alpha, zeta]",
        "    disks:",
        "      scsi0: { storage: local-lvm, size: 1.5T, discard: true }",
        "      sata1: { storage: local-lvm, size: 512M, discard: false }",
        "      virtio2: { storage: local-lvm, size: 20GiB }",
        "    nics:",
        "      net3: { bridge: vmbr1, macaddr: 'bc:24:11:aa:bb:cc' }",
        "    detach: [scsi2, scsi1, scsi2]",
      ].join("\n"),
      "a.yaml",
    );
    const vm = spec.vms[0];
    assert.ok(vm);
    assert.equal(vm.state, "present");
    assert.equal(vm.vmid, undefined);
    assert.equal(vm.memory, 1536);
    assert.equal(vm.balloon, 1024);
    assert.deepEqual(vm.tags, ["alpha", "Zeta"], "sorted and de-duplicated as PVE does (case-insensitive)");
    assert.equal(vm.disks.scsi0?.sizeBytes, 1.5 * 1024 ** 4);
    assert.equal(vm.disks.scsi0?.options.discard, "on");
    assert.equal(vm.disks.sata1?.sizeBytes, 512 * 1024 ** 2);
    assert.equal(vm.disks.sata1?.options.discard, "ignore");
    assert.equal(vm.disks.virtio2?.sizeBytes, 20 * GiB);
    assert.equal(vm.nics.net3?.macaddr, "BC:24:11:AA:BB:CC");
    assert.deepEqual(vm.detach, ["scsi1", "scsi2"]);
  });

  it("reads every document of a multi-document file", () => {
    const spec = parseSpec("vms:\n  - { name: a, node: pve1 }\n---\nvms:\n  - { name: b, node: pve2 }\n", "multi.yaml");
    assert.deepEqual(
      spec.vms.map((vm) => [vm.name, vm.source.line]),
      [
        ["a", 2],
        ["b", 5],
      ],
    );
  });

  it("shares settings through YAML anchors kept under a top-level x- key", () => {
    const spec = parseSpec(
      [
        "x-web: &web",
        "  node: pve2",
        "  memory: 4G",
        "  nics: { net0: { bridge: vmbr0 } }",
        "vms:",
        "  - { <<: *web, vmid: 210, name: web10 }",
        "  - { <<: *web, vmid: 211, name: web11, memory: 8G }",
      ].join("\n"),
      "anchors.yaml",
    );
    assert.deepEqual(
      spec.vms.map((vm) => [vm.name, vm.node, vm.memory, vm.nics.net0?.bridge]),
      [
        ["web10", "pve2", 4096, "vmbr0"],
        ["web11", "pve2", 8192, "vmbr0"],
      ],
    );
  });

  it("treats an empty file as declaring nothing", () => {
    assert.deepEqual(parseSpec("# nothing yet\n", "empty.yaml"), { files: ["empty.yaml"], connections: {}, vms: [], containers: [] });
  });
});

describe("loadSpecFiles with several files", () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "pvectl-spec-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("merges connections and VMs; a VM in another file uses the only connection", async () => {
    const conn = join(dir, "connections.yaml");
    const vms = join(dir, "vms.yaml");
    await writeFile(conn, "connections:\n  lab:\n    host: pve1\n    tokenId: ci\n    user: ci@pve\n    tokenSecretFile: secret.txt\n");
    await writeFile(vms, "vms:\n  - { vmid: 100, name: a, node: pve1 }\n");
    const spec = await loadSpecFiles([conn, vms]);
    assert.deepEqual(spec.files, [conn, vms]);
    assert.equal(spec.vms[0]?.connection, "lab");
    assert.equal(spec.connections.lab?.tokenSecretFile, join(dir, "secret.txt"));
  });

  it("reads the YAML files of a directory in name order, and a file given twice once", async () => {
    const specs = join(dir, "specs");
    await mkdir(specs);
    await writeFile(join(specs, "b.yaml"), "vms:\n  - { vmid: 102, name: b, node: pve1 }\n");
    await writeFile(join(specs, "a.yml"), "vms:\n  - { vmid: 101, name: a, node: pve1 }\n");
    await writeFile(join(specs, "notes.txt"), "not a spec");
    const spec = await loadSpecFiles([specs, join(specs, "a.yml")]);
    assert.deepEqual(spec.files, [join(specs, "a.yml"), join(specs, "b.yaml")]);
    assert.deepEqual(
      spec.vms.map((vm) => vm.name),
      ["a", "b"],
    );
  });

  it("allows the same vmid on two different connections", async () => {
    const file = join(dir, "two.yaml");
    await writeFile(
      file,
      [
        "connections:",
        "  a: { host: pve-a, user: ci@pve, tokenId: ci, tokenSecretEnv: A_SECRET }",
        "  b: { host: pve-b, user: ci@pve, tokenId: ci, tokenSecretEnv: B_SECRET }",
        "vms:",
        "  - { vmid: 100, name: x, node: pve1, connection: a }",
        "  - { vmid: 100, name: x, node: pve1, connection: b }",
      ].join("\n"),
    );
    const spec = await loadSpecFiles([file]);
    assert.deepEqual(
      spec.vms.map((vm) => vm.connection),
      ["a", "b"],
    );
  });
});
