// The community plugin's proxmox.yml read as is: what each option becomes, and the options
// pvectl refuses, each named.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { InventoryError, readInventoryFile } from "../../src/inventory/index.js";

async function read(yaml: string, env: NodeJS.ProcessEnv = {}) {
  const dir = await mkdtemp(join(tmpdir(), "pvectl-plugin-yml-"));
  try {
    const path = join(dir, "lab.proxmox.yml");
    await writeFile(path, yaml);
    return await readInventoryFile(path, env);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const BASE = "plugin: community.general.proxmox\nurl: https://pve.example.com:8006\nuser: ansible@pve\n";

test("the plugin's options become pvectl's: connection, prefixes, facts, constructed options", async () => {
  const file = await read(
    `${BASE}token_id: ci\ntoken_secret: "{{ lookup('ansible.builtin.env', 'CI_SECRET') }}"\nvalidate_certs: false\nwant_facts: true\n` +
      "group_prefix: pve_\nfacts_prefix: px_\nexclude_nodes: true\nkeyed_groups:\n  - key: px_tags_parsed\n    prefix: tag\n" +
      "groups:\n  web: \"'web' in px_tags_parsed\"\ncompose:\n  ansible_port: 2222\nstrict: true\n",
    { CI_SECRET: "s3cret" },
  );
  assert.deepEqual(file.connection, {
    host: "pve.example.com",
    protocol: "https",
    port: 8006,
    user: "ansible@pve",
    tokenId: "ci",
    tokenSecret: "s3cret",
    validateCerts: false,
  });
  assert.equal(file.config.groupPrefix, "pve_");
  assert.equal(file.config.factsPrefix, "px_");
  assert.equal(file.config.facts, "plugin");
  assert.equal(file.config.nodesGroup, false, "exclude_nodes: true");
  assert.deepEqual(file.config.keyedGroups, [], "no tag groups of pvectl's own: only what the file says");
  assert.deepEqual(file.config.ansibleHost, []);
  assert.equal(file.config.constructed?.strict, true);
  assert.deepEqual(file.config.constructed?.keyed_groups, [{ key: "px_tags_parsed", prefix: "tag" }]);
});

test("without url, user or credentials in the file the plugin's environment variables are used, password first", async () => {
  const file = await read("plugin: community.proxmox.proxmox\n", {
    PROXMOX_URL: "http://127.0.0.1:8007",
    PROXMOX_USER: "root@pam",
    PROXMOX_PASSWORD: "pw",
    PROXMOX_TOKEN_ID: "ignored",
    PROXMOX_TOKEN_SECRET: "ignored",
  });
  assert.deepEqual(file.connection, { host: "127.0.0.1", protocol: "http", port: 8007, user: "root@pam", password: "pw" });
});

async function refusal(yaml: string): Promise<string> {
  const err = await read(yaml).then(
    () => assert.fail("expected an error"),
    (e: unknown) => e,
  );
  assert.ok(err instanceof InventoryError, String(err));
  return err.userMessage();
}

test("options pvectl cannot honour are errors that name them", async () => {
  assert.match(await refusal(`${BASE}password: x\ncache_plugin: jsonfile\n`), /cache_plugin: is not supported/);
  assert.match(await refusal(`${BASE}password: x\nwant_facs: true\n`), /want_facs: is not an option/);
  assert.match(await refusal(`${BASE}password: x\nuse_extra_vars: true\n`), /use_extra_vars/);
  assert.match(await refusal(`${BASE}password: x\nqemu_extended_statuses: true\n`), /qemu_extended_statuses: needs want_facts/);
  assert.match(await refusal(`${BASE}token_id: ci\n`), /neither a password nor both token_id and token_secret/);
  assert.match(await refusal("plugin: community.general.netbox\n"), /is not the Proxmox inventory plugin/);
  assert.match(await refusal(`${BASE}password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6162\n`), /password: is an Ansible Vault value/);
});

test("an expression outside the subset is refused when the file is read, with the expression and the column", async () => {
  const message = await refusal(`${BASE}password: x\ncompose:\n  ansible_host: proxmox_ipconfig0.ip | ipaddr('address')\n`);
  assert.match(
    message,
    /^compose.ansible_host: cannot evaluate '\{\{proxmox_ipconfig0\.ip \| ipaddr\('address'\)\}\}': the filter 'ipaddr' is not supported at column 26/,
  );
  assert.match(message, /supported: variables/);
  assert.match(await refusal(`${BASE}password: "{{ lookup('file', '/etc/pw') }}"\n`), /lookup\('file'\) is not supported/);
});
