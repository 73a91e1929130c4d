import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  canonicalConfigValue,
  isCdrom,
  isCloudinitDrive,
  driveBusOf,
  isDiskKey,
  isVmDriveKey,
  isNetKey,
  macOf,
  parseAgent,
  parseBoot,
  parseConfigFile,
  parseDrive,
  parseIpconfig,
  parseNet,
  parseNewVolume,
  parseStartup,
  printBoot,
  printDrive,
  printIpconfig,
  printNet,
  printStartup,
  PveFormatError,
  storageOfVolume,
  volumeOf,
} from "../../src/pve/index.js";
import { fixtureNames, readFixture } from "./helpers.js";

describe("disk keys", () => {
  it("knows qemu and lxc disk keys and their index ranges", () => {
    for (const key of ["ide0", "ide3", "sata5", "scsi0", "scsi30", "virtio15", "efidisk0", "tpmstate0", "unused0", "unused255"]) {
      assert.equal(isDiskKey(key, "qemu"), true, key);
    }
    for (const key of ["ide4", "sata6", "scsi31", "virtio16", "efidisk1", "unused256", "net0", "scsihw", "rootfs"]) {
      assert.equal(isDiskKey(key, "qemu"), false, key);
    }
    for (const key of ["rootfs", "mp0", "mp255", "unused3"]) assert.equal(isDiskKey(key, "lxc"), true, key);
    assert.equal(isDiskKey("scsi0", "lxc"), false);
    assert.equal(isDiskKey("mp1"), true);
    assert.equal(isNetKey("net31"), true);
    assert.equal(isNetKey("net32"), false);
  });
});

describe("drive slots", () => {
  it("gives the bus of a slot only within PVE's ranges (ide0-3, sata0-5, scsi0-30, virtio0-15)", () => {
    for (const [key, bus] of [
      ["ide3", "ide"],
      ["sata5", "sata"],
      ["scsi30", "scsi"],
      ["virtio15", "virtio"],
      ["scsi0", "scsi"],
    ] as const) {
      assert.equal(driveBusOf(key), bus, key);
    }
    for (const key of ["ide4", "sata6", "scsi31", "virtio16", "scsi01", "efidisk0", "unused0", "net0", "scsi"]) {
      assert.equal(driveBusOf(key), undefined, key);
    }
  });

  it("counts efidisk0 and tpmstate0 as VM drive keys, unusedN and out-of-range slots not", () => {
    for (const key of ["scsi0", "ide2", "efidisk0", "tpmstate0"]) assert.equal(isVmDriveKey(key), true, key);
    for (const key of ["unused0", "scsi31", "efidisk1", "rootfs", "mp0"]) assert.equal(isVmDriveKey(key), false, key);
  });
});

