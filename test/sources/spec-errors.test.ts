// Invalid specs: every problem is reported at once, each as `file:line:column: path: message`,
// with a suggestion for a misspelt key or value, and nothing is returned for the engine to send.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { renderError } from "../../src/cli/render-error.js";
import { loadSpecFiles, parseSpec, SpecError } from "../../src/sources/spec/index.js";

/** The problem lines of a spec that must be refused (without the heading). */
function problems(text: string, file = "web.yaml"): string[] {
  try {
    parseSpec(text, file);
  } catch (err) {
    assert.ok(err instanceof SpecError, `expected a SpecError, got ${String(err)}`);
    const lines = err.userMessage().split("\n");
    assert.equal(lines.length, err.issues.length + 1);
    return lines.slice(1).map((line) => line.trim());
  }
  assert.fail("the spec was accepted");
}

const lines = (...rows: string[]): string => `${rows.join("\n")}\n`;

describe("the error as a whole", () => {
  it("counts the problems, says nothing was sent and renders without a stack", () => {
    let caught: unknown;
    try {
      parseSpec(lines("vms:", "  - name: web1", "    node: pve1", "    corse: 2", "    memry: 2G"), "web.yaml");
    } catch (err) {
      caught = err;
    }
    assert.ok(caught instanceof SpecError);
    assert.equal(
      renderError(caught),
      [
        "error: the spec is invalid (2 problems); nothing was sent to the cluster. Fix the spec and run again:",
        "  web.yaml:4:5: vms[0].corse: unknown key `corse`; did you mean `cores`?",
        "  web.yaml:5:5: vms[0].memry: unknown key `memry`; did you mean `memory`?",
      ].join("\n"),
    );
    assert.deepEqual(caught.issues[0], {
      location: { file: "web.yaml", line: 4, column: 5 },
      path: ["vms", 0, "corse"],
      message: "unknown key `corse`; did you mean `cores`?",
    });
  });
});

describe("unknown keys", () => {
  it("suggests the closest key at that level, including nested ones", () => {
    assert.deepEqual(
      problems(
        lines(
          "vms:",
          "  - name: a",
          "    node: pve1",
          "    nics:",
          "      net0: { bridge: vmbr0, modle: virtio }",
          "    disks:",
          "      scsi0: { storage: local-lvm, size: 8G, iothrad: true }",
          "    agent: { enabled: true, fstrim_cloned_disks: true }",
        ),
      ),
      [
        "web.yaml:5:30: vms[0].nics.net0.modle: unknown key `modle`; did you mean `model`?",
        "web.yaml:7:46: vms[0].disks.scsi0.iothrad: unknown key `iothrad`; did you mean `iothread`?",
        "web.yaml:8:29: vms[0].agent.fstrim_cloned_disks: unknown key `fstrim_cloned_disks`; did you mean `fstrimClonedDisks`?",
      ],
    );
  });

  it("points proxmox_kvm and PVE names to their place in the spec", () => {
    assert.deepEqual(
      problems(
        lines("vms:", "  - name: a", "    node: pve1", "    net:", "      net0: virtio,bridge=vmbr0", "    sshkeys: x", "    numa: 1"),
      ),
      [
        "web.yaml:4:5: vms[0].net: unknown key `net`; here it is `nics` (keyed by slot: `nics: { net0: { bridge: vmbr0 } }`)",
        "web.yaml:6:5: vms[0].sshkeys: unknown key `sshkeys`; write it as `cloudInit.sshKeys` (a list, one key per entry)",
        "web.yaml:7:5: vms[0].numa: `numa` is a PVE config key without a field of its own here: put it under `extraConfig` (e.g. `extraConfig: { numa: ... }`)",
      ],
    );
  });

  it("reads `containers:` as a list of containers (a container needs a node)", () => {
    assert.deepEqual(problems(lines("containers:", "  - name: ct1")), ["web.yaml:2:5: containers[0].node: is required"]);
  });
});

