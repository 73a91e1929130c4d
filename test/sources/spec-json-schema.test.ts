// The committed JSON Schema (schema/pvectl-spec.schema.json) is what editors load; it must be
// exactly what the generator produces from the loader's own schema, and describe the examples.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, it } from "node:test";
import { parse } from "yaml";
import { renderSpecJsonSchema } from "../../src/sources/spec/json-schema.js";
import { specSchemas } from "../../src/sources/spec/raw-schema.js";

describe("schema/pvectl-spec.schema.json", () => {
  it("is up to date (regenerate with: npx tsx scripts/generate-spec-schema.ts)", async () => {
    const committed = await readFile("schema/pvectl-spec.schema.json", "utf8");
    assert.ok(committed === renderSpecJsonSchema(), "schema/pvectl-spec.schema.json is stale: run npx tsx scripts/generate-spec-schema.ts");
  });

  it("is strict and offers slots, enums and keys for completion", async () => {
    const schema = JSON.parse(await readFile("schema/pvectl-spec.schema.json", "utf8"));
    const vm = schema.definitions.Vm;
    assert.equal(schema.additionalProperties, false);
    assert.equal(vm.additionalProperties, false);
    assert.deepEqual(vm.required, ["name", "node"]);
    assert.deepEqual(vm.properties.bios.enum, ["seabios", "ovmf"]);
    assert.ok(vm.properties.ostype.enum.includes("l26"));
    const diskSlots = Object.keys(vm.properties.disks.properties);
    assert.equal(diskSlots.length, 31 + 16 + 6 + 4);
    assert.ok(diskSlots.includes("scsi30") && diskSlots.includes("virtio15") && !diskSlots.includes("scsi31"));
    assert.equal(Object.keys(vm.properties.nics.properties).length, 32);
    assert.deepEqual(schema.definitions.Disk.required, ["storage"]);
    assert.ok("iothread" in schema.definitions.Disk.properties);
    assert.equal(schema.definitions.Nic.properties.tag.maximum, 4094);
    assert.equal(schema.definitions.Connection.additionalProperties, false);
    assert.ok(!("tokenSecret" in schema.definitions.Connection.properties), "no inline secret field exists");
    const ct = schema.definitions.Container;
    assert.equal(schema.properties.containers.items.$ref, "#/definitions/Container");
    assert.equal(ct.additionalProperties, false);
    assert.deepEqual(ct.required, ["node"]);
    assert.ok(!("password" in ct.properties), "a container's password is referenced, never written");
    assert.ok("passwordEnv" in ct.properties && "hostname" in ct.properties && "name" in ct.properties);
    assert.ok(ct.properties.ostype.enum.includes("debian"));
    assert.deepEqual(Object.keys(ct.properties.features.properties), ["nesting", "keyctl", "fuse", "mount", "mknod"]);
    assert.equal(Object.keys(ct.properties.mounts.properties).length, 256);
    assert.equal(Object.keys(ct.properties.nics.properties).length, 32);
    assert.deepEqual(schema.definitions.CtMount.required, ["mountpoint"]);
    assert.equal(schema.definitions.CtNic.properties.tag.maximum, 4094);
  });

  it("the examples start with the editor's schema line and satisfy the schema", async () => {
    for (const file of ["examples/web.yaml", "examples/full.yaml", "examples/containers.yaml"]) {
      const text = await readFile(file, "utf8");
      assert.ok(text.startsWith("# yaml-language-server: $schema=../schema/pvectl-spec.schema.json\n"), file);
      const result = specSchemas().file.safeParse(parse(text));
      assert.ok(result.success, `${file}: ${JSON.stringify(result.error?.issues)}`);
    }
  });
});