describe("drives", () => {
  it("parses and prints qemu drives", () => {
    const drive = parseDrive("scsi0", "local-lvm:vm-100-disk-0,discard=on,iothread=1,size=32G,ssd=1");
    assert.equal(drive.file, "local-lvm:vm-100-disk-0");
    assert.equal(drive.size, 34359738368);
    assert.equal(printDrive("scsi0", { ...drive, size: 40 * 1024 ** 3 }), "local-lvm:vm-100-disk-0,discard=on,iothread=1,size=40G,ssd=1");
    assert.deepEqual(parseDrive("efidisk0", "local:100/vm-100-disk-0.raw,efitype=4m,pre-enrolled-keys=1,size=528K"), {
      file: "local:100/vm-100-disk-0.raw",
      efitype: "4m",
      "pre-enrolled-keys": true,
      size: 528 * 1024,
    });
    assert.equal(parseDrive("tpmstate0", "local:100/base-100-disk-1.raw,size=4M,version=v2.0").version, "v2.0");
    assert.equal(parseDrive("unused0", "rbd:vm-120-disk-0").file, "rbd:vm-120-disk-0");
  });

  it("parses lxc root and mount points (volume is the default key, mp required)", () => {
    assert.deepEqual(parseDrive("mp0", "local-lvm:vm-200-disk-1,mp=/srv,backup=1,size=8G", "lxc"), {
      volume: "local-lvm:vm-200-disk-1",
      mp: "/srv",
      backup: true,
      size: 8 * 1024 ** 3,
    });
    assert.equal(
      printDrive("mp0", { volume: "local:vm-200-disk-1", size: 8 * 1024 ** 3, mp: "/srv" }, "lxc"),
      "local:vm-200-disk-1,mp=/srv,size=8G",
    );
    assert.throws(() => parseDrive("mp0", "local:vm-200-disk-1", "lxc"), /mp0\.mp: property is missing and it is not optional/);
  });

  it("refuses non-disk keys with a clear error", () => {
    assert.throws(
      () => parseDrive("net0", "virtio"),
      (err: unknown) => err instanceof PveFormatError && /not a disk key/.test(err.userMessage()),
    );
  });

  it("finds the volume, its storage, CD-ROMs and cloud-init drives without a schema", () => {
    assert.equal(volumeOf("local-lvm:vm-100-disk-0,size=32G"), "local-lvm:vm-100-disk-0");
    assert.equal(volumeOf("size=32G,file=local:iso/a.iso"), "local:iso/a.iso");
    assert.equal(volumeOf("volume=local:vm-200-disk-0,size=8G"), "local:vm-200-disk-0");
    assert.equal(storageOfVolume("local-lvm:vm-100-disk-0"), "local-lvm");
    assert.equal(storageOfVolume("/dev/sdb"), undefined);
    assert.equal(storageOfVolume("none"), undefined);
    assert.equal(isCdrom("none,media=cdrom"), true);
    assert.equal(isCdrom("local-lvm:vm-100-disk-0,size=4G"), false);
    assert.equal(isCdrom(parseDrive("ide2", "local:iso/debian.iso,media=cdrom")), true);
    assert.equal(isCloudinitDrive("lvm:vm-120-cloudinit,media=cdrom"), true);
    assert.equal(isCloudinitDrive("nfs:120/vm-120-cloudinit.qcow2,media=cdrom"), true);
    assert.equal(isCloudinitDrive("local:iso/cloudinit-notes.iso,media=cdrom"), false);
  });

  it("reads the STORAGE:SIZE_IN_GiB allocation syntax", () => {
    assert.deepEqual(parseNewVolume("local-lvm:32"), { storage: "local-lvm", bytes: 32 * 1024 ** 3 });
    assert.deepEqual(parseNewVolume("0.5"), { storage: undefined, bytes: 512 * 1024 ** 2 });
    assert.equal(parseNewVolume("local-lvm:vm-100-disk-0"), undefined);
  });
});

describe("NICs", () => {
  it("parses qemu NICs with the model as key and prints them back", () => {
    const nic = parseNet("virtio=bc:24:11:aa:bb:cc,bridge=vmbr0,tag=120");
    assert.deepEqual(nic, { model: "virtio", macaddr: "bc:24:11:aa:bb:cc", bridge: "vmbr0", tag: 120 });
    assert.equal(macOf(nic), "BC:24:11:AA:BB:CC");
    assert.equal(printNet({ ...nic, tag: undefined, firewall: true }), "virtio=bc:24:11:aa:bb:cc,bridge=vmbr0,firewall=1");
    assert.equal(printNet({ model: "e1000", bridge: "vmbr1" }), "e1000,bridge=vmbr1");
  });

  it("parses lxc NICs (name required and printed first)", () => {
    const nic = parseNet("bridge=vmbr0,hwaddr=12:34:56:78:90:12,ip=dhcp,ip6=dhcp,name=eth0,type=veth", "lxc");
    assert.equal(macOf(nic), "12:34:56:78:90:12");
    assert.equal(printNet(nic, "lxc"), "name=eth0,bridge=vmbr0,hwaddr=12:34:56:78:90:12,ip=dhcp,ip6=dhcp,type=veth");
  });
});