describe("values", () => {
  it("checks enums, ranges, units, MACs, names and types", () => {
    assert.deepEqual(
      problems(
        lines(
          "vms:",
          "  - vmid: 99",
          "    name: web_1",
          "    node: pve1",
          "    bios: ovfm",
          "    cores: 2.5",
          "    onboot: yes",
          "    state: started",
          "    disks:",
          "      scsi0: { storage: local-lvm, size: 32, cache: writebak }",
          "    nics:",
          "      net0: { bridge: vmbr0, tag: 5000, macaddr: 'BC:24:11' }",
        ),
      ),
      [
        "web.yaml:2:11: vms[0].vmid: must be at least 100, got 99",
        "web.yaml:3:11: vms[0].name: `web_1` is not valid: letters, digits and '-', dots only between labels (a DNS name)",
        "web.yaml:5:11: vms[0].bios: `ovfm` is not one of seabios, ovmf; did you mean `ovmf`?",
        "web.yaml:6:12: vms[0].cores: expected a whole number, got number 2.5",
        'web.yaml:7:13: vms[0].onboot: expected true or false, got the string "yes" (YAML 1.2 reads yes/no/on/off as strings)',
        "web.yaml:8:12: vms[0].state: `started` is not a state: `state` is present or absent; the power state is `power: running` or `power: stopped`",
        "web.yaml:10:42: vms[0].disks.scsi0.size: 32 has no unit; write 32G for 32 GiB (units: K, M, G, T, powers of 1024)",
        "web.yaml:10:53: vms[0].disks.scsi0.cache: `writebak` is not one of none, writethrough, writeback, unsafe, directsync; did you mean `writeback`?",
        "web.yaml:12:35: vms[0].nics.net0.tag: must be at most 4094, got 5000",
        "web.yaml:12:50: vms[0].nics.net0.macaddr: `BC:24:11` is not valid: a MAC address like BC:24:11:2A:3B:4C",
      ],
    );
  });

  it("names slots that do not exist, with the valid ranges from PVE's schema", () => {
    assert.deepEqual(
      problems(
        lines(
          "vms:",
          "  - name: a",
          "    node: pve1",
          "    disks:",
          "      scsi31: { storage: local-lvm, size: 1G }",
          "    cdroms:",
          "      virtio1: {}",
          "    nics:",
          "      net32: { bridge: vmbr0 }",
        ),
      ),
      [
        "web.yaml:5:7: vms[0].disks.scsi31: `scsi31` is not a disk slot: disk slots are scsi0-scsi30, virtio0-virtio15, sata0-sata5, ide0-ide3",
        "web.yaml:7:7: vms[0].cdroms.virtio1: `virtio1` cannot hold a CD-ROM: CD-ROM slots are ide0-ide3, sata0-sata5, scsi0-scsi30",
        "web.yaml:9:7: vms[0].nics.net32: `net32` is not a NIC slot: NIC slots are net0-net31",
      ],
    );
  });

  it("shows how to write a list where PVE writes one string", () => {
    assert.deepEqual(problems(lines("vms:", "  - name: a", "    node: pve1", "    boot: order=scsi0;net0", "    tags: web")), [
      'web.yaml:4:11: vms[0].boot: expected a list, got the string "order=scsi0;net0"; write the boot order as a list of slots, e.g. `boot: [scsi0, ide2, net0]` (not PVE\'s `order=scsi0;ide2`)',
      'web.yaml:5:11: vms[0].tags: expected a list, got the string "web"; write e.g. `tags: [web, production]`',
    ]);
  });

  it("checks cloud-init addresses", () => {
    assert.deepEqual(
      problems(
        lines(
          "vms:",
          "  - name: a",
          "    node: pve1",
          "    nics: { net0: { bridge: vmbr0 } }",
          "    cloudInit:",
          "      storage: local-lvm",
          "      ipconfig: { ipconfig0: { ip: 10.0.0.5 } }",
          "      nameservers: [dns.example.com, '2001:db8::53']",
        ),
      ),
      [
        'web.yaml:7:36: vms[0].cloudInit.ipconfig.ipconfig0.ip: `10.0.0.5` is not "dhcp" or an IPv4 address in CIDR form (10.0.0.5/24)',
        "web.yaml:8:21: vms[0].cloudInit.nameservers[0]: `dns.example.com` is not valid: an IPv4 or IPv6 address",
      ],
    );
  });

  it("reports a missing required field at the VM", () => {
    assert.deepEqual(problems(lines("vms:", "  - vmid: 200", "    node: pve1")), ["web.yaml:2:5: vms[0].name: is required"]);
  });
});

