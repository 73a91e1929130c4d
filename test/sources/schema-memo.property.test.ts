// The memoized schema walk (src/sources/spec/schema-memo.ts) must accept exactly what zod's
// whole-file check accepts, with exactly zod's data (the same values, -0 and key order
// included), and give up on everything else so that zod words the issues. Checked on spec files
// built from the benchmark's VM with fields replaced, added, removed and reordered, and with
// values of every type YAML can produce, through one memo kept across cases (remembered values
// are reused) and a fresh one.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { articleVmYaml } from "../../bench/provision-spec.js";
import { specSchemas } from "../../src/sources/spec/raw-schema.js";
import { SchemaMemo, valueKey } from "../../src/sources/spec/schema-memo.js";
import { parseWithLibrary } from "../../src/sources/spec/yaml-source.js";

const schemas = specSchemas();
const shared = new SchemaMemo();

function readYaml(text: string): unknown {
  const [doc] = parseWithLibrary(text, "t.yaml").documents;
  return doc?.value;
}

const baseVm = (readYaml(`vms:${articleVmYaml("vm-0001", 1000, "pve1")}\n`) as { vms: Array<Record<string, unknown>> }).vms[0] as Record<
  string,
  unknown
>;

// Values of every type YAML gives, valid in some fields and not in others.
const VALUES: unknown[] = [
  "web",
  "",
  "16G",
  "16",
  "2G",
  "1.5G",
  "local-lvm",
  "local:iso/x.iso",
  "local:iso/../x.iso",
  "vmbr0",
  "on",
  "off",
  "ignore",
  "ovmf",
  "seabios",
  "q35",
  "l26",
  "virtio",
  "e1000",
  "4m",
  "raw",
  "qcow2",
  "running",
  "stopped",
  "present",
  "absent",
  "BC:24:11:00:00:01",
  "a b",
  "constructor",
  "__proto__",
  "toString",
  "scsi0",
  "sata0",
  "net0",
  "-",
  "n1",
  "s",
  "1",
  0,
  -0,
  1,
  2,
  4,
  99,
  100,
  1000,
  2048,
  1.5,
  -1,
  4095,
  999999999,
  1e21,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  true,
  false,
  null,
  [],
  ["scsi0"],
  ["scsi0", "sata0"],
  ["production"],
  [1],
  [null],
  ["a", "a"],
  {},
  { enabled: true },
  { enabled: false, fstrimClonedDisks: true },
  { enabled: "yes" },
  { storage: "local-lvm" },
  { storage: "local-lvm", size: "16G" },
  { storage: "local-lvm", size: "16G", ssd: true, discard: true },
  { bridge: "vmbr0" },
  { bridge: "vmbr0", tag: 10 },
  { bridge: "vmbr0", tag: -0 },
  { iso: "local:iso/d.iso" },
  { scsi0: { storage: "local-lvm", size: "16G" } },
  { virtio0: { storage: "local-lvm", size: "8G" }, scsi0: { storage: "local-lvm", size: "16G" } },
  { net1: { bridge: "vmbr1" }, net0: { bridge: "vmbr0" } },
  { sata0: {} },
  { rng0: "source=/dev/urandom" },
  { unknown: 1 },
];
const FIELDS = [
  ...Object.keys(baseVm),
  "vmid",
  "pool",
  "adopt",
  "state",
  "template",
  "balloon",
  "cpu",
  "sockets",
  "description",
  "extraConfig",
  "tpm",
  "cloudInit",
  "detach",
  "snapshots",
  "clone",
  "unknownKey",
  "Name",
];

// Replacements zod accepts, some written out of the shape's order (zod's data puts keys in it).
const GOOD: Array<[string, unknown]> = [
  ["cores", 4],
  ["memory", "2G"],
  ["memory", 4096],
  ["vmid", 100],
  ["vmid", -0],
  ["agent", true],
  ["agent", { fstrimClonedDisks: false, enabled: true }],
  ["tags", ["b", "a"]],
  ["boot", []],
  ["pool", ""],
  ["pool", "team/web"],
  ["state", "absent"],
  ["power", "stopped"],
  ["onboot", false],
  ["disks", { virtio0: { storage: "local-lvm", size: "8G" }, scsi0: { ssd: true, size: "16G", storage: "local-lvm" } }],
  ["nics", { net1: { bridge: "vmbr1", firewall: true }, net0: { tag: 10, bridge: "vmbr0" } }],
  ["cdroms", { ide2: {} }],
  ["efidisk", { preEnrolledKeys: false, storage: "local-lvm" }],
  ["extraConfig", { rng0: "source=/dev/urandom", serial0: "socket" }],
];

