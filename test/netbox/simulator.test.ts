// The NetBox simulator on the wire: auth, pagination, filters, validation and error shapes,
// MAC objects, virtual disks, primary IPs, available-ips, bulk writes, If-Match.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type NetboxSimulator, startNetboxSimulator } from "../../src/netbox/sim/index.js";
import { call, obj, results } from "../support/netbox-http.js";

const VMS = "/api/virtualization/virtual-machines/";

describe("NetBox simulator (4.6, demo data)", () => {
  let nb: NetboxSimulator;
  before(async () => {
    nb = await startNetboxSimulator({ seed: "demo", readOnlyTokens: ["0123456789abcdef0123456789abcdef01234567"] });
  });
  after(() => nb.close());

  test("auth: no token, unknown token, read-only token, v2 bearer token", async () => {
    const anon = await fetch(`${nb.url}${VMS}`);
    assert.equal(anon.status, 403);
    assert.deepEqual(await anon.json(), { detail: "Authentication credentials were not provided." });
    const wrong = await call(nb, "GET", VMS, undefined, { Authorization: `Token ${"f".repeat(40)}` });
    assert.equal(wrong.status, 403);
    assert.deepEqual(wrong.body, { detail: "Invalid token" });
    const ro = { Authorization: "Token 0123456789abcdef0123456789abcdef01234567" };
    assert.equal((await call(nb, "GET", VMS, undefined, ro)).status, 200);
    const roWrite = await call(nb, "PATCH", `${VMS}1/`, { status: "staged" }, ro);
    assert.equal(roWrite.status, 403);
    assert.deepEqual(roWrite.body, { detail: "You do not have permission to perform this action." });
    const v2 = await call(nb, "GET", `${VMS}1/`, undefined, { Authorization: `Bearer ${nb.v2Token}` });
    assert.equal(v2.status, 200);
    assert.equal(obj(v2.body).name, "web-01");
  });

  test("pagination: count, next/previous links, limit=0 means the maximum page", async () => {
    const first = await call(nb, "GET", `${VMS}?limit=2`);
    const page = obj(first.body);
    assert.equal(page.count, 3);
    assert.equal(page.previous, null);
    assert.equal(page.next, `${nb.url}${VMS}?limit=2&offset=2`);
    const second = obj((await call(nb, "GET", `${VMS}?limit=2&offset=2`)).body);
    assert.equal(second.next, null);
    assert.equal(second.previous, `${nb.url}${VMS}?limit=2`);
    assert.equal(results(second).length, 1);
    assert.equal(results((await call(nb, "GET", `${VMS}?limit=0`)).body).length, 3);
    const brief = results((await call(nb, "GET", `${VMS}?brief=1&limit=1`)).body)[0];
    assert.deepEqual(Object.keys(brief ?? {}).sort(), ["description", "display", "id", "name", "url"]);
  });

  test("filters: repeated values OR, parameters AND, by name/slug/id, tags, q, custom fields", async () => {
    const names = async (query: string) => results((await call(nb, "GET", `${VMS}?${query}`)).body).map((v) => v.name);
    assert.deepEqual(await names("status=planned&tag=db"), ["db-01"]);
    assert.deepEqual(await names("name=web-01&name=db-01"), ["db-01", "web-01"]);
    assert.deepEqual(await names("cluster=pve-lab&platform=debian-13"), ["web-01", "web-02"]);
    assert.deepEqual(await names("q=WEB"), ["web-01", "web-02"]);
    assert.deepEqual(await names("name__n=web-01&site=lab"), ["db-01", "web-02"]);
    assert.deepEqual(await names("cf_proxmox_vmid=null"), ["db-01", "web-01", "web-02"]);
    const bad = await call(nb, "GET", `${VMS}?status=bogus`);
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { status: ["Select a valid choice. bogus is not one of the available choices."] });
    const noCluster = await call(nb, "GET", `${VMS}?cluster_id=999`);
    assert.deepEqual(noCluster.body, { cluster_id: ["Select a valid choice. 999 is not one of the available choices."] });
    const ifaces = results((await call(nb, "GET", "/api/virtualization/interfaces/?virtual_machine=db-01")).body);
    assert.deepEqual(
      ifaces.map((i) => i.name),
      ["eth0", "eth1"],
    );
  });

  test("validation: DRF field messages, related objects, unique names, custom fields", async () => {
    const bad = await call(nb, "POST", VMS, { name: "x".repeat(65), status: "running", cluster: 42, vcpus: 0, memory: -1 });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, {
      name: ["Ensure this field has no more than 64 characters."],
      status: ['"running" is not a valid choice.'],
      cluster: ["Related object not found using the provided numeric ID: 42"],
      vcpus: ["Ensure this value is greater than or equal to 0.01."],
      memory: ["Ensure this value is greater than or equal to 0."],
    });
    assert.deepEqual((await call(nb, "POST", VMS, { status: "planned" })).body, {
      name: ["This field is required."],
    });
    assert.deepEqual((await call(nb, "POST", VMS, { name: "lonely" })).body, {
      cluster: ["A virtual machine must be assigned to a site and/or cluster."],
    });
    assert.deepEqual((await call(nb, "POST", VMS, { name: "web-01", cluster: { name: "pve-lab" } })).body, {
      __all__: ["Virtual machine name must be unique per cluster."],
    });
    assert.deepEqual((await call(nb, "PATCH", `${VMS}1/`, { custom_fields: { vmid: 1 } })).body, {
      __all__: ["Unknown field name 'vmid' in custom field data."],
    });
    assert.deepEqual((await call(nb, "POST", VMS, { name: "n", cluster: { name: "nope" } })).body, {
      cluster: ["Related object not found using the provided attributes: {'name': 'nope'}"],
    });
  });

  test("404 and 409 shapes: missing object, protected cluster", async () => {
    const missing = await call(nb, "GET", `${VMS}9999/`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { detail: "Not found." });
    const protectedDelete = await call(nb, "DELETE", "/api/virtualization/clusters/1/");
    assert.equal(protectedDelete.status, 409);
    assert.match(String(obj(protectedDelete.body).detail), /^Unable to delete object\. 3 dependent objects were found: /);
  });

  test("virtual disks: VM disk is their sum; a conflicting disk value is refused", async () => {
    const db = obj((await call(nb, "GET", `${VMS}3/`)).body);
    assert.equal(db.disk, 132000);
    assert.equal(db.virtual_disk_count, 2);
    const clash = await call(nb, "PATCH", `${VMS}3/`, { disk: 5 });
    assert.deepEqual(clash.body, {
      disk: ["The specified disk size (5) must match the aggregate size of assigned virtual disks (132000)."],
    });
  });

  test("MAC objects (4.2+): interface mac_address is read-only; primary MAC must be on the interface", async () => {
    const ignored = await call(nb, "PATCH", "/api/virtualization/interfaces/1/", { mac_address: "BC:24:11:00:00:01" });
    assert.equal(ignored.status, 200);
    assert.equal(obj(ignored.body).mac_address, null);
    const mac = obj(
      (
        await call(nb, "POST", "/api/dcim/mac-addresses/", {
          mac_address: "bc-24-11-aa-bb-cc",
          assigned_object_type: "virtualization.vminterface",
          assigned_object_id: 2,
        })
      ).body,
    );
    assert.equal(mac.mac_address, "BC:24:11:AA:BB:CC");
    // A content type is a bare "app.model" string in NetBox's OpenAPI, not a {value, label} choice.
    assert.equal(mac.assigned_object_type, "virtualization.vminterface");
    const wrongIface = await call(nb, "PATCH", "/api/virtualization/interfaces/1/", { primary_mac_address: mac.id });
    assert.deepEqual(wrongIface.body, { primary_mac_address: ["MAC address BC:24:11:AA:BB:CC is not assigned to this interface."] });
    const ok = obj((await call(nb, "PATCH", "/api/virtualization/interfaces/2/", { primary_mac_address: mac.id })).body);
    assert.equal(ok.mac_address, "BC:24:11:AA:BB:CC");
    const moved = await call(nb, "PATCH", `/api/dcim/mac-addresses/${String(mac.id)}/`, { assigned_object_id: 1 });
    assert.equal(moved.status, 400);
    assert.deepEqual(
      results((await call(nb, "GET", `${VMS}?mac_address=bc:24:11:aa:bb:cc`)).body).map((v) => v.name),
      ["web-02"],
    );
  });

  test("available-ips: next free address, atomic allocation, 409 when the prefix is full", async () => {
    const small = obj((await call(nb, "POST", "/api/ipam/prefixes/", { prefix: "192.0.2.5/30" })).body);
    assert.equal(small.prefix, "192.0.2.4/30");
    const path = `/api/ipam/prefixes/${String(small.id)}/available-ips/`;
    const free = (await call(nb, "GET", path)).body as { address: string }[];
    assert.deepEqual(
      free.map((f) => f.address),
      ["192.0.2.5/30", "192.0.2.6/30"],
    );
    const one = await call(nb, "POST", path, {
      description: "first",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: 1,
    });
    assert.equal(one.status, 201);
    assert.equal(obj(one.body).address, "192.0.2.5/30");
    assert.equal(obj(one.body).assigned_object_type, "virtualization.vminterface");
    const tooMany = await call(nb, "POST", path, [{}, {}]);
    assert.equal(tooMany.status, 409);
    assert.deepEqual(tooMany.body, { detail: "Insufficient resources are available to satisfy the request" });
    assert.equal(((await call(nb, "POST", path, [{}])).body as unknown[]).length, 1);
    assert.equal((await call(nb, "POST", path, {})).status, 409);
  });

  test("primary_ip4 must be an address assigned to one of the VM's interfaces", async () => {
    const ip = obj((await call(nb, "POST", "/api/ipam/ip-addresses/", { address: "10.99.0.1/24" })).body);
    const refused = await call(nb, "PATCH", `${VMS}1/`, { primary_ip4: ip.id });
    assert.deepEqual(refused.body, { primary_ip4: ["The specified IP address (10.99.0.1/24) is not assigned to this VM."] });
    await call(nb, "PATCH", `/api/ipam/ip-addresses/${String(ip.id)}/`, {
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: 1,
    });
    const ok = obj((await call(nb, "PATCH", `${VMS}1/`, { primary_ip4: ip.id })).body);
    assert.equal(obj(ok.primary_ip4).address, "10.99.0.1/24");
  });

  test("bulk create is all-or-none with per-item errors", async () => {
    const before = obj((await call(nb, "GET", `${VMS}?limit=1`)).body).count;
    const res = await call(nb, "POST", VMS, [
      { name: "bulk-a", cluster: 1 },
      { name: "bulk-b", cluster: 77 },
    ]);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, [{}, { cluster: ["Related object not found using the provided numeric ID: 77"] }]);
    assert.equal(obj((await call(nb, "GET", `${VMS}?limit=1`)).body).count, before);
  });

  test("interface mode governs VLANs: no mode drops the untagged VLAN, non-tagged drops tagged VLANs", async () => {
    const iface = obj((await call(nb, "PATCH", "/api/virtualization/interfaces/4/", { mode: "access" })).body);
    assert.deepEqual(iface.tagged_vlans, []);
    assert.equal(obj(iface.untagged_vlan).vid, 20);
    const cleared = obj((await call(nb, "PATCH", "/api/virtualization/interfaces/4/", { mode: null })).body);
    assert.equal(cleared.untagged_vlan, null);
  });

  test("ETag and If-Match (4.6): a stale ETag gets 412", async () => {
    const got = await call(nb, "GET", `${VMS}2/`);
    const etag = got.headers.get("etag") ?? "";
    assert.match(etag, /^W\/"/);
    assert.equal((await call(nb, "PATCH", `${VMS}2/`, { comments: "one" }, { "If-Match": etag })).status, 200);
    const stale = await call(nb, "PATCH", `${VMS}2/`, { comments: "two" }, { "If-Match": etag });
    assert.equal(stale.status, 412);
    assert.deepEqual(stale.body, { detail: "Precondition failed." });
    assert.equal(obj((await call(nb, "GET", `${VMS}2/`)).body).comments, "one");
  });

  test("ETag as NetBox 4.6 makes it: isoformat of last_updated, current one on a 412, a list in If-Match, on a create", async () => {
    const got = await call(nb, "GET", `${VMS}2/`);
    const etag = got.headers.get("etag") ?? "";
    // Python's isoformat(), not the API's `Z`.
    assert.match(etag, /^W\/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00"$/);
    const stale = await call(nb, "PATCH", `${VMS}2/`, { comments: "x" }, { "If-Match": 'W/"2000-01-01T00:00:00+00:00"' });
    assert.equal(stale.status, 412);
    assert.equal(stale.headers.get("etag"), etag);
    const listed = await call(nb, "PATCH", `${VMS}2/`, { comments: "y" }, { "If-Match": `W/"2000-01-01T00:00:00+00:00", ${etag}` });
    assert.equal(listed.status, 200);
    assert.notEqual(listed.headers.get("etag"), etag);
    const created = await call(nb, "POST", "/api/extras/tags/", { name: "etag-test", slug: "etag-test" });
    assert.equal(created.status, 201);
    assert.match(created.headers.get("etag") ?? "", /^W\/"/);
  });

  test("deleting a VM removes its interfaces, disks, MACs and IPs", async () => {
    const vm = nb.admin.create("virtualization/virtual-machines", { name: "gone", cluster: 1 });
    const iface = nb.admin.create("virtualization/interfaces", { virtual_machine: vm.id, name: "eth0" });
    nb.admin.create("dcim/mac-addresses", {
      mac_address: "02:00:00:00:00:99",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: iface.id,
    });
    nb.admin.create("virtualization/virtual-disks", { virtual_machine: vm.id, name: "d", size: 1 });
    assert.equal((await call(nb, "DELETE", `${VMS}${String(vm.id)}/`)).status, 204);
    assert.equal(nb.admin.get("virtualization/interfaces", Number(iface.id)), undefined);
    assert.equal(nb.admin.list("dcim/mac-addresses", { mac_address: "02:00:00:00:00:99" }).length, 0);
  });
});

describe("NetBox simulator version gates", () => {
  test("4.1: no MAC objects, interface mac_address is writable, no v2 tokens, no ETag", async () => {
    const nb = await startNetboxSimulator({ version: "4.1.11", seed: "demo" });
    try {
      assert.equal((await call(nb, "GET", "/api/dcim/mac-addresses/")).status, 404);
      const iface = obj((await call(nb, "PATCH", "/api/virtualization/interfaces/1/", { mac_address: "bc:24:11:01:02:03" })).body);
      assert.equal(iface.mac_address, "BC:24:11:01:02:03");
      assert.equal("primary_mac_address" in iface, false);
      const v2 = await call(nb, "GET", VMS, undefined, { Authorization: `Bearer ${nb.v2Token}` });
      assert.equal(v2.status, 403);
      assert.equal((await call(nb, "GET", `${VMS}1/`)).headers.get("etag"), null);
      assert.equal(obj((await call(nb, "GET", "/api/status/")).body)["netbox-version"], "4.1.11");
    } finally {
      await nb.close();
    }
  });
});