describe("checks across fields", () => {
  it("sizes, drive options per bus, slots used twice, boot order, EFI, balloon, cloud-init NICs", () => {
    assert.deepEqual(
      problems(
        lines(
          "vms:",
          "  - name: a",
          "    node: pve1",
          "    memory: 2G",
          "    balloon: 3G",
          "    efidisk: { storage: local-lvm }",
          "    disks:",
          "      virtio0: { storage: local-lvm, size: 32G, ssd: true }",
          "      ide2: { storage: local-lvm, size: 100K }",
          "      scsi1: { storage: local-lvm }",
          "    cloudInit:",
          "      storage: local-lvm",
          "      ipconfig:",
          "        ipconfig1: { ip: dhcp }",
          "    boot: [virtio0, scsi0]",
          "    nics:",
          "      net0: { bridge: vmbr0 }",
        ),
      ),
      [
        "web.yaml:5:14: vms[0].balloon: balloon (3072 MiB) is more than memory (2048 MiB); PVE refuses that",
        "web.yaml:6:5: vms[0].efidisk: an EFI disk needs `bios: ovmf`",
        "web.yaml:8:49: vms[0].disks.virtio0.ssd: PVE's virtio drives have no `ssd` option",
        "web.yaml:9:41: vms[0].disks.ide2.size: `100K` is too small: a disk has at least 1M (sizes are written with a unit, e.g. 32G)",
        "web.yaml:10:14: vms[0].disks.scsi1: a disk needs a `size` (e.g. 32G) or an `importFrom` image",
        "web.yaml:11:5: vms[0].cloudInit: slot ide2 is already used by `disks`; one slot holds one drive",
        "web.yaml:14:9: vms[0].cloudInit.ipconfig.ipconfig1: ipconfig1 configures net1, but this VM has no net1 under `nics`",
        "web.yaml:15:21: vms[0].boot[1]: `scsi0` is not a disk, CD-ROM or NIC of this VM; did you mean `scsi1`?",
      ],
    );
  });

  it("checks the slots to detach", () => {
    const vm = (detach: string) =>
      lines(
        "vms:",
        "  - name: a",
        "    node: pve1",
        "    disks:",
        "      scsi0: { storage: local-lvm, size: 8G }",
        `    detach: ${detach}`,
      );
    assert.deepEqual(problems(vm("[scsi1, scsi99]")), [
      "web.yaml:6:21: vms[0].detach[1]: `scsi99` is not one of scsi0-scsi30, virtio0-virtio15, sata0-sata5, ide0-ide3; did you mean `scsi9`?",
    ]);
    assert.deepEqual(problems(vm("[scsi1, scsi0]")), [
      "web.yaml:6:21: vms[0].detach[1]: scsi0 is listed under `disks` too; detach a disk by removing it from `disks`",
    ]);
  });

  it("refuses memory that is not a whole number of MiB", () => {
    assert.deepEqual(problems(lines("vms:", "  - { name: a, node: pve1, memory: 1000K }")), [
      "web.yaml:2:36: vms[0].memory: `1000K` is not a whole number of MiB; PVE sets memory in MiB (e.g. 1536M or 2G)",
    ]);
  });
});