type Edit = { kind: "set"; field: string; value: unknown } | { kind: "delete"; field: string } | { kind: "reverse" };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("set" as const), field: fc.constantFrom(...FIELDS), value: fc.constantFrom(...VALUES) }),
  },
  { weight: 6, arbitrary: fc.constantFrom(...GOOD).map(([field, value]) => ({ kind: "set" as const, field, value })) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), field: fc.constantFrom(...FIELDS) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "reverse" as const }) },
);

function applyEdits(vm: Record<string, unknown>, edits: Edit[]): Record<string, unknown> {
  let out: Record<string, unknown> = structuredClone(vm);
  for (const e of edits) {
    if (e.kind === "set") out[e.field] = structuredClone(e.value);
    else if (e.kind === "delete") delete out[e.field];
    else out = Object.fromEntries(Object.entries(out).reverse());
  }
  return out;
}

/** Walk and zod agree: both accept with the same data (key order too), or the walk gives up where zod refuses. */
function agree(memo: SchemaMemo, data: unknown): void {
  const walked = memo.check(schemas.file, data);
  const zod = schemas.file.safeParse(data, { jitless: true });
  assert.equal(
    walked !== undefined,
    zod.success,
    `walk ${walked ? "accepted" : "gave up"}, zod ${zod.success ? "accepted" : "refused"}: ${JSON.stringify(data)}`,
  );
  if (walked && zod.success) {
    assert.deepStrictEqual(walked.data, zod.data);
    assert.equal(JSON.stringify(walked.data), JSON.stringify(zod.data), "key order");
  }
}

describe("the memoized schema walk", () => {
  it("accepts what zod accepts, with zod's data, on edited VMs", () => {
    fc.assert(
      fc.property(fc.array(fc.array(edit, { maxLength: 3 }), { minLength: 1, maxLength: 3 }), fc.boolean(), (vmEdits, fresh) => {
        const data = { version: 1, vms: vmEdits.map((edits) => applyEdits(baseVm, edits)) };
        agree(fresh ? new SchemaMemo() : shared, data);
      }),
      { numRuns: 600 },
    );
  });

  it("gives the same data for a value seen before as for its first sight, each place its own objects", () => {
    const memo = new SchemaMemo();
    const data = { vms: [baseVm, baseVm, applyEdits(baseVm, [{ kind: "reverse" }])] };
    const first = memo.check(schemas.file, data)?.data as { vms: Array<Record<string, unknown>> };
    assert.ok(first);
    assert.deepStrictEqual(first.vms[1], first.vms[0]);
    assert.notEqual(first.vms[1]?.efidisk, first.vms[0]?.efidisk);
    assert.notEqual(first.vms[1]?.disks, first.vms[0]?.disks);
    agree(memo, data);
  });

  it("agrees with zod on the top level of a file and on the examples", () => {
    for (const data of [
      null,
      1,
      "x",
      [],
      {},
      { version: 2 },
      { vms: {} },
      { vms: [1] },
      { unknown: 1 },
      { version: 1, connections: { lab: { host: "h", tokenId: "t", tokenSecretEnv: "S" } } },
    ]) {
      agree(new SchemaMemo(), data);
    }
    const examples = join(import.meta.dirname, "../../examples");
    for (const name of readdirSync(examples).filter((f) => /\.ya?ml$/.test(f))) {
      const data = readYaml(readFileSync(join(examples, name), "utf8"));
      agree(new SchemaMemo(), data);
      agree(shared, data);
    }
  });

  it("keys values apart by type and sign, and refuses what is not plain data", () => {
    const keys = [
      1,
      "1",
      -0,
      0,
      Number.NaN,
      null,
      Number.POSITIVE_INFINITY,
      "Infinity",
      true,
      "true",
      [1],
      ["1"],
      { a: 1 },
      { a: "1" },
      [null],
      [Number.NaN],
    ].map(valueKey);
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(valueKey(undefined), undefined);
    assert.equal(
      valueKey(() => 1),
      undefined,
    );
    assert.equal(valueKey(new Date(0)), undefined);
    assert.equal(valueKey([undefined]), undefined);
  });
});
