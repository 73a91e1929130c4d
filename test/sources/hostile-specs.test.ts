// Specs written to break the loader (huge numbers, deep nesting, alias bombs, keys named like
// Object's members, path tricks, huge files): each is refused with a located, readable problem,
// every other problem of the file is still reported, and nothing internal leaks out.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadSpecFiles, parseSpec, SpecError, type SpecIssue } from "../../src/sources/spec/index.js";

const lines = (...rows: string[]): string => `${rows.join("\n")}\n`;

/** The issues of a spec that must be refused; fails on anything but a SpecError. */
function issuesOf(text: string, file = "hostile.yaml"): SpecIssue[] {
  try {
    parseSpec(text, file);
  } catch (err) {
    assert.ok(err instanceof SpecError, `expected a SpecError, got ${String(err)}`);
    for (const issue of err.issues) assert.ok(issue.location, `issue without a location: ${issue.message}`);
    return err.issues;
  }
  assert.fail("the spec was accepted");
}

/** "line:column path: message" per issue, for compact assertions. */
function summary(text: string): string[] {
  return issuesOf(text).map((i) => `${i.location?.line}:${i.location?.column} ${i.path.join(".")}: ${i.message}`);
}

const vm = (name: string, ...more: string[]): string[] => [`  - name: ${name}`, "    node: pve1", ...more];

