// One load reports every problem it can find: a problem of one entry never hides the problems
// of another, whatever section or file each is in. Each bad fragment below has a good twin of
// the same lines and entries, so a fragment "alone" is the same spec with every other chosen
// fragment written good: same files, lines, columns and list indices. The problems of all
// fragments bad together must be exactly the union of the problems of each one alone.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { formatIssue, loadSpecFiles, parseSpec, SpecError } from "../../src/sources/spec/index.js";

type Section = "vms" | "containers" | "backupJobs" | "roles" | "users" | "acls";

/** Entries of one fragment, each one flow-style line under its section; bad and good alike. */
interface Fragment {
  name: string;
  bad: Array<[Section, string]>;
  good: Array<[Section, string]>;
}

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemoKeyOnlyDemoKeyOnlyDemoKeyOnly0000000000 ops@example.com";

// Independent of each other: own vmids, names and ids.
const FRAGMENTS: Fragment[] = [
  {
    name: "vm shape",
    bad: [["vms", "{ vmid: 201, name: f1, node: pve1, corse: 2 }"]],
    good: [["vms", "{ vmid: 201, name: f1, node: pve1, cores: 2 }"]],
  },
  {
    name: "vm ssh key",
    bad: [["vms", "{ vmid: 202, name: f2, node: pve1, cloudInit: { storage: local-lvm, sshKeys: [ops@laptop] } }"]],
    good: [["vms", `{ vmid: 202, name: f2, node: pve1, cloudInit: { storage: local-lvm, sshKeys: ["${KEY}"] } }`]],
  },
  {
    name: "vm multicast MAC",
    bad: [["vms", '{ vmid: 203, name: f3, node: pve1, nics: { net0: { bridge: vmbr0, macaddr: "01:24:11:00:00:03" } } }']],
    good: [["vms", '{ vmid: 203, name: f3, node: pve1, nics: { net0: { bridge: vmbr0, macaddr: "BC:24:11:00:00:03" } } }']],
  },
  {
    name: "duplicate vmid",
    bad: [
      ["vms", "{ vmid: 204, name: f4a, node: pve1 }"],
      ["vms", "{ vmid: 204, name: f4b, node: pve1 }"],
    ],
    good: [
      ["vms", "{ vmid: 204, name: f4a, node: pve1 }"],
      ["vms", "{ vmid: 205, name: f4b, node: pve1 }"],
    ],
  },
  {
    name: "duplicate name",
    bad: [
      ["vms", "{ vmid: 206, name: f6, node: pve1 }"],
      ["containers", "{ vmid: 207, hostname: f6, node: pve1 }"],
    ],
    good: [
      ["vms", "{ vmid: 206, name: f6, node: pve1 }"],
      ["containers", "{ vmid: 207, hostname: f6b, node: pve1 }"],
    ],
  },
  {
    name: "container template",
    bad: [["containers", '{ vmid: 208, hostname: f8, node: pve1, ostemplate: "local:iso/f8.iso" }']],
    good: [["containers", '{ vmid: 208, hostname: f8, node: pve1, ostemplate: "local:vztmpl/f8.tar.zst" }']],
  },
  {
    name: "role shape",
    bad: [["roles", "{ id: Role9, privileges: [VM.Audit], colour: red }"]],
    good: [["roles", "{ id: Role9, privileges: [VM.Audit] }"]],
  },
  {
    name: "role privilege",
    bad: [["roles", "{ id: Role10, privileges: [VM.Allocat] }"]],
    good: [["roles", "{ id: Role10, privileges: [VM.Allocate] }"]],
  },
  {
    name: "user expiry",
    bad: [["users", '{ id: f11@pve, expire: "2027-13-01" }']],
    good: [["users", '{ id: f11@pve, expire: "2027-12-01" }']],
  },
  { name: "user shape", bad: [["users", "{ id: f12@pve, enable: maybe }"]], good: [["users", "{ id: f12@pve, enable: true }"]] },
  {
    name: "acl path",
    bad: [["acls", "{ path: /nowhere, role: PVEAuditor, user: f11@pve }"]],
    good: [["acls", "{ path: /vms, role: PVEAuditor, user: f11@pve }"]],
  },
  {
    name: "job selection",
    bad: [["backupJobs", '{ id: job14, schedule: "02:30", selection: { vmids: [100], pool: web } }']],
    good: [["backupJobs", '{ id: job14, schedule: "02:30", selection: { vmids: [100] } }']],
  },
  {
    name: "job shape",
    bad: [["backupJobs", '{ id: job15, schedule: "02:30", selection: { all: true }, colour: red }']],
    good: [["backupJobs", '{ id: job15, schedule: "02:30", selection: { all: true } }']],
  },
  {
    name: "job selection and option",
    bad: [["backupJobs", '{ id: job16, schedule: "02:30", selection: { pool: web, exclude: [1] }, extraConfig: { bogus: 1 } }']],
    good: [["backupJobs", '{ id: job16, schedule: "02:30", selection: { pool: web }, extraConfig: { "repeat-missed": 1 } }']],
  },
  {
    name: "duplicate job id",
    bad: [
      ["backupJobs", '{ id: job17, schedule: "02:30", selection: { all: true } }'],
      ["backupJobs", '{ id: job17, schedule: "03:30", selection: { all: true } }'],
    ],
    good: [
      ["backupJobs", '{ id: job17, schedule: "02:30", selection: { all: true } }'],
      ["backupJobs", '{ id: job18, schedule: "03:30", selection: { all: true } }'],
    ],
  },
];

