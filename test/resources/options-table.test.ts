// The qemu options table (src/resources/qemu/options-table.ts): its rows checked against PVE's
// generated schema and against what pvectl did before the table, and every row with a spec
// field carried through the whole chain (spec -> desired -> live -> import -> empty plan), so
// a new row of an existing kind is tested by being added.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { defaultKeyOf, isVmDriveKey } from "../../src/pve/index.js";
import { canonical } from "../../src/resources/formats.js";
import { planUpdate } from "../../src/resources/qemu/diff.js";
import type { DesiredVm } from "../../src/resources/qemu/model.js";
import { writeValue } from "../../src/resources/qemu/options.js";
import {
  importRule,
  optionPrivilege,
  optionPrivilegeAnyOf,
  QEMU_OPTION_ROWS,
  type QemuOption,
  qemuOption,
  type SpecField,
  type SpecKind,
  specFieldOf,
} from "../../src/resources/qemu/options-table.js";
import { qemuCallNeeds } from "../../src/resources/qemu/privileges.js";
import { liveVmFromConfig } from "../../src/resources/qemu/read.js";
import { liveToSpecVm, type RawObject } from "../../src/resources/qemu/to-spec.js";
import { expandIndexedName, getEndpoint, paramSchema } from "../../src/schema/index.js";
import type { ParamSchema } from "../../src/schema/types.js";
import { checkExtraConfig } from "../../src/resources/qemu/spec-extra-config.js";
import { parseSpec } from "../../src/sources/spec/load.js";
import { desiredVmFromSpec } from "../../src/resources/qemu/spec-desired.js";

const CONFIG = getEndpoint("PUT", "/nodes/{node}/qemu/{vmid}/config")!;
const power = { shutdownTimeoutSeconds: 60, forceStop: false };

/** A concrete key of the row (`ipconfig0` for the `ipconfig` row). */
function keyOf(row: QemuOption): string {
  return row.indexed ? `${row.key}0` : row.key;
}

function pveSchema(row: QemuOption): ParamSchema | undefined {
  return paramSchema(CONFIG, keyOf(row));
}

/** PVE's default: the key's own, or its property string's default key's. */
function schemaDefault(schema: ParamSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  const sub = typeof schema.format === "object" ? schema.format : undefined;
  const name = sub ? defaultKeyOf(sub) : undefined;
  return name !== undefined ? sub?.[name]?.default : undefined;
}

/** PVE's defaults pvectl does not treat as "not set" (writing the default plans a change). */
const SCHEMA_DEFAULTS_NOT_USED = [
  "allow-ksm",
  "ciupgrade",
  "migrate_downtime",
  "migrate_speed",
  "shares",
  "smp",
  "startdate",
  "template",
  "vcpus",
  "vmgenid",
];

describe("options table: rows are PVE's facts", () => {
  it("every row is a key of PVE's VM config (PVE's bookkeeping aside), indexed as PVE indexes it", () => {
    for (const row of QEMU_OPTION_ROWS) {
      const schema = pveSchema(row);
      if (!schema) {
        assert.equal(row.spec, "pve-internal", `${row.key} is not in PVE's config schema`);
        continue;
      }
      assert.equal(schema.index !== undefined, row.indexed === true, `${row.key}: indexed`);
    }
  });

  it("each row's value type is the type PVE's schema gives the key", () => {
    for (const row of QEMU_OPTION_ROWS) {
      const schema = pveSchema(row);
      if (!schema) continue;
      const expected: Record<QemuOption["value"], boolean> = {
        integer: schema.type === "integer",
        number: schema.type === "number",
        boolean: schema.type === "boolean",
        // Compared as written: a plain string, or a property string pvectl does not parse yet.
        text: schema.type === "string",
        "property-string": typeof schema.format === "object",
        "ssh-keys": schema.format === "urlencoded",
        comment: row.key === "description" && schema.type === "string",
      };
      assert.ok(expected[row.value], `${row.key}: ${row.value} but PVE says ${schema.type} ${JSON.stringify(schema.format ?? "")}`);
    }
  });

  it("each default is PVE's; PVE's other defaults are listed as not used", () => {
    const unused: string[] = [];
    for (const row of QEMU_OPTION_ROWS) {
      const schema = pveSchema(row);
      const pveDefault = schema ? schemaDefault(schema) : undefined;
      if (row.default === undefined) {
        if (pveDefault !== undefined) unused.push(row.key);
        continue;
      }
      // PVE's schema has no default for the description; empty is what an unset one shows.
      if (row.key === "description") assert.equal(row.default, "");
      else assert.equal(row.default, canonical(pveDefault as string | number | boolean), `${row.key}: default`);
    }
    assert.deepEqual(unused.sort(), SCHEMA_DEFAULTS_NOT_USED);
  });

  it("MiB values are the rows whose spec writes MiB", () => {
    for (const row of QEMU_OPTION_ROWS) assert.equal(row.unit === "MiB", specFieldOf(row)?.kind === "MiB", row.key);
  });

  it("one row per key, and an indexed row finds every index", () => {
    const seen = new Set(QEMU_OPTION_ROWS.map((row) => `${row.key}${row.indexed ? "[n]" : ""}`));
    assert.equal(seen.size, QEMU_OPTION_ROWS.length);
    assert.equal(qemuOption("ipconfig31")?.key, "ipconfig");
    assert.equal(qemuOption("numa")?.indexed, undefined);
    assert.equal(qemuOption("numa7")?.indexed, true);
    assert.equal(qemuOption("net0"), undefined, "NICs are keyed by slot, not in the table");
  });
});

