// Security groups, SDN zones/vnets/subnets with pending state until PUT /cluster/sdn, and
// query-url-metadata, through the real handlers (schema-validated parameters).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadClusterModel } from "../../src/sim/cluster/index.js";
import { simulatedUrlSize } from "../../src/sim/handlers/url-metadata.js";
import { Harness, rejects } from "./guests-harness.js";

type Entry = Record<string, unknown>;
const bad = "Parameter verification failed.";

describe("security groups (/cluster/firewall/groups)", () => {
  it("creates, lists sorted with a digest, renames, and refuses duplicates", async () => {
    const h = new Harness();
    assert.deepEqual(await h.call("GET", "/cluster/firewall/groups"), []);
    await h.call("POST", "/cluster/firewall/groups", { group: "web", comment: "http" });
    await h.call("POST", "/cluster/firewall/groups", { group: "db" });
    await rejects(h.call("POST", "/cluster/firewall/groups", { group: "web" }), 400, bad, { group: "Security group 'web' already exists" });
    const list = (await h.call("GET", "/cluster/firewall/groups")) as Entry[];
    assert.deepEqual(
      list.map((g) => [g.group, g.comment]),
      [
        ["db", undefined],
        ["web", "http"],
      ],
    );
    assert.match(String(list[0]?.digest), /^[0-9a-f]{40}$/);
    assert.equal(list[0]?.digest, list[1]?.digest);
    await h.call("POST", "/cluster/firewall/groups", { group: "www", rename: "web" });
    await rejects(h.call("POST", "/cluster/firewall/groups", { group: "x1", rename: "nope" }), 400, bad, {
      group: "Security group 'nope' does not exists",
    });
    await rejects(h.call("POST", "/cluster/firewall/groups", { group: "db", rename: "www" }), 400, bad, {
      group: "Security group 'db' does already exist",
    });
    assert.deepEqual(
      ((await h.call("GET", "/cluster/firewall/groups")) as Entry[]).map((g) => [g.group, g.comment]),
      [
        ["db", undefined],
        ["www", "http"],
      ],
    );
  });

  it("keeps rules in order: new ones first unless pos, moveto, update, delete; a group with rules is not deleted", async () => {
    const h = new Harness();
    await h.call("POST", "/cluster/firewall/groups", { group: "web" });
    await h.call("POST", "/cluster/firewall/groups/web", { type: "in", action: "ACCEPT", proto: "tcp", dport: "80", enable: 1 });
    await h.call("POST", "/cluster/firewall/groups/web", { type: "in", action: "ACCEPT", proto: "tcp", dport: "443" });
    await h.call("POST", "/cluster/firewall/groups/web", { type: "out", action: "DROP", pos: 9 });
    let rules = (await h.call("GET", "/cluster/firewall/groups/web")) as Entry[];
    assert.deepEqual(
      rules.map((r) => [r.pos, r.type, r.dport, r.enable]),
      [
        [0, "in", "443", 0],
        [1, "in", "80", 1],
        [2, "out", undefined, 0],
      ],
    );
    await h.call("PUT", "/cluster/firewall/groups/web/2", { moveto: 0 });
    await h.call("PUT", "/cluster/firewall/groups/web/1", { comment: "tls", delete: "proto" });
    rules = (await h.call("GET", "/cluster/firewall/groups/web")) as Entry[];
    assert.deepEqual(
      rules.map((r) => [r.type, r.dport, r.proto, r.comment]),
      [
        ["out", undefined, undefined, undefined],
        ["in", "443", undefined, "tls"],
        ["in", "80", "tcp", undefined],
      ],
    );
    assert.equal(((await h.call("GET", "/cluster/firewall/groups/web/2")) as Entry).dport, "80");
    await rejects(h.call("GET", "/cluster/firewall/groups/web/3"), 500, "no rule at position 3");
    await rejects(h.call("POST", "/cluster/firewall/groups/web", { type: "group", action: "other" }), 400, bad, {
      type: "security groups not allowed",
    });
    await rejects(h.call("POST", "/cluster/firewall/groups/web", { type: "in", action: "PERMIT" }), 400, bad, {
      action: "unknown action 'PERMIT'",
    });
    await rejects(h.call("DELETE", "/cluster/firewall/groups/web"), 500, "Security group 'web' is not empty");
    for (let i = 0; i < 3; i++) await h.call("DELETE", "/cluster/firewall/groups/web/0");
    await h.call("DELETE", "/cluster/firewall/groups/web");
    await rejects(h.call("GET", "/cluster/firewall/groups/web"), 500, "no such security group 'web'");
  });
});

