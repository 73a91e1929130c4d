import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeConfigText, encodeConfigText, parseConfigFile, printConfigFile, storedDescription } from "../../src/pve/index.js";
import { fixtureNames, readFixture } from "./helpers.js";

describe("parseConfigFile", () => {
  it("splits current config, pending, special sections and snapshots", () => {
    const text = [
      "# web server",
      "#  owner%3A ops",
      "boot: order=scsi0",
      "memory: 2048",
      "net0: virtio=BC:24:11:AA:BB:CC,bridge=vmbr0",
      "parent: before-upgrade",
      "",
      "[PENDING]",
      "delete: net1,!scsi2",
      "memory: 4096",
      "",
      "[special:cloudinit]",
      "name: web",
      "",
      "[before-upgrade]",
      "#snapshot note",
      "memory: 1024",
      "snaptime: 1700000000",
      "",
    ].join("\n");
    const file = parseConfigFile(text, { kind: "qemu", vmid: 100 });
    assert.deepEqual(file.current, {
      // PVE keeps everything after '#', including the space, and trims trailing whitespace.
      description: " web server\n  owner: ops",
      boot: "order=scsi0",
      memory: "2048",
      net0: "virtio=BC:24:11:AA:BB:CC,bridge=vmbr0",
      parent: "before-upgrade",
    });
    assert.deepEqual(file.pending, { delete: "net1,!scsi2", memory: "4096" });
    assert.deepEqual(file.special, { cloudinit: { name: "web" } });
    assert.deepEqual(file.snapshots, { "before-upgrade": { description: "snapshot note", memory: "1024", snaptime: "1700000000" } });
    assert.deepEqual(file.warnings, []);
    assert.equal(printConfigFile(file), text);
  });

  it("drops values PVE cannot read and says why, like PVE's non-strict parser", () => {
    const file = parseConfigFile("numa: verify meee~ :)\ncores: 2\nthis is not a line\ndelete: net0\n", { kind: "qemu", vmid: 8006 });
    assert.deepEqual(file.current, { cores: "2" });
    assert.deepEqual(file.warnings, [
      "vm 8006 - unable to parse value of 'numa' - type check ('boolean') failed - got 'verify meee~ :)'",
      "vm 8006 - unable to parse config: this is not a line",
      "vm 8006 - property 'delete' is only allowed in [PENDING]",
    ]);
  });

  it("keeps keys the API does not take (parent, snaptime, meta) and reads without a schema when no kind is given", () => {
    const file = parseConfigFile("meta: creation-qemu=9.0.2,ctime=1725975013\nnuma: nonsense\n");
    assert.deepEqual(file.current, { meta: "creation-qemu=9.0.2,ctime=1725975013", numa: "nonsense" });
  });

  it("writes back exactly what qemu-server's own parser tests expect", () => {
    const inputs = fixtureNames("qemu__parse-config-input__");
    assert.ok(inputs.length >= 6);
    for (const input of inputs) {
      const expectedName = input.replace("parse-config-input", "parse-config-expected");
      const expected = fixtureNames(expectedName).length ? readFixture(expectedName) : readFixture(input);
      assert.equal(printConfigFile(parseConfigFile(readFixture(input), { kind: "qemu" })), expected, input);
    }
  });

  it("keeps the later of duplicate sections, as PVE does", () => {
    const file = parseConfigFile(readFixture("qemu__parse-config-input__duplicate-sections.conf"), { kind: "qemu" });
    assert.deepEqual(file.pending, { vga: "qxl" });
    assert.equal(file.special.cloudinit?.name, "deb123");
    assert.equal(file.snapshots.foo?.cores, "4");
  });
});