describe("boot, ipconfig, agent, startup", () => {
  it("reads and writes boot order", () => {
    assert.deepEqual(parseBoot("order=scsi1;ide2;net0;ide1"), { order: ["scsi1", "ide2", "net0", "ide1"] });
    assert.deepEqual(parseBoot("ndca"), { order: [], legacy: "ndca" });
    assert.equal(printBoot(["scsi0", "ide2", "net0"]), "order=scsi0;ide2;net0");
    assert.throws(() => printBoot(["scsi0", "floppy0"]), /invalid boot device 'floppy0'/);
  });

  it("reads and writes cloud-init ipconfig", () => {
    assert.deepEqual(parseIpconfig("ip=10.0.0.5/24,gw=10.0.0.1,ip6=dhcp"), { ip: "10.0.0.5/24", gw: "10.0.0.1", ip6: "dhcp" });
    assert.equal(printIpconfig({ ip6: "auto", ip: "dhcp" }), "ip=dhcp,ip6=auto");
    assert.throws(
      () => parseIpconfig("ip=10.0.0.5", "ipconfig1"),
      /ipconfig1\.ip: invalid format - value does not look like a valid ipv4 network configuration/,
    );
  });

  it("reads the agent option", () => {
    assert.deepEqual(parseAgent("1"), { enabled: true });
    assert.deepEqual(parseAgent("enabled=1,fstrim_cloned_disks=1,type=virtio"), {
      enabled: true,
      fstrim_cloned_disks: true,
      type: "virtio",
    });
  });

  it("reads and writes startup order", () => {
    assert.deepEqual(parseStartup("order=1,up=30,down=60"), { order: 1, up: 30, down: 60 });
    assert.deepEqual(parseStartup("3"), { order: 3 });
    assert.equal(printStartup({ down: 60, order: 2 }), "order=2,down=60");
    assert.throws(() => parseStartup("first"), /unable to parse startup options/);
  });
});

describe("property strings of real configs", () => {
  it("round-trips every drive and NIC of PVE-written qemu configs byte for byte", () => {
    let checked = 0;
    for (const name of fixtureNames("qemu__parse-config-").concat(fixtureNames("qemu__cfg2cmd__netdev"), fixtureNames("qemu__restore-"))) {
      const file = parseConfigFile(readFixture(name), { kind: "qemu" });
      for (const section of [file.current, ...Object.values(file.snapshots)]) {
        for (const [key, value] of Object.entries(section)) {
          if (isDiskKey(key, "qemu")) {
            assert.equal(printDrive(key, parseDrive(key, value)), value, `${name} ${key}`);
            checked++;
          } else if (isNetKey(key)) {
            assert.equal(printNet(parseNet(value, "qemu", key), "qemu", key), value, `${name} ${key}`);
            checked++;
          }
        }
      }
    }
    assert.ok(checked > 50, `only ${checked} values checked`);
  });

  it("re-reads lxc NICs of hand-written test configs to the same values (PVE re-orders keys)", () => {
    let checked = 0;
    for (const name of fixtureNames("lxc__")) {
      const file = parseConfigFile(readFixture(name), { kind: "lxc" });
      for (const [key, value] of Object.entries(file.current)) {
        if (!isNetKey(key) && !isDiskKey(key, "lxc")) continue;
        const parse = (text: string) => (isNetKey(key) ? parseNet(text, "lxc", key) : parseDrive(key, text, "lxc"));
        const values = parse(value);
        const printed = isNetKey(key) ? printNet(values, "lxc", key) : printDrive(key, values, "lxc");
        assert.deepEqual(parse(printed), values, `${name} ${key}`);
        checked++;
      }
    }
    assert.ok(checked >= 8, `only ${checked} values checked`);
    assert.equal(
      printNet(parseNet("bridge=vmbr0,name=eth0,ip=1.2.3.4/24,gw=4.3.2.1,ip6=2000::1/64,gw6=20ff::1", "lxc"), "lxc"),
      "name=eth0,bridge=vmbr0,gw=4.3.2.1,gw6=20ff::1,ip=1.2.3.4/24,ip6=2000::1/64",
    );
  });
});

describe("canonicalConfigValue", () => {
  it("gives the stored form PVE would write, for diffing", () => {
    assert.equal(
      canonicalConfigValue("qemu", "scsi0", "size=32768M,ssd=on,local-lvm:vm-100-disk-0"),
      "local-lvm:vm-100-disk-0,size=32G,ssd=1",
    );
    assert.equal(
      canonicalConfigValue("qemu", "net0", "bridge=vmbr0,model=virtio,macaddr=BC:24:11:AA:BB:CC"),
      "virtio=BC:24:11:AA:BB:CC,bridge=vmbr0",
    );
    assert.equal(canonicalConfigValue("lxc", "net0", "bridge=vmbr0,name=eth0"), "name=eth0,bridge=vmbr0");
    assert.equal(canonicalConfigValue("qemu", "tags", "web prod,web"), "prod;web");
    assert.equal(canonicalConfigValue("qemu", "memory", "4096"), "4096");
    assert.equal(canonicalConfigValue("qemu", "onboot", "1"), "1");
    assert.throws(() => canonicalConfigValue("qemu", "net0", "virtio,tag=0"), /net0\.tag: value must have a minimum value of 1/);
  });
});