describe("the escape hatch (extraConfig)", () => {
  it("accepts any valid PVE config key and stores booleans as 1/0", () => {
    const spec = parseSpec(
      lines(
        "vms:",
        "  - name: a",
        "    node: pve1",
        "    extraConfig:",
        "      rng0: source=/dev/urandom",
        "      args: -global scsi-hd.physical_block_size=4k",
        "      numa: true",
        "      cpulimit: 2",
      ),
      "web.yaml",
    );
    assert.deepEqual(spec.vms[0]?.extraConfig, {
      rng0: "source=/dev/urandom",
      args: "-global scsi-hd.physical_block_size=4k",
      numa: 1,
      cpulimit: 2,
    });
  });

  it("refuses unknown keys (with a suggestion), invalid values, owned keys and PVE's bookkeeping", () => {
    assert.deepEqual(
      problems(
        lines(
          "vms:",
          "  - name: a",
          "    node: pve1",
          "    extraConfig:",
          "      spice_enhancement: videostreaming=all",
          "      rng0: source=/dev/foo",
          "      net0: virtio,bridge=vmbr0",
          "      cpulimit: 500",
          "      lock: backup",
        ),
      ),
      [
        "web.yaml:5:7: vms[0].extraConfig.spice_enhancement: `spice_enhancement` is not a VM config key in PVE's schema; did you mean `spice_enhancements`?",
        "web.yaml:6:13: vms[0].extraConfig.rng0: PVE would refuse \"source=/dev/foo\" for `rng0`: invalid format - format error; rng0.source: value '/dev/foo' does not have a value in the enumeration '/dev/urandom, /dev/random, /dev/hwrng'",
        "web.yaml:7:7: vms[0].extraConfig.net0: `net0` has a place of its own in the spec: write it as `nics: { net0: { bridge: vmbr0 } }`, not under extraConfig",
        "web.yaml:8:17: vms[0].extraConfig.cpulimit: PVE would refuse 500 for `cpulimit`: value must have a maximum value of 128",
        "web.yaml:9:7: vms[0].extraConfig.lock: `lock` cannot be set through a spec (PVE keeps it itself or it belongs to a single API call)",
      ],
    );
  });
});

describe("connections in a spec", () => {
  it("refuses inline secrets and says what to write instead", () => {
    assert.deepEqual(
      problems(
        lines(
          "connections:",
          "  lab:",
          "    host: pve1",
          "    user: automation@pve",
          "    tokenId: pvectl",
          "    tokenSecret: 5f0c6a3e-1d2b-4c8e-9a7f-0b1c2d3e4f50",
          "vms:",
          "  - name: a",
          "    node: pve1",
          "    cloudInit: { storage: local-lvm, cipassword: hunter2 }",
        ),
      ),
      [
        "web.yaml:6:5: connections.lab.tokenSecret: inline secrets are not accepted: a spec file ends up in version control, reviews and logs. Put the secret in an environment variable or a file readable only by you, and write `tokenSecretEnv: VARIABLE` or `tokenSecretFile: path`",
        "web.yaml:10:38: vms[0].cloudInit.cipassword: a cloud-init password in a spec file ends up in version control and logs; give `sshKeys` instead, or set the password out of band",
      ],
    );
  });

  it("never echoes the secret value in any message", () => {
    const secret = "5f0c6a3e-1d2b-4c8e-9a7f-0b1c2d3e4f50";
    const text = problems(
      lines("connections:", "  lab:", "    host: pve1", `    password: ${secret}`, `    api_token_secret: ${secret}`),
    ).join("\n");
    assert.ok(!text.includes(secret), text);
    assert.match(text, /connections\.lab\.password: inline secrets are not accepted/);
    assert.match(text, /connections\.lab\.api_token_secret: inline secrets are not accepted/);
    const pasted = problems(
      lines("connections:", "  lab:", "    host: pve1", "    user: ci@pve", "    tokenId: ci", `    tokenSecretEnv: ${secret}`),
    );
    assert.deepEqual(pasted, [
      "web.yaml:6:21: connections.lab.tokenSecretEnv: is not an environment variable name (letters, digits and _, not starting with a digit); write the variable's name here, never the secret itself",
    ]);
  });

  it("requires credentials and complete pairs", () => {
    assert.deepEqual(
      problems(
        lines(
          "connections:",
          "  a:",
          "    host: pve1",
          "  b: { host: pve2, tokenId: ci, user: ci@pve }",
          "  c: { host: pve3, passwordEnv: PVE_PASSWORD }",
        ),
      ),
      [
        "web.yaml:2:3: connections.a: no credentials: give an API token (`tokenId` + `tokenSecretEnv` or `tokenSecretFile`, recommended) or `user` + `passwordEnv` / `passwordFile`",
        "web.yaml:4:20: connections.b.tokenId: an API token needs its secret: add `tokenSecretEnv: VARIABLE` or `tokenSecretFile: path`",
        "web.yaml:5:20: connections.c.passwordEnv: a password needs `user` (e.g. root@pam)",
      ],
    );
  });

  it("resolves which connection a VM uses, or says why it cannot", () => {
    const connections = lines(
      "connections:",
      "  lab: { host: pve1, user: ci@pve, tokenId: ci, tokenSecretEnv: LAB_SECRET }",
      "  prod: { host: pve9, user: ci@pve, tokenId: ci, tokenSecretEnv: PROD_SECRET }",
    );
    assert.deepEqual(problems(`${connections}vms:\n  - { name: a, node: pve1, connection: lba }\n  - { name: b, node: pve1 }\n`), [
      "web.yaml:5:40: vms[0].connection: vm a names connection `lba`, which no spec file defines; did you mean `lab`?",
      "web.yaml:6:5: vms[1].connection: vm b names no connection, and the spec defines several (lab, prod): add `connection: <name>`",
    ]);
  });
});