describe("container configs", () => {
  const text = [
    "#Jellyfin",
    "arch: amd64",
    "hostname: media",
    "memory: 2048",
    "net0: name=eth0,bridge=vmbr0,hwaddr=BC:24:11:00:00:01,ip=dhcp,type=veth",
    "ostype: debian",
    "rootfs: local-lvm:vm-101-disk-0,size=8G",
    "lxc.cgroup2.devices.allow: c 226:0 rwm",
    "lxc.mount.entry: /dev/dri dev/dri none bind,optional,create=dir",
    "lxc.cgroup2.devices.allow: c 226:128 rwm",
    "",
    "[pve:pending]",
    "features: keyctl=1,nesting=1",
    "",
    "[before]",
    "arch: amd64",
    "memory: 1024",
    "snaptime: 1700000000",
    "",
  ].join("\n");

  it("reads [pve:pending] and keeps repeated raw lxc.* lines in order", () => {
    const file = parseConfigFile(text, { kind: "lxc", vmid: 101 });
    assert.equal(file.kind, "lxc");
    assert.deepEqual(file.pending, { features: "keyctl=1,nesting=1" });
    assert.deepEqual(file.lxcRaw[""], [
      ["lxc.cgroup2.devices.allow", "c 226:0 rwm"],
      ["lxc.mount.entry", "/dev/dri dev/dri none bind,optional,create=dir"],
      ["lxc.cgroup2.devices.allow", "c 226:128 rwm"],
    ]);
    assert.equal(file.snapshots.before?.memory, "1024");
    assert.deepEqual(file.warnings, []);
    assert.equal(printConfigFile(file), text);
  });

  it("guesses the container dialect from the text when no kind is given", () => {
    assert.equal(parseConfigFile(text).kind, "lxc");
    assert.equal(printConfigFile(parseConfigFile(text)), text);
  });

  it("keeps a value it cannot read but warns, as pve-container does", () => {
    const file = parseConfigFile(readFixture("lxc__snapshot-input__create__lxc__203.conf"), { kind: "lxc", vmid: 203 });
    assert.equal(file.current.ostype, "redhat");
    assert.deepEqual(file.warnings, [
      "vm 203 - unable to parse value of 'ostype' - value 'redhat' does not have a value in the enumeration 'debian, devuan, ubuntu, centos, fedora, opensuse, archlinux, alpine, gentoo, nixos, unmanaged'",
    ]);
    assert.equal(printConfigFile(file), readFixture("lxc__snapshot-input__create__lxc__203.conf"));
  });
});

describe("sections PVE does not know", () => {
  const text = [
    "name: web",
    "bios: ovmf",
    "",
    "[special:something-new]",
    "#not the description",
    "name: overwritten",
    "bios: seabios",
    "",
    "[:3]",
    "cores: 64",
    "",
    "[PENDING]",
    "memory: 4096",
    "",
    "[x]",
    "memory: 1",
    "",
    "[snap1]",
    "memory: 1024",
    "",
  ].join("\n");

  it("skips every line of an unknown qemu section until the next known one (PVE 9's parse_vm_config)", () => {
    const file = parseConfigFile(text, { kind: "qemu", vmid: 100 });
    assert.deepEqual(file.current, { name: "web", bios: "ovmf" });
    assert.deepEqual(file.pending, { memory: "4096" });
    assert.deepEqual(file.special, {});
    // a one-letter name is no snapshot name ([a-z][a-z0-9_-]+), so [x] is unknown too
    assert.deepEqual(file.snapshots, { snap1: { memory: "1024" } });
    assert.deepEqual(file.warnings, [
      "vm 100 - skipping unknown section: 'special:something-new'",
      "vm 100 - skipping unknown section: ':3'",
      "vm 100 - skipping unknown section: 'x'",
    ]);
  });

  it("knows only [PENDING] for VMs and only [pve:pending] for containers", () => {
    const vm = parseConfigFile("cores: 2\n[pve:pending]\ncores: 4\n", { kind: "qemu", vmid: 1 });
    assert.deepEqual(vm.current, { cores: "2" });
    assert.deepEqual(vm.pending, {});
    const ct = parseConfigFile("cores: 2\n[PENDING]\ncores: 4\n", { kind: "lxc", vmid: 2 });
    assert.deepEqual(ct.pending, {});
    assert.deepEqual(ct.snapshots, { PENDING: { cores: "4" } });
  });

  it("has pve-container read on after an unknown header, as it has no such rule", () => {
    const ct = parseConfigFile("cores: 2\n[special:x]\ncores: 4\n", { kind: "lxc", vmid: 2 });
    assert.deepEqual(ct.current, { cores: "4" });
    assert.deepEqual(ct.warnings, ["vm 2 - unable to parse config: [special:x]"]);
  });

  it("warns about duplicate qemu sections", () => {
    const file = parseConfigFile(readFixture("qemu__parse-config-input__duplicate-sections.conf"), { kind: "qemu", vmid: 120 });
    assert.deepEqual(file.warnings, [
      "vm 120 - duplicate section: pending",
      "vm 120 - duplicate special section: cloudinit",
      "vm 120 - duplicate snapshot section: foo",
    ]);
  });
});