/**
 * qemu-server's `$check_vm_modify_config_perm` per key (PVE/API2/Qemu.pm), written out
 * independently of the table so a wrong row fails here: anything not listed needs
 * VM.Config.Options.
 */
const QEMU_SERVER_PRIVILEGE: Array<[RegExp, string]> = [
  [/^(cores|cpu|cpulimit|cpuunits|numa\d*|smp|sockets|vcpus|affinity)$/, "VM.Config.CPU"],
  [/^(memory|balloon|shares|allow-ksm)$/, "VM.Config.Memory"],
  [/^(acpi|hotplug|kvm|machine|scsihw|smbios1|tablet|vga|watchdog|audio0|rng0)$/, "VM.Config.HWType"],
  [/^(boot|bootdisk|vmstatestorage)$/, "VM.Config.Disk"],
];
const checkedPrivilege = (key: string) => QEMU_SERVER_PRIVILEGE.find(([re]) => re.test(key))?.[1] ?? "VM.Config.Options";

describe("options table: privileges", () => {
  const configureOne = (key: string) =>
    qemuCallNeeds({ kind: "qemu", op: "configure", writes: [{ key, as: "option" }], deletes: [], allocates: false }, "/vms/100");

  it("each row's privilege is what the privilege check asks for the key today", () => {
    for (const row of QEMU_OPTION_ROWS) {
      const key = keyOf(row);
      const [need] = configureOne(key);
      assert.equal(need?.privilege, optionPrivilege(key), key);
      assert.deepEqual(need?.anyOf, optionPrivilegeAnyOf(key), key);
      // Cloud-init keys are checked before the per-key list; every other key is in it.
      if (row.anyOf === undefined) assert.equal(checkedPrivilege(key), optionPrivilege(key), key);
    }
  });

  it("every other key of PVE's VM config needs VM.Config.Options (NICs and drives aside), so the table covers the per-key list", () => {
    for (const [param, schema] of Object.entries(CONFIG.params)) {
      for (const key of expandIndexedName(param, schema)) {
        if (qemuOption(key) || isVmDriveKey(key) || /^net\d+$/.test(key)) continue;
        assert.equal(checkedPrivilege(key), "VM.Config.Options", key);
      }
    }
  });
});

/** qemu-server's fast-plug keys (vmconfig_hotplug_pending), cloud-init's, and the cgroup settings. */
const APPLIED_AT_ONCE = [
  ...[
    "name",
    "description",
    "onboot",
    "protection",
    "startup",
    "hookscript",
    "shares",
    "migrate_downtime",
    "migrate_speed",
    "vmstatestorage",
    "tags",
  ],
  ...["ciuser", "cipassword", "citype", "ciupgrade", "cicustom", "sshkeys", "nameserver", "searchdomain", "ipconfig"],
  ...["cpuunits", "cpulimit"],
];

