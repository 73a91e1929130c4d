// What the NetBox simulator serves for clients that read all of NetBox (netbox.netbox's
// inventory plugin): its OpenAPI document at /api/schema/, the collections it does not model
// (empty lists), and sites' related-object counts.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type NetboxSimulator, startNetboxSimulator } from "../../src/netbox/sim/index.js";
import { call, obj, results } from "../support/netbox-http.js";

let nb: NetboxSimulator;
before(async () => {
  nb = await startNetboxSimulator({ seed: "demo" });
});
after(() => nb.close());

const VMS = "/api/virtualization/virtual-machines/";

async function schema(): Promise<{ info: { version: string }; paths: Record<string, { get: { parameters: { name: string }[] } }> }> {
  const res = await call(nb, "GET", "/api/schema/?format=json");
  assert.equal(res.status, 200);
  return res.body as Awaited<ReturnType<typeof schema>>;
}

test("/api/schema/ names the version and a path for devices and VMs, as the inventory plugin reads them", async () => {
  const doc = await schema();
  assert.equal(doc.info.version, "4.6.8 (4.6)");
  for (const path of ["/api/dcim/devices/", VMS]) assert.ok(doc.paths[path]?.get.parameters.length, path);
  const yaml = await fetch(`${nb.url}/api/schema/`, { headers: { Authorization: `Token ${nb.token}` } });
  assert.match(yaml.headers.get("content-type") ?? "", /openapi/);
  assert.match(await yaml.text(), /^openapi: 3\.0\.3/m);
});

test("every VM filter the schema lists really filters (a value matching nothing never returns every VM)", async () => {
  const names = (await schema()).paths[VMS]?.get.parameters.map((p) => p.name) ?? [];
  const all = results((await call(nb, "GET", VMS)).body).length;
  const bases = names.filter((n) => !n.includes("__") && !["limit", "offset", "ordering"].includes(n));
  assert.ok(bases.includes("cluster") && bases.includes("status") && bases.includes("tag"));
  for (const name of bases) {
    const res = await call(nb, "GET", `${VMS}?${name}=zzz-matches-nothing`);
    assert.ok(res.status === 400 || results(res.body).length < all, `${name} is listed but ignored`);
  }
});

test("collections the simulator does not model are empty lists; writes to them are refused", async () => {
  for (const path of ["dcim/devices", "dcim/regions", "tenancy/tenants", "ipam/services", "dcim/racks"]) {
    const res = await call(nb, "GET", `/api/${path}/?limit=0`);
    assert.equal(res.status, 200, path);
    assert.deepEqual(res.body, { count: 0, next: null, previous: null, results: [] });
  }
  assert.equal((await call(nb, "GET", "/api/dcim/devices/1/")).status, 404);
  const write = await call(nb, "POST", "/api/dcim/devices/", { name: "sw1" });
  assert.equal(write.status, 405);
  assert.match(String(obj(write.body).detail), /does not model dcim\/devices/);
});

test("sites carry NetBox's related-object counts", async () => {
  const site = results((await call(nb, "GET", "/api/dcim/sites/")).body)[0] ?? {};
  assert.equal(site.virtualmachine_count, 3);
  assert.equal(site.vlan_count, 2);
  for (const k of ["prefix_count", "device_count", "rack_count", "circuit_count"]) assert.equal(site[k], 0, k);
});
