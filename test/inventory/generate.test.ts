// generateInventory: the cache (TTL, refresh), and the loud failures (empty result, refused login).
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { PveClient } from "../../src/api/index.js";
import type { InventoryApi } from "../../src/inventory/collect.js";
import { generateInventory, InventoryError, parseInventoryConfig } from "../../src/inventory/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";

let cacheDir: string;
before(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), "pvectl-inv-cache-"));
});
after(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});

function countingApi(resources: unknown[]): InventoryApi & { calls: number } {
  const api = {
    calls: 0,
    async request() {
      api.calls++;
      return resources;
    },
  };
  return api;
}

const guest = { type: "qemu", vmid: 100, name: "web", node: "pve1", status: "running", template: 0 };

test("within the TTL the cache answers without API calls; after it, or with refresh, the cluster is read again", async () => {
  const api = countingApi([guest]);
  const config = parseInventoryConfig({ cacheTtl: 60, cacheDir }, "test");
  const source = { api, endpoint: "https://pve.example:8006", identity: "ci@pve!inv" };
  const t0 = 1_700_000_000_000;
  await generateInventory(source, config, { now: t0 });
  const cached = await generateInventory(source, config, { now: t0 + 59_000 });
  assert.equal(api.calls, 1, "second run inside the TTL made no call");
  assert.deepEqual(Object.keys(cached._meta.hostvars), ["web"]);
  await generateInventory(source, config, { now: t0 + 61_000 });
  assert.equal(api.calls, 2, "expired cache read the cluster again");
  await generateInventory(source, config, { now: t0 + 62_000, refresh: true });
  assert.equal(api.calls, 3, "refresh ignores the cache");
  await generateInventory({ ...source, identity: "other@pve" }, config, { now: t0 + 62_500 });
  assert.equal(api.calls, 4, "another identity does not share the cache");
});

test("an empty result fails with the reason, unless an empty inventory is allowed", async () => {
  const source = { api: countingApi([]), endpoint: "https://pve.example:8006", identity: "ci@pve!inv" };
  await assert.rejects(
    generateInventory(source, parseInventoryConfig({}, "test")),
    (err: unknown) =>
      err instanceof InventoryError &&
      err.userMessage() ===
        "the inventory is empty: the cluster at https://pve.example:8006 reports no guests visible to ci@pve!inv\n" +
          "  hint: check the filters and that the user or token has VM.Audit on the guests; pass --allow-empty if an empty inventory is expected",
  );
  const filtered = { api: countingApi([guest]), endpoint: "https://pve.example:8006", identity: "ci@pve!inv" };
  await assert.rejects(
    generateInventory(filtered, parseInventoryConfig({ filters: { tags: ["none"] } }, "test")),
    /1 guest\(s\) exist but none passed the filters/,
  );
  const allowed = await generateInventory(source, parseInventoryConfig({ allowEmpty: true }, "test"));
  assert.deepEqual(allowed._meta.hostvars, {});
});

test("hypervisors in the nodes group do not make an inventory without guests look full", async () => {
  // The same entry answers /cluster/resources (a node) and /cluster/status (its address).
  const node = { type: "node", node: "pve1", name: "pve1", ip: "10.0.0.11", status: "online" };
  const source = { api: countingApi([node]), endpoint: "https://pve.example:8006", identity: "ci@pve!inv" };
  const config = parseInventoryConfig({ nodesGroup: true, nodesAnsibleHost: true }, "test");
  await assert.rejects(
    generateInventory(source, config),
    /the inventory is empty: the cluster at https:\/\/pve.example:8006 reports no guests/,
  );
  const allowed = await generateInventory(source, { ...config, allowEmpty: true });
  assert.deepEqual(allowed._meta.hostvars, { pve1: { ansible_host: "10.0.0.11" } });
});

test("a refused login fails the inventory with PVE's answer, naming the user", async (t) => {
  const sim: RunningSimulator = await startSimulator({ port: 0, https: false });
  t.after(() => sim.close());
  const client = new PveClient({ host: "127.0.0.1", port: sim.port, protocol: "http", user: "root@pam", password: "s3cr3t-Pa55" });
  try {
    await assert.rejects(
      generateInventory({ api: client, endpoint: client.origin, identity: client.identity }, parseInventoryConfig({}, "test")),
      (err: unknown) => {
        const text = (err as { userMessage(): string }).userMessage();
        assert.match(text, /root@pam/);
        assert.match(text, /authentication failure|password/i);
        assert.doesNotMatch(text, /s3cr3t-Pa55/, "the password is never shown");
        return true;
      },
    );
  } finally {
    await client.close();
  }
});
