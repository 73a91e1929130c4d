import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parsePropertyString, PropertyStringError, printPropertyString, type SubSchemaForTest } from "./helpers.js";
import { guestSubSchema } from "../../src/pve/index.js";

const net = guestSubSchema("qemu", "net0") as SubSchemaForTest;
const scsi = guestSubSchema("qemu", "scsi0") as SubSchemaForTest;
const agent = guestSubSchema("qemu", "agent") as SubSchemaForTest;
const lxcNet = guestSubSchema("lxc", "net0") as SubSchemaForTest;
const ipconfig = guestSubSchema("qemu", "ipconfig0") as SubSchemaForTest;

function pveError(fn: () => unknown): PropertyStringError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof PropertyStringError, `expected PropertyStringError, got ${String(err)}`);
    return err;
  }
  assert.fail("expected an error");
}

describe("parsePropertyString", () => {
  it("reads a qemu NIC with the model=MAC key alias", () => {
    assert.deepEqual(parsePropertyString("virtio=BC:24:11:AA:BB:CC,bridge=vmbr0,tag=120", net), {
      model: "virtio",
      macaddr: "BC:24:11:AA:BB:CC",
      bridge: "vmbr0",
      tag: 120,
    });
  });

  it("reads a drive with the volume as default key, booleans as true/false and size in bytes", () => {
    assert.deepEqual(parsePropertyString("local-lvm:vm-100-disk-0,discard=on,iothread=1,size=32G,ssd=1", scsi), {
      file: "local-lvm:vm-100-disk-0",
      discard: "on",
      iothread: true,
      size: 32 * 1024 ** 3,
      ssd: true,
    });
  });

  it("accepts PVE's boolean spellings in key=value pairs", () => {
    for (const [text, flag] of [
      ["on", true],
      ["YES", true],
      ["true", true],
      ["1", true],
      ["off", false],
      ["no", false],
      ["False", false],
      ["0", false],
    ] as const) {
      assert.equal(parsePropertyString(`virtio,firewall=${text}`, net).firewall, flag);
    }
  });

  it("resolves plain aliases to their target key", () => {
    assert.deepEqual(parsePropertyString("volume=local:iso/x.iso,media=cdrom", scsi), { file: "local:iso/x.iso", media: "cdrom" });
    assert.deepEqual(parsePropertyString("1,guest-fsfreeze=0", agent), { enabled: true, "freeze-fs": false });
  });

  it("keeps lowercase MACs as written", () => {
    assert.equal(parsePropertyString("e1000=bc:24:11:aa:bb:cc", net).macaddr, "bc:24:11:aa:bb:cc");
  });

  it("reads the model alone as the default key", () => {
    assert.deepEqual(parsePropertyString("virtio,bridge=vmbr1", net), { model: "virtio", bridge: "vmbr1" });
  });

  it("reports an unknown key with PVE's message", () => {
    const err = pveError(() => parsePropertyString("virtio,colour=blue", net, "net0"));
    assert.equal(err.pveMessage, "invalid key in comma-separated list property: colour");
    assert.match(
      err.userMessage(),
      /^invalid property string for net0 'virtio,colour=blue': invalid key in comma-separated list property: colour\./,
    );
  });

  it("reports a bad enum value under the sub-key path", () => {
    const err = pveError(() => parsePropertyString("virtio9=BC:24:11:AA:BB:CC", net, "net0"));
    assert.equal(err.pveMessage, "invalid key in comma-separated list property: virtio9");
    const bad = pveError(() => parsePropertyString("local-lvm:vm-100-disk-0,cache=fast", scsi, "scsi0"));
    assert.deepEqual(bad.errors, {
      "scsi0.cache": "value 'fast' does not have a value in the enumeration 'none, writethrough, writeback, unsafe, directsync'",
    });
    assert.equal(
      bad.pveMessage,
      "format error\nscsi0.cache: value 'fast' does not have a value in the enumeration 'none, writethrough, writeback, unsafe, directsync'",
    );
  });

  it("reports ranges, types and formats of sub-keys with PVE's messages", () => {
    assert.deepEqual(pveError(() => parsePropertyString("virtio,tag=5000", net, "net0")).errors, {
      "net0.tag": "value must have a maximum value of 4094",
    });
    assert.deepEqual(pveError(() => parsePropertyString("virtio,tag=abc", net, "net0")).errors, {
      "net0.tag": "type check ('integer') failed - got 'abc'",
    });
    assert.deepEqual(pveError(() => parsePropertyString("virtio,firewall=maybe", net, "net0")).errors, {
      "net0.firewall": "type check ('boolean') failed - got 'maybe'",
    });
    assert.deepEqual(pveError(() => parsePropertyString("virtio=01:00:00:00:00:00", net, "net0")).errors, {
      "net0.macaddr": "invalid format - value does not look like a valid unicast MAC address\n",
    });
    assert.deepEqual(pveError(() => parsePropertyString("local-lvm", scsi, "scsi0")).errors, {
      "scsi0.file": "invalid format - unable to parse volume ID 'local-lvm'\n",
    });
  });

  it("reports a missing required key", () => {
    assert.deepEqual(pveError(() => parsePropertyString("bridge=vmbr0", net, "net0")).errors, {
      "net0.model": "property is missing and it is not optional",
    });
    assert.deepEqual(pveError(() => parsePropertyString("bridge=vmbr0,ip=dhcp", lxcNet, "net0")).errors, {
      "net0.name": "property is missing and it is not optional",
    });
  });

  it("reports `requires` with PVE's message on the required key", () => {
    assert.deepEqual(pveError(() => parsePropertyString("gw=10.0.0.1", ipconfig, "ipconfig0")).errors, {
      "ipconfig0.ip": "missing property - 'ipconfig0.gw' requires this property",
    });
  });

  it("reports structural mistakes", () => {
    assert.equal(
      pveError(() => parsePropertyString("virtio,virtio", net)).pveMessage,
      "duplicate key in comma-separated list property: model",
    );
    assert.equal(
      pveError(() => parsePropertyString("virtio,tag=1,tag=2", net)).pveMessage,
      "duplicate key in comma-separated list property: tag",
    );
    assert.equal(pveError(() => parsePropertyString("virtio,tag=", net)).pveMessage, "missing key in comma-separated list property");
    assert.equal(
      pveError(() => parsePropertyString("model=virtio,e1000=BC:24:11:AA:BB:CC", net)).pveMessage,
      "key alias 'model' is already defined",
    );
    assert.equal(
      pveError(() => parsePropertyString("eth0", lxcNet)).pveMessage,
      "value without key, but schema does not define a default key",
    );
  });

  it("skips empty parts as PVE does", () => {
    assert.deepEqual(parsePropertyString("virtio,,bridge=vmbr0,", net), { model: "virtio", bridge: "vmbr0" });
  });
});

