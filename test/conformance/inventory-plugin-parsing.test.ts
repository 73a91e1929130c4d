// pvectl's reading of a guest config into host variables (plugin-facts.ts) against the
// community plugin's own code: Debian's community.general 6.6.2 `_get_vm_config` is run on
// random configs (its HTTP read replaced by the config) and its variables compared with
// pluginHostVars' for the same config. Property strings, keys without `=`, disk keys (and
// `scsihw`), tags, raw `lxc.*` pairs, the description and odd key names are all drawn.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import fc from "fast-check";
import type { InventoryGuest } from "../../src/inventory/model.js";
import { pluginHostVars } from "../../src/inventory/plugin-facts.js";
import { ansibleMissing } from "../support/conformance.js";

const missing = ansibleMissing();

// Reads a JSON list of configs on stdin, prints the plugin's variables for each (agent reads answer nothing).
const PLUGIN_PROBE = `
import json, sys
from ansible.utils.collection_loader._collection_finder import _AnsibleCollectionFinder
_AnsibleCollectionFinder()._install()
from ansible_collections.community.general.plugins.inventory.proxmox import InventoryModule
out = []
for config in json.load(sys.stdin):
    plugin = InventoryModule()
    plugin.facts_prefix = 'proxmox_'
    plugin._get_json = lambda url, ignore_errors=None, config=config: config
    plugin._get_agent_network_interfaces = lambda node, vmid, vmtype: []
    props = {}
    plugin._get_vm_config(props, 'pve1', 100, 'qemu', 'x')
    out.append(props)
print(json.dumps(out))
`;

function pluginVars(configs: Record<string, unknown>[]): Record<string, unknown>[] {
  const result = spawnSync("/usr/bin/python3", ["-W", "ignore", "-c", PLUGIN_PROBE], {
    input: JSON.stringify(configs),
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout) as Record<string, unknown>[];
}

const text = fc.string({ unit: fc.constantFrom("a", "b", "1", "=", ",", ";", " ", ":", "-", "/"), maxLength: 14 });
const DISK_KEYS = ["scsi0", "scsihw", "virtio1", "sata2", "ide2", "rootfs"];
const OTHER_KEYS = [
  "net0",
  "ipconfig0",
  "description",
  "tags",
  "boot",
  "cpu",
  "memory",
  "name",
  "ostype",
  "meta",
  "agent",
  "features",
  "mp0",
  "Odd Key-1",
  "parent",
];
const TEXT_KEYS = [...DISK_KEYS, "tags", "agent"];
const config = fc
  .dictionary(fc.constantFrom(...DISK_KEYS, ...OTHER_KEYS, "lxc"), fc.oneof(text, fc.integer({ min: 0, max: 4096 })), { maxKeys: 8 })
  .chain((base) => {
    const out: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, value] of Object.entries(base)) {
      // The plugin treats disk, tags and agent values as text (a number there would crash it; PVE always sends text), and `lxc` is [key, value] pairs.
      if (key === "lxc")
        out[key] = fc.array(fc.tuple(fc.constantFrom("lxc.apparmor.profile", "lxc.cgroup2.devices.allow", "lxc.mount.entry"), text), {
          maxLength: 3,
        });
      else out[key] = TEXT_KEYS.includes(key) ? fc.constant(String(value)) : fc.constant(value);
    }
    return fc.record(out);
  });

function guestWith(cfg: Record<string, unknown>): InventoryGuest {
  return { vmid: 100, name: "x", node: "pve1", type: "qemu", status: "running", template: false, tags: [], config: cfg };
}

/** pluginHostVars without what the plugin reads from other endpoints (status/current, snapshots). */
function configPart(cfg: Record<string, unknown>): Record<string, unknown> {
  const vars = pluginHostVars(guestWith(cfg), { prefix: "proxmox_" });
  if (!("status" in cfg)) delete vars.proxmox_status;
  return vars;
}

test("random configs become the same host variables as in the community plugin's own code", { skip: missing }, () => {
  const samples = fc.sample(config, { numRuns: 300, seed: 17 });
  const theirs = pluginVars(samples);
  for (const [i, cfg] of samples.entries()) assert.deepEqual(configPart(cfg), theirs[i], `config ${JSON.stringify(cfg)}`);
});

test("the configs PVE writes most are among those compared", { skip: missing }, () => {
  const cfg = {
    net0: "virtio=BC:24:11:00:00:01,bridge=vmbr0,firewall=1",
    scsihw: "virtio-scsi-single",
    agent: "enabled=1,fstrim_cloned_disks=1",
    tags: "web;prod",
    lxc: [["lxc.apparmor.profile", "unconfined"]],
  };
  const [theirs] = pluginVars([cfg]);
  assert.deepEqual(configPart(cfg), theirs);
  assert.deepEqual(configPart(cfg).proxmox_scsihw, { disk_image: "virtio-scsi-single" });
  assert.deepEqual(configPart(cfg).proxmox_lxc, { "apparmor.profile": "unconfined" });
});