const ACCESS_LISTS: Section[] = ["roles", "users", "acls"];

/** One spec file from its fragments (each bad or good), in a fixed section order. */
function fileText(parts: Array<{ fragment: Fragment; bad: boolean }>): string {
  const entries = parts.flatMap(({ fragment, bad }) => (bad ? fragment.bad : fragment.good));
  const lines: string[] = [];
  const section = (name: Section, indent: string) => {
    const items = entries.filter(([s]) => s === name).map(([, text]) => `${indent}  - ${text}`);
    if (items.length > 0) lines.push(`${indent}${name}:`, ...items);
  };
  section("vms", "");
  section("containers", "");
  section("backupJobs", "");
  if (entries.some(([s]) => ACCESS_LISTS.includes(s))) {
    lines.push("access:");
    for (const list of ACCESS_LISTS) section(list, "  ");
  }
  return `${lines.join("\n")}\n`;
}

/** Each chosen fragment and the file (0 or 1) it goes into. */
type Choice = Array<{ fragment: Fragment; file: number }>;

let dir = "";
let runs = 0;

/** The problems of one load of the chosen fragments, `bad` saying which are written bad. */
async function problemsOf(choice: Choice, bad: (fragment: Fragment) => boolean): Promise<string[]> {
  const run = join(dir, String(runs++));
  const files = [join(`${run}-a.yaml`), join(`${run}-b.yaml`)];
  await Promise.all(
    files.map((file, i) =>
      writeFile(file, fileText(choice.filter((c) => c.file === i).map(({ fragment }) => ({ fragment, bad: bad(fragment) })))),
    ),
  );
  const problems = await loadSpecFiles(files).then(
    () => [] as string[],
    (err: unknown) => {
      assert.ok(err instanceof SpecError, `a SpecError, not ${String(err)}`);
      assert.doesNotMatch(err.userMessage(), /\n\s+at /, "no stack trace");
      // Rename the run's files so that the same problem reads the same in every run.
      return err.issues.map((issue) => formatIssue(issue).replaceAll(run, "RUN"));
    },
  );
  await Promise.all(files.map((file) => rm(file)));
  return problems;
}

const choices = fc
  .uniqueArray(fc.record({ fragment: fc.constantFrom(...FRAGMENTS), file: fc.integer({ min: 0, max: 1 }) }), {
    selector: (c) => c.fragment.name,
    minLength: 1,
    maxLength: 6,
  })
  .chain((chosen) => fc.shuffledSubarray(chosen, { minLength: chosen.length, maxLength: chosen.length }));

describe("a load reports every problem at once", () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "pvectl-all-problems-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("each fragment's good twin is valid, and its bad form has problems of its own", async () => {
    for (const fragment of FRAGMENTS) {
      assert.deepEqual(await problemsOf([{ fragment, file: 0 }], () => false), [], `${fragment.name}: good twin`);
      assert.notDeepEqual(await problemsOf([{ fragment, file: 0 }], () => true), [], `${fragment.name}: bad form`);
    }
  });

  it("the problems of bad fragments together are the union of each one's alone, sorted and without repeats", async () => {
    await fc.assert(
      fc.asyncProperty(choices, async (choice) => {
        const together = await problemsOf(choice, () => true);
        const alone = new Set<string>();
        for (const { fragment } of choice) for (const problem of await problemsOf(choice, (f) => f === fragment)) alone.add(problem);
        assert.deepEqual([...together].sort(), [...alone].sort());
        assert.equal(new Set(together).size, together.length, "no problem twice");
        // Sorted by file (a before b), then line and column.
        const positions = together
          .map((p) => /^RUN-([ab])\.yaml:(\d+):(\d+)/.exec(p))
          .map((m) => (m ? [m[1] === "a" ? 0 : 1, Number(m[2]), Number(m[3])] : [2, 0, 0]));
        const rank = (p: number[]) => ((p[0] as number) * 1e6 + (p[1] as number)) * 1e3 + (p[2] as number);
        assert.deepEqual(
          positions.map(rank),
          positions.map(rank).sort((a, b) => a - b),
          "sorted by position",
        );
      }),
      { numRuns: 40 },
    );
  });

  it("one VM's problems found while reading it and those PVE would find in its plan come together", () => {
    const text = [
      "vms:",
      "  - name: x",
      "    node: pve1",
      "    memory: 1048577K",
      "    nics:",
      '      net0: { bridge: vmbr0, macaddr: "01:24:11:00:00:03" }',
      "    cloudInit: { storage: local-lvm, sshKeys: [ops@laptop] }",
      "",
    ].join("\n");
    assert.throws(
      () => parseSpec(text, "x.yaml"),
      (err: unknown) => {
        assert.ok(err instanceof SpecError);
        assert.deepEqual(err.issues.map(formatIssue), [
          "x.yaml:4:13: vms[0].memory: `1048577K` is not a whole number of MiB; PVE sets memory in MiB (e.g. 1536M or 2G)",
          "x.yaml:6:39: vms[0].nics.net0.macaddr: PVE would refuse this: invalid format - value does not look like a valid unicast MAC address (a NIC needs a unicast MAC: the first octet must be even, e.g. BC:24:11:...)",
          "x.yaml:7:48: vms[0].cloudInit.sshKeys[0]: PVE would refuse this key: it is not an OpenSSH public key: expected a key type (ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256 ...) followed by the key",
        ]);
        return true;
      },
    );
  });
});