describe("printPropertyString", () => {
  it("prints the key-alias combination first, then the rest sorted", () => {
    assert.equal(
      printPropertyString({ tag: 120, bridge: "vmbr0", macaddr: "BC:24:11:AA:BB:CC", model: "virtio", firewall: true }, net),
      "virtio=BC:24:11:AA:BB:CC,bridge=vmbr0,firewall=1,tag=120",
    );
  });

  it("prints the default key bare and sizes in PVE units", () => {
    assert.equal(
      printPropertyString({ ssd: true, size: 32 * 1024 ** 3, file: "local-lvm:vm-100-disk-0", iothread: true, discard: "on" }, scsi),
      "local-lvm:vm-100-disk-0,discard=on,iothread=1,size=32G,ssd=1",
    );
    assert.equal(
      printPropertyString({ file: "local:100/vm-100-disk-0.raw", size: "1.5G" }, scsi),
      "local:100/vm-100-disk-0.raw,size=1536M",
    );
  });

  it("puts required keys right after the default key (lxc net: name first)", () => {
    assert.equal(
      printPropertyString({ bridge: "vmbr0", hwaddr: "BC:24:11:00:00:01", ip: "dhcp", type: "veth", name: "eth0" }, lxcNet),
      "name=eth0,bridge=vmbr0,hwaddr=BC:24:11:00:00:01,ip=dhcp,type=veth",
    );
  });

  it("prints booleans as 1/0 and leaves out undefined values", () => {
    assert.equal(
      printPropertyString({ enabled: false, "freeze-fs": undefined, fstrim_cloned_disks: true }, agent),
      "0,fstrim_cloned_disks=1",
    );
  });

  it("refuses values PVE would not read back", () => {
    assert.deepEqual(pveError(() => printPropertyString({ model: "virtio", tag: 0 }, net, { key: "net0" })).errors, {
      "net0.tag": "value must have a minimum value of 1",
    });
    assert.deepEqual(pveError(() => printPropertyString({ model: "virtio", bridge: "a,b" }, net)).errors, {
      bridge: "illegal value with commas for bridge",
    });
    assert.deepEqual(pveError(() => printPropertyString({ model: "virtio", colour: "blue" }, net)).errors, {
      colour: "invalid key 'colour'",
    });
  });

  it("round-trips parse and print on PVE-written strings", () => {
    const cases: Array<[string, SubSchemaForTest]> = [
      ["virtio=BC:24:11:AA:BB:CC,bridge=vmbr0,tag=120", net],
      ["local-lvm:vm-100-disk-0,discard=on,iothread=1,size=32G,ssd=1", scsi],
      ["vmxnet3=BC:24:11:2C:69:EC,bridge=vnet0,firewall=1", net],
      ["e1000=BC:24:11:79:D5:65,bridge=vnet0,firewall=1", net],
      ["virtio=A2:C0:43:77:08:A0,bridge=vmbr0,mtu=900,queues=2", net],
      ["sani:iso/virtio-win-0.1.266.iso,media=cdrom,size=707456K", scsi],
      ["myfs:179/vm-179-disk-2.qcow2,mbps_rd=7,mbps_wr=7,replicate=0,size=32G", scsi],
      ["none,media=cdrom", scsi],
      ["name=eth0,bridge=vmbr0,hwaddr=BC:24:11:AB:CD:EF,ip=dhcp,type=veth", lxcNet],
      ["1,fstrim_cloned_disks=1", agent],
    ];
    for (const [text, schema] of cases) assert.equal(printPropertyString(parsePropertyString(text, schema), schema), text);
  });
});
