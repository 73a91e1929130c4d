// compose, groups, keyed_groups and filters give the groups and variables that Ansible's own
// Constructable (Debian's ansible-core, driven the way the community plugin drives it) gives
// for the same hosts and options, strict or not: random hosts, options drawn from a pool of
// the entries people write.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import fc from "fast-check";
import { parseInventoryConfig } from "../../src/inventory/config.js";
import { applyConstructed } from "../../src/inventory/constructed.js";
import type { AnsibleInventory } from "../../src/inventory/model.js";

const PYTHON = "/usr/bin/python3";
const missing =
  existsSync(PYTHON) && spawnSync(PYTHON, ["-c", "import ansible.plugins.inventory"]).status === 0
    ? undefined
    : "needs Debian's ansible-core";
const DRIVER = readFileSync(new URL("./constructed-driver.py", import.meta.url), "utf8");

const COMPOSE: Record<string, string> = {
  ansible_host: "proxmox_ipconfig0.ip | default('0.0.0.0/0') | regex_replace('/.*$', '')",
  role: "proxmox_tags_parsed | first",
  port: "2222",
  os_upper: "proxmox_ostype | upper",
  vmid_text: "proxmox_vmid | string",
  vmid: "proxmox_vmid",
  broken: "no_such_var ~ 'x'",
  nics: "[proxmox_net0.bridge | default('none')]",
};
const GROUPS: Record<string, string> = {
  web: "'web' in proxmox_tags_parsed",
  linux: "proxmox_ostype == 'l26'",
  running: "proxmox_status == 'running'",
  composed_port: "port is defined",
  "odd-name": "proxmox_vmid > 101",
  broken_group: "no_such_var",
};
const KEYED = [
  { key: "proxmox_tags_parsed", prefix: "tag" },
  { key: "proxmox_ostype", prefix: "os", separator: "-" },
  { key: "proxmox_ostype" },
  { key: "proxmox_net0", prefix: "nic" },
  { key: "proxmox_net0.bridge | default('')", prefix: "br", default_value: "none" },
  { key: "proxmox_tags_parsed", separator: "" },
  { key: "role", parent_group: "roles" },
  { key: "proxmox_vmid" },
  { key: "proxmox_vmid | string", prefix: "id", parent_group: "ids" },
  { key: "{'st': proxmox_status, 'empty': ''}", trailing_separator: false },
];
const FILTERS = ["proxmox_status == 'running'", "'tmp' not in proxmox_tags_parsed", "proxmox_ostype is defined"];

const host = fc.record(
  {
    proxmox_vmid: fc.integer({ min: 100, max: 103 }),
    proxmox_status: fc.constantFrom("running", "stopped"),
    proxmox_tags_parsed: fc.uniqueArray(fc.constantFrom("web", "db", "tmp", "prod"), { maxLength: 3 }),
    proxmox_ostype: fc.constantFrom("l26", "win11", ""),
    proxmox_net0: fc.record(
      { virtio: fc.constant("BC:24:11:00:00:01"), bridge: fc.constantFrom("vmbr0", "vmbr1", "") },
      { requiredKeys: ["virtio"] },
    ),
    proxmox_ipconfig0: fc.record({ ip: fc.constantFrom("10.0.0.5/24", "dhcp") }),
  },
  { requiredKeys: ["proxmox_vmid", "proxmox_status", "proxmox_tags_parsed"] },
);

const pick = <T>(items: T[]) => fc.subarray(items, { maxLength: 3 });
const options = fc.record({
  compose: pick(Object.keys(COMPOSE)).map((keys) => Object.fromEntries(keys.map((k) => [k, COMPOSE[k]]))),
  groups: pick(Object.keys(GROUPS)).map((keys) => Object.fromEntries(keys.map((k) => [k, GROUPS[k]]))),
  keyed_groups: pick(KEYED),
  filters: fc.subarray(FILTERS, { maxLength: 1 }),
  strict: fc.boolean(),
  leading_separator: fc.boolean(),
});
const cases = fc.record({ hosts: fc.dictionary(fc.constantFrom("web-1", "db-1", "win-1"), host, { minKeys: 1 }), options });

type Outcome =
  | { ok: { groups: Record<string, string[]>; children: Record<string, string[]>; hostvars: Record<string, unknown> } }
  | { error: string };

function ours(c: { hosts: Record<string, Record<string, unknown>>; options: Record<string, unknown> }): Outcome {
  const inventory: AnsibleInventory = { _meta: { hostvars: structuredClone(c.hosts) } };
  try {
    const constructed = parseInventoryConfig({ constructed: c.options }, "test").constructed!;
    applyConstructed(inventory, constructed);
  } catch (err) {
    return { error: (err as Error).message };
  }
  const groups: Record<string, string[]> = {};
  const children: Record<string, string[]> = {};
  for (const [name, entry] of Object.entries(inventory)) {
    if (name === "_meta" || name === "all") continue;
    const g = entry as { hosts?: string[]; children?: string[] };
    if (g.hosts?.length) groups[name] = g.hosts;
    if (g.children?.length) children[name] = g.children;
  }
  return { ok: { groups, children, hostvars: inventory._meta.hostvars } };
}

test("constructed options group and compose as Ansible's Constructable does", { skip: missing }, () => {
  const sample = fc.sample(cases, { numRuns: 300, seed: Number(process.env.CONSTRUCTED_SEED ?? 5) });
  const run = spawnSync(PYTHON, ["-c", DRIVER], { input: JSON.stringify(sample), encoding: "utf8", maxBuffer: 64 << 20 });
  assert.equal(run.status, 0, run.stderr);
  const theirs = JSON.parse(run.stdout) as Outcome[];
  const mismatches: string[] = [];
  sample.forEach((c, i) => {
    const mine = ours(c);
    const want = theirs[i]!;
    const same = "error" in mine || "error" in want ? "error" in mine && "error" in want : isSame(mine.ok, want.ok);
    if (!same) mismatches.push(`${JSON.stringify(c)}\n    ansible: ${JSON.stringify(want)}\n    pvectl:  ${JSON.stringify(mine)}`);
  });
  assert.deepEqual(mismatches.slice(0, 3), [], `${mismatches.length} of ${sample.length} differ`);
});

function isSame(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}
