// Property tests over the spec loader: whatever text it is given (random characters, random
// YAML built from the spec's own keys and values, mutated copies of the examples), it either
// returns a spec or throws a SpecError whose every problem has a file:line:column, never
// another error, and it answers quickly. fast-check prints the seed of a failing run to replay.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import fc from "fast-check";
import { stringify } from "yaml";
import { parseSpec, SpecError } from "../../src/sources/spec/index.js";

/** Per input, generous for a loaded CI machine; a hostile input used to take tens of seconds. */
const MAX_MS = 3000;

/** Loads `text`; fails the property on anything but a spec or a fully located SpecError. */
function loadsCleanly(text: string): void {
  const started = Date.now();
  try {
    parseSpec(text, "fuzz.yaml");
  } catch (err) {
    if (!(err instanceof SpecError)) throw new Error(`internal error ${String(err)} for input ${JSON.stringify(text.slice(0, 300))}`);
    for (const issue of err.issues) {
      assert.ok(issue.location, `issue without a location: ${issue.message}`);
      assert.ok(issue.location.line >= 1 && issue.location.column >= 1, `bad position for: ${issue.message}`);
      assert.doesNotMatch(issue.message, /native code|\[object Object\]|call stack|undefined:undefined/);
    }
  }
  const elapsed = Date.now() - started;
  assert.ok(elapsed < MAX_MS, `took ${elapsed} ms`);
}

const KEYS = [
  "vms",
  "connections",
  "version",
  "name",
  "node",
  "vmid",
  "memory",
  "balloon",
  "cores",
  "disks",
  "nics",
  "cdroms",
  "scsi0",
  "virtio1",
  "ide2",
  "net0",
  "net31",
  "storage",
  "size",
  "importFrom",
  "iso",
  "macaddr",
  "bridge",
  "tag",
  "cloudInit",
  "ipconfig",
  "ipconfig0",
  "ip",
  "gw",
  "sshKeys",
  "extraConfig",
  "hookscript",
  "cicustom",
  "boot",
  "agent",
  "tags",
  "description",
  "host",
  "tokenId",
  "tokenSecretEnv",
  "connection",
  "detach",
  "efidisk",
  "tpm",
  "constructor",
  "toString",
  "__proto__",
  "hasOwnProperty",
  "x-defaults",
  "<<",
  "containers",
  "hostname",
  "rootfs",
  "mounts",
  "mp0",
  "mountpoint",
  "volume",
  "features",
  "nesting",
  "hwaddr",
  "ostemplate",
  "passwordEnv",
  "passwordFile",
  "sshPublicKeys",
  "nameserver",
  "swap",
  "unprivileged",
];

const SCALARS: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    "pve1",
    "vmbr0",
    "local-lvm",
    "32G",
    "99999999999999999999G",
    "0.5K",
    "01:00:5E:00:00:01",
    "BC:24:11:00:00:01",
    "local:iso/../../x.iso",
    "local:snippets/hook.pl",
    "999.1.1.1/24",
    "dhcp",
    "scsi0",
    "on",
    "yes",
    "",
    "-1",
    "1e308",
  ),
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);

/** Maps and lists keyed by the spec's own words (and hostile ones), a few levels deep. */
const SPECISH: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    SCALARS,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 8 })), tie("value"), { maxKeys: 5 }),
  ),
})).value;

const EXAMPLES = ["examples/web.yaml", "examples/full.yaml", "examples/containers.yaml"].map((file) => readFileSync(file, "utf8"));

/** An example with a few characters replaced, inserted or deleted. */
const MUTATED = fc
  .tuple(
    fc.constantFrom(...EXAMPLES),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.nat({ max: 3 }),
        fc.constantFrom("", " ", "\t", ":", "-", "[", "{", "&a", "*a", "'", '"', "\n", "#", "0", "\u0000"),
      ),
      {
        minLength: 1,
        maxLength: 6,
      },
    ),
  )
  .map(([text, edits]) => {
    let out = text;
    for (const [at, remove, insert] of edits) {
      const i = at % (out.length + 1);
      out = out.slice(0, i) + insert + out.slice(i + remove);
    }
    return out;
  });

describe("the spec loader under random input", () => {
  it("handles arbitrary text", () => {
    fc.assert(fc.property(fc.string({ maxLength: 400, unit: "binary" }), loadsCleanly), { numRuns: 300 });
  });

  it("handles random YAML built from the spec's keys, under vms, containers or at the top", () => {
    const documents = fc.oneof(
      SPECISH.map((value) => stringify(value)),
      fc.array(SPECISH, { maxLength: 3 }).map((vms) => stringify({ vms })),
      fc.array(SPECISH, { maxLength: 3 }).map((cts) =>
        stringify({
          containers: cts.map((ct) => (ct && typeof ct === "object" && !Array.isArray(ct) ? { hostname: "a", node: "pve1", ...ct } : ct)),
        }),
      ),
      fc.array(SPECISH, { maxLength: 3 }).map((vms) =>
        stringify({
          version: 1,
          vms: vms.map((vm) => (vm && typeof vm === "object" && !Array.isArray(vm) ? { name: "a", node: "pve1", ...vm } : vm)),
        }),
      ),
    );
    fc.assert(fc.property(documents, loadsCleanly), { numRuns: 300 });
  });

  it("handles mutated copies of the examples", () => {
    fc.assert(fc.property(MUTATED, loadsCleanly), { numRuns: 300 });
  });

  it("handles anchors and aliases used anywhere", () => {
    const aliased = fc
      .array(fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom("&a", "*a", "&b [*a, *a]", "*b", "{ <<: *a }", "[*a]")), { maxLength: 8 })
      .map((rows) => `vms:\n  - name: a\n    node: pve1\n${rows.map(([key, value]) => `    ${key}: ${value}`).join("\n")}\n`);
    fc.assert(fc.property(aliased, loadsCleanly), { numRuns: 200 });
  });
});