describe("descriptions", () => {
  it("are read back without trailing whitespace by qemu-server, with a newline per line by pve-container", () => {
    const text = "#line one\n#\n#line two  \n#\n#\ncores: 1\n";
    assert.equal(parseConfigFile(text, { kind: "qemu" }).current.description, "line one\n\nline two");
    assert.equal(parseConfigFile(text, { kind: "lxc" }).current.description, "line one\n\nline two  \n\n\n");
  });

  it("storedDescription is what a guest reads back after PVE wrote a description", () => {
    assert.equal(storedDescription("qemu", "managed by ansible\n"), "managed by ansible");
    assert.equal(storedDescription("qemu", "a\n\nb \n\n"), "a\n\nb");
    assert.equal(storedDescription("lxc", "managed by ansible\n"), "managed by ansible\n");
    assert.equal(storedDescription("lxc", "a\n\nb\n\n"), "a\n\nb\n");
    for (const kind of ["qemu", "lxc"] as const) {
      for (const text of ["x\n", "a\n\nb  \n", "single"]) {
        const file = parseConfigFile(printConfigFile({ kind, current: { description: text } }), { kind });
        assert.equal(file.current.description, storedDescription(kind, text), `${kind} ${JSON.stringify(text)}`);
      }
    }
  });
});

describe("qemu specifics", () => {
  it("rewrites bus drives in PVE's key order while reading, and leaves efidisk0 as written", () => {
    const file = parseConfigFile(
      [
        "scsi0: size=32G,iothread=1,file=local-lvm:vm-100-disk-0,discard=on",
        "ide2: media=cdrom,file=none",
        "sata1: local:100/vm-100-disk-1.qcow2,size=1024M,backup=0",
        "efidisk0: efitype=4m,file=local-lvm:vm-100-disk-2,size=528K",
        "",
      ].join("\n"),
      { kind: "qemu", vmid: 100 },
    );
    assert.deepEqual(file.current, {
      scsi0: "local-lvm:vm-100-disk-0,discard=on,iothread=1,size=32G",
      ide2: "none,media=cdrom",
      sata1: "local:100/vm-100-disk-1.qcow2,backup=0,size=1G",
      efidisk0: "efitype=4m,file=local-lvm:vm-100-disk-2,size=528K",
    });
  });

  it("stores the cdrom alias as ide2", () => {
    assert.deepEqual(parseConfigFile("cdrom: local:iso/debian.iso,media=cdrom\n", { kind: "qemu" }).current, {
      ide2: "local:iso/debian.iso,media=cdrom",
    });
  });
});

describe("description encoding", () => {
  it("escapes ':' control and non-ASCII characters as UTF-8 %XX and nothing else", () => {
    assert.equal(encodeConfigText("Owner: Zoë 100%"), "Owner%3A Zo%C3%AB 100%");
    assert.equal(decodeConfigText("Owner%3A Zo%C3%AB 100%"), "Owner: Zoë 100%");
    assert.equal(decodeConfigText("%zz"), "%zz");
  });
});