describe("SDN zones, vnets and subnets", () => {
  async function setup(): Promise<Harness> {
    const h = new Harness();
    await h.call("POST", "/cluster/sdn/zones", { zone: "lab", type: "simple", nodes: "pve1" });
    await h.call("POST", "/cluster/sdn/vnets", { vnet: "labnet", zone: "lab", alias: "lab net" });
    return h;
  }

  it("lists edits at once, keeps them pending until PUT /cluster/sdn applies them", async () => {
    const h = await setup();
    assert.deepEqual(await h.call("GET", "/cluster/sdn/zones/lab", {}), {
      zone: "lab",
      type: "simple",
      nodes: "pve1",
      digest: ((await h.call("GET", "/cluster/sdn/zones")) as Entry[])[0]?.digest,
    });
    assert.deepEqual(await h.call("GET", "/cluster/sdn/vnets", { running: 1 }), []);
    const pending = (await h.call("GET", "/cluster/sdn/vnets", { pending: 1 })) as Entry[];
    assert.deepEqual(
      pending.map(({ digest: _, ...v }) => v),
      [{ vnet: "labnet", type: "vnet", state: "new", pending: { zone: "lab", alias: "lab net" } }],
    );

    const upid = await h.ok("PUT", "/cluster/sdn");
    assert.match(upid, /:reloadnetworkall::root@pam:$/);
    assert.deepEqual(
      ((await h.call("GET", "/cluster/sdn/vnets", { running: 1 })) as Entry[]).map((v) => v.vnet),
      ["labnet"],
    );
    const applied = (await h.call("GET", "/cluster/sdn/vnets", { pending: 1 })) as Entry[];
    assert.equal(applied[0]?.state, undefined);
    assert.equal(applied[0]?.pending, undefined);

    await h.call("PUT", "/cluster/sdn/vnets/labnet", { delete: "alias", tag: 10 });
    const changed = (await h.call("GET", "/cluster/sdn/vnets/labnet", { pending: 1 })) as Entry;
    assert.equal(changed.state, "changed");
    assert.deepEqual(changed.pending, { alias: "deleted", tag: 10 });
    assert.equal(changed.alias, "lab net", "the running value stays at the top level");
    await h.call("DELETE", "/cluster/sdn/vnets/labnet");
    assert.equal(((await h.call("GET", "/cluster/sdn/vnets", { pending: 1 })) as Entry[])[0]?.state, "deleted");
    assert.deepEqual(await h.call("GET", "/cluster/sdn/vnets"), []);
  });

  it("checks zones and vnets the way pve-network does", async () => {
    const h = await setup();
    await rejects(
      h.call("POST", "/cluster/sdn/zones", { zone: "lab", type: "simple" }),
      500,
      "create sdn zone object failed: sdn zone object ID 'lab' already defined",
    );
    await rejects(h.call("POST", "/cluster/sdn/zones", { zone: "v1", type: "vlan" }), 400, bad, {
      bridge: "property is missing and it is not optional",
    });
    await rejects(h.call("DELETE", "/cluster/sdn/zones/lab"), 500, "delete sdn zone object failed: zone lab is used by vnet labnet");
    await rejects(h.call("GET", "/cluster/sdn/zones/nope"), 500, "sdn 'nope' does not exist");
    await rejects(h.call("GET", "/cluster/sdn/vnets/nope"), 500, "sdn vnet 'nope' does not exist");
    await rejects(
      h.call("POST", "/cluster/sdn/vnets", { vnet: "labnet", zone: "lab" }),
      500,
      "create sdn vnet object failed: sdn vnet object ID 'labnet' already defined",
    );
    assert.deepEqual(((await h.call("GET", "/cluster/sdn/zones", { type: "vlan" })) as Entry[]).length, 0);
  });

  it("names subnets <zone>-<network>-<mask> and derives cidr, network, mask", async () => {
    const h = await setup();
    await h.call("POST", "/cluster/sdn/vnets/labnet/subnets", { subnet: "10.20.0.0/24", type: "subnet", gateway: "10.20.0.1", snat: 1 });
    const [subnet] = (await h.call("GET", "/cluster/sdn/vnets/labnet/subnets")) as Entry[];
    assert.equal(subnet?.subnet, "lab-10.20.0.0-24");
    assert.deepEqual(
      [subnet?.cidr, subnet?.network, subnet?.mask, subnet?.zone, subnet?.vnet, subnet?.gateway],
      ["10.20.0.0/24", "10.20.0.0", "24", "lab", "labnet", "10.20.0.1"],
    );
    assert.equal(((await h.call("GET", "/cluster/sdn/vnets/labnet/subnets/lab-10.20.0.0-24")) as Entry).gateway, "10.20.0.1");
    await rejects(
      h.call("POST", "/cluster/sdn/vnets/labnet/subnets", { subnet: "10.20.0.0/24", type: "subnet" }),
      500,
      "create sdn subnet object failed: sdn subnet object ID 'lab-10.20.0.0-24' already defined",
    );
    await rejects(h.call("DELETE", "/cluster/sdn/vnets/labnet"), 400, bad, { vnet: "Can't delete vnet if subnets exists" });
    await h.call("DELETE", "/cluster/sdn/vnets/labnet/subnets/lab-10.20.0.0-24");
    assert.deepEqual(await h.call("GET", "/cluster/sdn/vnets/labnet/subnets"), []);
  });

  it("an applied vnet is a bridge guests on its zone's nodes can start on", async () => {
    const h = await setup();
    await h.createVm(100, { net0: "virtio,bridge=labnet" });
    const before = await h.call("POST", "/nodes/pve1/qemu/100/status/start");
    assert.equal(h.task(before).exitstatus, "bridge 'labnet' does not exist");
    await h.ok("PUT", "/cluster/sdn");
    await h.ok("POST", "/nodes/pve1/qemu/100/status/start");
    // the zone is limited to pve1
    await h.createVm(101, { net0: "virtio,bridge=labnet" }, "pve2");
    const elsewhere = await h.call("POST", "/nodes/pve2/qemu/101/status/start");
    assert.equal(h.task(elsewhere).exitstatus, "bridge 'labnet' does not exist");
  });

  it("SDN.Use is checked on the vnet's zone once the vnet is applied (check_sdn_bridge)", async () => {
    const h = await setup();
    h.userid = "netops@pve"; // root@pam skips the option checks
    h.denied.add("/sdn/zones/lab/labnet SDN.Use");
    await h.createVm(100, { net0: "virtio,bridge=labnet" }); // not applied yet: localnetwork
    h.userid = "root@pam";
    await h.ok("PUT", "/cluster/sdn");
    h.userid = "netops@pve";
    await rejects(
      h.call("POST", "/nodes/pve1/qemu", { vmid: 101, net0: "virtio,bridge=labnet" }),
      403,
      "Permission check failed (/sdn/zones/lab/labnet, SDN.Use)",
    );
  });
});