describe("sizes too large to hold", () => {
  it("names memory and its limit, at the value, and still reports the other problems", () => {
    const found = summary(lines("vms:", ...vm("a", "    memory: 99999999999999999999G"), ...vm("b", "    cores: 0")));
    assert.equal(found.length, 2);
    assert.match(found[0] as string, /^4:13 vms\.0\.memory: `99999999999999999999G` is too large for memory: at most 8192T \(8 PiB\)/);
    assert.doesNotMatch(found[0] as string, /disk/);
    assert.equal(found[1], "7:12 vms.1.cores: must be at least 1, got 0");
  });

  it("says the same of a disk and of balloon, each at its own value", () => {
    const found = summary(
      lines(
        "vms:",
        ...vm("a", "    balloon: 99999999999999999999M", "    disks:", "      scsi0: { storage: local-lvm, size: 99999999999999T }"),
      ),
    );
    assert.deepEqual(
      found.map((f) => f.replace(/: `.*$/, "")),
      ["4:14 vms.0.balloon", "6:42 vms.0.disks.scsi0.size"],
    );
    assert.match(found[1] as string, /too large for a disk: at most 8192T/);
  });
});

describe("YAML built to exhaust the parser", () => {
  it("refuses nesting deeper than the limit with its position, not a stack overflow", () => {
    const deep = `vms:\n  - name: a\n    node: pve1\n    description: ${"[".repeat(100)}${"]".repeat(100)}\n`;
    const found = summary(deep);
    assert.equal(found.length, 1);
    assert.match(found[0] as string, /^4:\d+ : YAML: nested more than 64 levels deep/);
  });

  it("refuses nesting deep enough to overflow the YAML parser itself, with a position", () => {
    const found = summary(`x: ${"[".repeat(20000)}${"]".repeat(20000)}\n`);
    assert.ok(found.length >= 1);
    for (const line of found) {
      assert.match(line, /^1:\d+ : YAML: nested too deeply to read \(pvectl accepts at most 64 levels\)$/);
      assert.doesNotMatch(line, /call stack/i);
    }
  });

  it("refuses an alias bomb (billion laughs) at an alias, quickly", () => {
    const rows = ["x-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (const [name, prev] of [
      ["b", "a"],
      ["c", "b"],
      ["d", "c"],
      ["e", "d"],
      ["f", "e"],
      ["g", "f"],
    ]) {
      rows.push(`x-${name}: &${name} [${Array(10).fill(`*${prev}`).join(", ")}]`);
    }
    const started = Date.now();
    const found = summary(lines(...rows));
    assert.ok(Date.now() - started < 2000, "refused quickly");
    assert.equal(found.length, 1);
    assert.match(found[0] as string, /^2:\d+ : YAML: aliases \(\*name\) copy more data than pvectl accepts/);
  });

  it("locates an alias with no anchor and names it", () => {
    assert.deepEqual(summary(lines("vms:", ...vm("a", "    cores: *nope"))), [
      "4:12 : YAML: alias *nope has no anchor &nope before it; define the anchor first",
    ]);
  });
});

describe("keys named like members of every JavaScript object", () => {
  it("gets plain unknown-key messages, never Object's functions", () => {
    const found = summary(
      lines("constructor: 1", "vms:", ...vm("a", "    constructor: 1", "    toString: 2", "    __proto__: 3", "    hasOwnProperty: 4")),
    );
    assert.deepEqual(found, [
      "1:1 constructor: unknown key `constructor`",
      "5:5 vms.0.constructor: unknown key `constructor`",
      "6:5 vms.0.toString: unknown key `toString`",
      "7:5 vms.0.__proto__: unknown key `__proto__`",
      "8:5 vms.0.hasOwnProperty: unknown key `hasOwnProperty`",
    ]);
    for (const line of found) assert.doesNotMatch(line, /native code|\[object Object\]/);
  });

  it("does not take `constructor` or `toString` for a defined connection", () => {
    const found = summary(lines("vms:", ...vm("a", "    connection: toString"), ...vm("b", "    connection: constructor")));
    assert.equal(found.length, 2);
    assert.match(found[0] as string, /^4:17 vms\.0\.connection: vm a names connection `toString`, which no spec file defines/);
    assert.match(found[1] as string, /^7:17 vms\.1\.connection: vm b names connection `constructor`, which no spec file defines/);
  });

  it("reports `__proto__` under extraConfig instead of dropping it silently", () => {
    const found = summary(lines("vms:", ...vm("a", "    extraConfig:", "      __proto__: 1", "      toString: x")));
    assert.equal(found.length, 2);
    assert.match(found[0] as string, /^5:7 vms\.0\.extraConfig\.__proto__: /);
    assert.match(found[1] as string, /^6:7 vms\.0\.extraConfig\.toString: `toString` is not a VM config key in PVE's schema/);
  });
});

describe("huge spec files", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "pvectl-hostile-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses a file above 10 MB before parsing it, and still reads the other files", async () => {
    const big = join(dir, "big.yaml");
    await writeFile(big, lines(`# ${"x".repeat(11 * 1024 * 1024)}`, "vms: []"));
    const small = join(dir, "small.yaml");
    await writeFile(small, lines("vms:", ...vm("ok", "    corse: 2")));
    const started = Date.now();
    let caught: unknown;
    await loadSpecFiles([big, small]).catch((err: unknown) => {
      caught = err;
    });
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 5000, `refused without parsing (took ${elapsed} ms)`);
    assert.ok(caught instanceof SpecError);
    assert.deepEqual(
      caught.issues.map((i) => [i.location?.file, i.location?.line, i.location?.column]),
      [
        [big, 1, 1],
        [small, 4, 5],
      ],
    );
    assert.match(caught.issues[0]?.message ?? "", /^the file is 11 MB; pvectl reads spec files of at most 10 MB/);
  });

  it("refuses the same text given directly to parseSpec", () => {
    const found = issuesOf(`description: "${"x".repeat(10 * 1024 * 1024)}"\n`);
    assert.equal(found.length, 1);
    assert.match(found[0]?.message ?? "", /at most 10 MB/);
  });
});

describe("volume ids that climb out of their folder", () => {
  it("refuses them in every field that takes a volume id, each at its value", () => {
    const found = summary(
      lines(
        "vms:",
        ...vm(
          "a",
          "    disks:",
          "      scsi0: { storage: local-lvm, importFrom: 'local:import/../images/100/vm-100-disk-0.qcow2' }",
          "    cdroms:",
          "      ide2: { iso: 'local:iso/../../../etc/shadow.iso' }",
        ),
        // A second VM: the first one's shape problems keep its extraConfig from being checked.
        ...vm(
          "b",
          "    extraConfig:",
          "      hookscript: local:snippets/../../../etc/passwd",
          "      cicustom: 'user=local:snippets/../../root/.ssh/authorized_keys'",
        ),
      ),
    );
    assert.deepEqual(
      found.map((f) => f.replace(/: .*$/, "")),
      [
        "5:48 vms.0.disks.scsi0.importFrom",
        "7:20 vms.0.cdroms.ide2.iso",
        "11:19 vms.1.extraConfig.hookscript",
        "12:17 vms.1.extraConfig.cicustom",
      ],
    );
    for (const line of found) assert.match(line, /`\.` or `\.\.`.*PVE refuses volume names that leave their folder/);
  });

  it("holds hook scripts and cloud-init snippets to the snippets folder, and file volumes to one file name", () => {
    const found = summary(
      lines(
        "vms:",
        ...vm("a", "    cdroms:", "      ide2: { iso: 'local:iso/sub/debian.iso' }"),
        ...vm("b", "    extraConfig:", "      hookscript: local:iso/hook.pl", "      cicustom: 'user=local:iso/user.yaml'"),
      ),
    );
    assert.deepEqual(found, [
      "5:20 vms.0.cdroms.ide2.iso: `local:iso/sub/debian.iso` is not a volume PVE can read from the iso folder: write local:iso/<file>.iso (or .img), one file name with no further /",
      '9:19 vms.1.extraConfig.hookscript: PVE would refuse "local:iso/hook.pl" for `hookscript`: must be in the storage\'s snippets folder: local:snippets/<file>',
      '10:17 vms.1.extraConfig.cicustom: PVE would refuse "user=local:iso/user.yaml" for `cicustom`: user=local:iso/user.yaml must be in the storage\'s snippets folder: local:snippets/<file>',
    ]);
  });

  it("accepts the volume ids PVE reads", () => {
    const spec = parseSpec(
      lines(
        "vms:",
        ...vm(
          "a",
          "    disks:",
          "      scsi0: { storage: local-lvm, importFrom: 'local:import/debian-13.qcow2' }",
          "      scsi1: { storage: local-lvm, importFrom: 'local-lvm:vm-100-disk-0' }",
          "    cdroms:",
          "      ide2: { iso: 'local:iso/debian-13-netinst.iso' }",
          "    extraConfig:",
          "      hookscript: local:snippets/hook.pl",
          "      cicustom: 'user=local:snippets/user.yaml,network=local:snippets/net.yaml'",
        ),
      ),
      "ok.yaml",
    );
    assert.equal(spec.vms[0]?.extraConfig.hookscript, "local:snippets/hook.pl");
    assert.equal(spec.vms[0]?.disks.scsi1?.importFrom, "local-lvm:vm-100-disk-0");
  });
});

describe("pasted blobs", () => {
  it("refuses a megabyte-long value quickly, echoing only its start", () => {
    const blob = "ovmf".repeat(500_000);
    const started = Date.now();
    const found = summary(lines("vms:", ...vm("a", `    bios: ${blob}`)));
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 5000, `took ${elapsed} ms`);
    assert.deepEqual(found, [`4:11 vms.0.bios: \`${blob.slice(0, 60)}… (2000000 characters)\` is not one of seabios, ovmf`]);
  });
});

describe("a list or mapping where a word belongs", () => {
  it("is named as such, never printed as [object Object]", () => {
    const found = summary(lines("vms:", ...vm("a", "    detach:", "      - - {}", "    bios: { a: 1 }")));
    assert.deepEqual(found, [
      "5:9 vms.0.detach.0: a list is not one of scsi0-scsi30, virtio0-virtio15, sata0-sata5, ide0-ide3",
      "6:11 vms.0.bios: a mapping is not one of seabios, ovmf",
    ]);
  });
});
