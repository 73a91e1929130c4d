import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { getEndpoint } from "../../src/schema/index.js";
import type { EndpointSchema } from "../../src/schema/types.js";
import { addError, guestKeySchema, validateParam, validateParams, validateValue } from "../../src/pve/index.js";

const create = getEndpoint("POST", "/nodes/{node}/qemu") as EndpointSchema;
const update = getEndpoint("PUT", "/nodes/{node}/qemu/{vmid}/config") as EndpointSchema;
const lxcCreate = getEndpoint("POST", "/nodes/{node}/lxc") as EndpointSchema;

function errorsOf(endpoint: EndpointSchema, raw: Parameters<typeof validateParams>[1]) {
  return validateParams(endpoint, raw).errors;
}

describe("validateParams", () => {
  it("coerces valid values: booleans to 1/0, integers and numbers to numbers, strings kept", () => {
    const result = validateParams(create, {
      node: "pve",
      vmid: "100",
      onboot: "1",
      acpi: false,
      cores: 4,
      cpulimit: "1.5",
      name: "web-01",
      net0: "virtio,bridge=vmbr0",
      tags: "web;prod",
    });
    assert.deepEqual(result.errors, {});
    assert.deepEqual(result.values, {
      node: "pve",
      vmid: 100,
      onboot: 1,
      acpi: 0,
      cores: 4,
      cpulimit: 1.5,
      name: "web-01",
      net0: "virtio,bridge=vmbr0",
      tags: "web;prod",
    });
  });

  it("reports missing required parameters and unknown ones with PVE's messages", () => {
    assert.deepEqual(errorsOf(create, { vmid: "100", colour: "blue" }), {
      node: "property is missing and it is not optional",
      colour: "property is not defined in schema and the schema does not allow additional properties",
    });
  });

  it("keeps unknown parameters when asked to", () => {
    const result = validateParams(create, { node: "pve", vmid: 100, colour: "blue" }, { allowUnknown: true });
    assert.deepEqual(result.errors, {});
    assert.equal(result.values.colour, "blue");
  });

  it("checks the format before the range, as PVE does (vmid=99 is a format error)", () => {
    assert.deepEqual(errorsOf(create, { node: "pve", vmid: "99" }), {
      vmid: "invalid format - value does not look like a valid VM ID\n",
    });
    assert.deepEqual(errorsOf(create, { node: "pve", vmid: "abc" }), { vmid: "type check ('integer') failed - got 'abc'" });
  });

  it("accepts only 1/0 for booleans unless lenient booleans are asked for", () => {
    assert.deepEqual(errorsOf(create, { node: "pve", vmid: 100, onboot: "true" }), {
      onboot: "type check ('boolean') failed - got 'true'",
    });
    const lenient = validateParams(create, { node: "pve", vmid: 100, onboot: "yes", kvm: "Off" }, { lenientBooleans: true });
    assert.deepEqual(lenient.errors, {});
    assert.equal(lenient.values.onboot, 1);
    assert.equal(lenient.values.kvm, 0);
  });

  it("reports ranges, enums, lengths and named formats", () => {
    assert.deepEqual(
      errorsOf(create, {
        node: "pve_1",
        vmid: 100,
        cores: 0,
        ostype: "bsd",
        name: "my_vm",
        description: "x".repeat(8193),
        pool: "a b",
      }),
      {
        node: "invalid format - value does not look like a valid node name\n",
        cores: "value must have a minimum value of 1",
        ostype:
          "value 'bsd' does not have a value in the enumeration 'other, wxp, w2k, w2k3, w2k8, wvista, win7, win8, win10, win11, l24, l26, solaris'",
        name: "invalid format - value does not look like a valid DNS name\n",
        description: "value may only be 8192 characters long",
        pool: "invalid format - pool name 'a b' contains invalid characters\n",
      },
    );
  });

  it("takes nested pools up to three levels, as PVE 8.1+ does", () => {
    assert.deepEqual(errorsOf(create, { node: "pve", vmid: 100, pool: "a/b/c" }), {});
    assert.deepEqual(errorsOf(create, { node: "pve", vmid: 100, pool: "a/b/c/d" }), {
      pool: "invalid format - pool name 'a/b/c/d' nested too deeply (max levels = 3)\n",
    });
  });

  it("resolves indexed keys within their range only (net3 ok, net99 unknown)", () => {
    const result = validateParams(create, { node: "pve", vmid: 100, net3: "virtio,bridge=vmbr0", net99: "virtio" });
    assert.deepEqual(result.errors, {
      net99: "property is not defined in schema and the schema does not allow additional properties",
    });
    assert.equal(result.values.net3, "virtio,bridge=vmbr0");
  });

  it("checks each key of a property string and reports PVE's nested message", () => {
    assert.deepEqual(errorsOf(create, { node: "pve", vmid: 100, net0: "virtio,bridge=vmbr0,tag=5000" }), {
      net0: "invalid format - format error\nnet0.tag: value must have a maximum value of 4094\n",
    });
    assert.deepEqual(errorsOf(create, { node: "pve", vmid: 100, scsi0: "local-lvm" }), {
      scsi0: "invalid format - format error\nscsi0.file: invalid format - unable to parse volume ID 'local-lvm'\n\n",
    });
    assert.deepEqual(errorsOf(create, { node: "pve", vmid: 100, net0: "virtio,speed=10" }), {
      net0: "invalid format - invalid key in comma-separated list property: speed\n",
    });
  });

  it("checks named property-string formats (boot order devices)", () => {
    assert.deepEqual(errorsOf(update, { node: "pve", vmid: 100, boot: "order=scsi0;ide2;net0" }), {});
    assert.deepEqual(errorsOf(update, { node: "pve", vmid: 100, boot: "order=scsi0;scsi99" }), {
      boot: "invalid format - format error\nboot.order: invalid format - invalid boot device 'scsi99'\n\n",
    });
  });

  it("applies -list formats item by item and joins arrays sent for them", () => {
    const result = validateParams(update, { node: "pve", vmid: 100, delete: ["net1", "scsi2"] });
    assert.deepEqual(result.errors, {});
    assert.equal(result.values.delete, "net1,scsi2");
    assert.deepEqual(errorsOf(update, { node: "pve", vmid: 100, delete: "net1;9x" }), {
      delete: "invalid format - invalid configuration ID '9x'\n",
    });
    assert.deepEqual(errorsOf(update, { node: "pve", vmid: 100, tags: "ok;-bad" }), {
      tags: "invalid format - invalid characters in tag\n",
    });
  });

  it("refuses arrays for plain string parameters", () => {
    assert.deepEqual(errorsOf(create, { node: "pve", vmid: 100, name: ["a", "b"] }), {
      name: "type check ('string') failed - got ARRAY",
    });
  });

  it("reports `requires` on the missing parameter", () => {
    assert.deepEqual(errorsOf(update, { node: "pve", vmid: 100, force: 1 }), {
      delete: "missing property - 'force' requires this property",
    });
  });

  it("checks code formats of other guest types (lxc)", () => {
    assert.deepEqual(
      errorsOf(lxcCreate, {
        node: "pve",
        vmid: 200,
        ostemplate: "local:vztmpl/debian-12.tar.zst",
        net0: "name=eth0,bridge=vmbr0,ip=10.0.0.5/33",
        startup: "first",
      }),
      {
        net0: "invalid format - format error\nnet0.ip: invalid format - value does not look like a valid ipv4 network configuration\n\n",
        startup: "invalid format - unable to parse startup options\n",
      },
    );
  });
});

describe("validateValue / validateParam", () => {
  it("validates one config key for the spec loader's escape hatch", () => {
    const hugepages = guestKeySchema("qemu", "hugepages");
    assert.ok(hugepages);
    assert.deepEqual(validateValue(hugepages, "2"), { value: "2" });
    assert.deepEqual(validateValue(hugepages, "3"), { error: "value '3' does not have a value in the enumeration 'any, 2, 1024'" });
    assert.deepEqual(validateParam(update, "onboot", true), { value: 1 });
    assert.deepEqual(validateParam(update, "net40", "virtio"), {
      error: "property is not defined in schema and the schema does not allow additional properties",
    });
    assert.deepEqual(validateParam(update, "net0", "virtio,tag=0"), {
      error: "invalid format - format error\nnet0.tag: value must have a minimum value of 1\n",
    });
  });
});

describe("addError", () => {
  it("joins a second message for the same key with a literal backslash-n, as PVE does", () => {
    const errors: Record<string, string> = {};
    addError(errors, "delete", "first");
    addError(errors, "delete", "second");
    assert.equal(errors.delete, "first\\nsecond");
  });
});