describe("network configuration in --state files", () => {
  it("security groups and SDN (edited and running) survive a save and load", async () => {
    const h = new Harness();
    await h.call("POST", "/cluster/firewall/groups", { group: "web" });
    await h.call("POST", "/cluster/sdn/zones", { zone: "lab", type: "simple" });
    await h.ok("PUT", "/cluster/sdn");
    const saved = JSON.parse(JSON.stringify(h.model.toJSON())) as unknown;
    const loaded = loadClusterModel(saved, { random: { next: () => 0.5, hex: () => "00" }, now: () => 0 });
    assert.deepEqual(
      loaded.state.firewallGroups?.map((g) => g.group),
      ["web"],
    );
    assert.deepEqual(Object.keys(loaded.state.sdn?.running?.zones ?? {}), ["lab"]);
  });
});

describe("query-url-metadata", () => {
  it("answers file name, size and type from the URL alone, the size download-url stores", async () => {
    const h = new Harness();
    const url = "https://cdimage.example.org/debian-13.1.0-amd64-netinst.iso?mirror=1";
    assert.deepEqual(await h.call("GET", "/nodes/pve1/query-url-metadata", { url }), {
      filename: "debian-13.1.0-amd64-netinst.iso",
      size: simulatedUrlSize(url),
      mimetype: "application/x-iso9660-image",
    });
    await h.ok("POST", "/nodes/pve1/storage/local/download-url", { url, content: "iso", filename: "netinst.iso" });
    const content = (await h.call("GET", "/nodes/pve1/storage/local/content", { content: "iso" })) as Entry[];
    assert.equal(content.find((v) => v.volid === "local:iso/netinst.iso")?.size, simulatedUrlSize(url));
    const dir = (await h.call("GET", "/nodes/pve1/query-url-metadata", { url: "http://mirror.example.org/images/" })) as Entry;
    assert.equal(dir.filename, undefined);
    assert.equal(dir.mimetype, "text/html");
    await rejects(
      h.call("GET", "/nodes/pve1/query-url-metadata", { url: "https://down.invalid/x.iso" }),
      500,
      "invalid server response: '500 Can't connect to down.invalid:443 (Name or service not known)'",
    );
  });
});