describe("options table: a running guest", () => {
  it("qemu-server's fast-plug keys and the cgroup settings are the rows applied at once", () => {
    const now = QEMU_OPTION_ROWS.filter((row) => row.hotplug === "now").map((row) => row.key);
    assert.deepEqual(now.sort(), [...APPLIED_AT_ONCE].sort());
  });

  function liveGuest(hotplug: string) {
    return liveVmFromConfig({ vmid: 120, node: "pve1", status: "running" }, { name: "web", hotplug, tags: "pvectl" });
  }

  function stepFor(key: string, hotplug: string): string[] {
    const vm: DesiredVm = {
      kind: "qemu",
      key: "web",
      name: "web",
      vmid: 120,
      node: "pve1",
      options: { [key]: "changed" },
      disks: [],
      nics: [],
      special: {},
    };
    return planUpdate(vm, liveGuest(hotplug), power).steps.map((s) => s.action);
  }

  it("the diff takes each row's change at once or after a reboot as its hotplug class says", () => {
    for (const row of QEMU_OPTION_ROWS) {
      const key = keyOf(row);
      if (key === "hotplug" || typeof row.spec === "string") continue;
      const rule = row.hotplug;
      if (rule === "now") assert.deepEqual(stepFor(key, "network,disk,usb"), ["config"], key);
      else if (rule === "reboot") assert.deepEqual(stepFor(key, "network,disk,usb,memory,cpu"), ["config-pending", "reboot"], key);
      else if (typeof rule === "object") {
        assert.deepEqual(stepFor(key, `network,${rule.feature}`), ["config"], `${key} with ${rule.feature} hotplug`);
        assert.deepEqual(stepFor(key, "network"), ["config-pending", "reboot"], `${key} without ${rule.feature} hotplug`);
      }
    }
  });
});

// ---- every spec field through the whole chain ----

/** A valid spec value of each kind, for row `row`. */
const SAMPLES: Record<Exclude<SpecKind, "own">, (schema: ParamSchema) => unknown> = {
  pve: (schema) =>
    schema.enum ? schema.enum.at(-1) : schema.type === "boolean" ? true : schema.type === "string" ? "text" : (schema.minimum ?? 0) + 2,
  "pve-string": () => "host",
  MiB: () => 2048,
  "default-key": () => "q35",
  "boot-order": () => ["scsi0", "net0"],
  agent: () => ({ enabled: true, fstrimClonedDisks: true }),
  "ssh-keys": () => ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemoKeyOnlyDemoKeyOnlyDemoKeyOnly0000000000 me@host"],
  addresses: () => ["10.0.0.1", "fd00::1"],
  words: () => ["example.org", "example.net"],
};

const MAC = "BC:24:11:00:00:01";

function specVm(spec: SpecField, value: unknown): Record<string, unknown> {
  const vm: Record<string, unknown> = {
    vmid: 130,
    name: "t",
    node: "pve1",
    disks: { scsi0: { storage: "local-lvm", size: "1G" } },
    nics: { net0: { bridge: "vmbr0", macaddr: MAC } },
  };
  if (spec.section === "cloudInit") vm.cloudInit = { storage: "local-lvm", [spec.field]: value };
  else vm[spec.field] = value;
  return vm;
}

function desiredOf(vm: unknown): DesiredVm {
  return desiredVmFromSpec(parseSpec(JSON.stringify({ vms: [vm] }), "t.yaml").vms[0]!);
}

/** The guest as PVE holds it after a create with these options. */
function liveOf(desired: DesiredVm, cloudInit: boolean) {
  const config: Record<string, string> = {
    name: "t",
    tags: "pvectl",
    scsi0: "local-lvm:vm-130-disk-0,size=1G",
    net0: `virtio=${MAC},bridge=vmbr0`,
  };
  for (const [key, value] of Object.entries(desired.options)) config[key] = writeValue(key, value);
  if (cloudInit) config.ide2 = "local-lvm:vm-130-cloudinit,media=cdrom";
  return liveVmFromConfig({ vmid: 130, node: "pve1", status: "stopped" }, config);
}

describe("options table: every spec field, spec -> PVE -> import -> no change", () => {
  for (const row of QEMU_OPTION_ROWS) {
    const spec = specFieldOf(row);
    if (!spec || spec.kind === "own") continue;
    const kind = spec.kind;
    const where = spec.section ? `${spec.section}.${spec.field}` : spec.field;
    it(`${where} (${row.key})`, () => {
      const value = SAMPLES[kind](paramSchema(CONFIG, row.key) ?? {});
      const desired = desiredOf(specVm(spec, value));
      assert.ok(desired.options[row.key] !== undefined, `the spec's ${where} is written as ${row.key}`);
      assert.equal(importRule(row), "field");

      const live = liveOf(desired, spec.section === "cloudInit");
      const imported = liveToSpecVm(live);
      const section = spec.section ? (imported[spec.section] as RawObject) : imported;
      assert.deepEqual(section[spec.field], value, `import writes ${where} back`);
      assert.deepEqual(planUpdate(desiredOf(imported), live, power).steps, [], "the imported spec plans nothing");

      const refused = checkExtraConfig(row.key, "1");
      assert.ok(!refused.ok && refused.message.includes(spec.field), `extraConfig refuses ${row.key} and names ${where}`);
    });
  }
});