describe("YAML syntax", () => {
  it("reports the position of syntax errors and duplicate keys", () => {
    assert.deepEqual(problems(lines("vms:", "  - name: a", "    node: pve1", "    name: b")), [
      "web.yaml:4:5: YAML: Map keys must be unique",
    ]);
    assert.deepEqual(problems(lines("vms:", "  - name: a", "    node: pve1", "   cores: 2")), [
      "web.yaml:4:1: YAML: Sequence item without - indicator",
    ]);
  });
});

describe("across files", () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "pvectl-spec-errors-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("names both places of a duplicate vmid, and of a duplicate name", async () => {
    const a = join(dir, "a.yaml");
    const b = join(dir, "b.yaml");
    await writeFile(a, lines("vms:", "  - { vmid: 201, name: web1, node: pve1 }", "  - { vmid: 202, name: web2, node: pve1 }"));
    await writeFile(
      b,
      lines("# copied from a.yaml", "vms:", "  - { vmid: 201, name: web9, node: pve2 }", "  - { name: web2, node: pve2 }"),
    );
    await assert.rejects(loadSpecFiles([a, b]), (err: unknown) => {
      assert.ok(err instanceof SpecError);
      assert.deepEqual(err.userMessage().split("\n").slice(1), [
        `  ${b}:3:13: vms[0].vmid: vmid 201 is declared twice: here (web9) and at ${a}:2:5 (web1); a vmid identifies one VM`,
        `  ${b}:4:13: vms[1].name: the name web2 is used twice: here and at ${a}:3:5; give each VM its own name (PVE allows duplicates, which makes names useless for finding a VM)`,
      ]);
      return true;
    });
  });

  it("reports problems of every file in one error, in the order the files were given", async () => {
    const a = join(dir, "c.yaml");
    const missing = join(dir, "missing.yaml");
    await writeFile(a, lines("vms:", "  - { name: x, node: pve1, cors: 1 }"));
    await assert.rejects(loadSpecFiles([missing, a]), (err: unknown) => {
      assert.ok(err instanceof SpecError);
      assert.deepEqual(err.userMessage().split("\n").slice(1), [
        `  cannot read spec file ${missing}: no such file`,
        `  ${a}:2:28: vms[0].cors: unknown key \`cors\`; did you mean \`cores\`?`,
      ]);
      return true;
    });
  });
});
