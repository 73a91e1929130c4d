// writeBack.primaryIp4 never hands a guest its gateway: with the prefix's default gateway (its
// first address) and no router recorded in NetBox, the first guest used to get 10.20.0.1 with
// gw=10.20.0.1 and every later guest routed through it. Allocation skips the gateway (the
// prefix's custom field, else its first address, and a platform's gw), NetBox's network and
// broadcast addresses and every address NetBox holds (`reserved` ones too); a record whose
// address is its gateway is refused, naming the address and where the gateway came from.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import fc from "fast-check";
import { WriteBack } from "../../src/app/netbox/writeback.js";
import { parseNetboxConfig } from "../../src/sources/netbox/config.js";
import { loadRecords } from "../../src/sources/netbox/records.js";
import { CLOUD_INIT_CONFIG, DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";
const CLOUD_INIT = CLOUD_INIT_CONFIG;

/** Every record's primary IPv4 host address, by name. */
function primaries(lab: NetboxLab): Map<string, string> {
  const out = new Map<string, string>();
  for (const vm of lab.nb.admin.list(VMS)) if (vm.primary_ip4) out.set(String(vm.name), String(obj(vm.primary_ip4).address).split("/")[0]!);
  return out;
}

describe("netbox: a guest never gets its gateway's address", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("with the prefix's default gateway and no router in NetBox, no record gets 10.20.0.1; the built guest routes via it", async () => {
    assert.notEqual(CLOUD_INIT, DEMO_CONFIG);
    lab = await startNetboxLab(CLOUD_INIT);
    // A reserved address is NetBox's to keep: it is not handed out either.
    lab.nb.admin.create("ipam/ip-addresses", { address: "10.20.0.2/24", status: "reserved", description: "printer" });
    const preview = await lab.sync({ planOnly: true });
    assert.match(
      JSON.stringify(preview.plans),
      /"ipconfig0":"gw=10\.20\.0\.1,ip=10\.20\.0\.3\/24"/,
      "plan only shows the address sync takes",
    );
    const report = await lab.sync();
    assert.equal(report.ok, true, JSON.stringify(report.records));
    const taken = primaries(lab);
    assert.equal(taken.size, 3, JSON.stringify([...taken]));
    for (const [name, address] of taken) {
      assert.notEqual(address, "10.20.0.1", `${name} got the gateway`);
      assert.notEqual(address, "10.20.0.2", `${name} got a reserved address`);
    }
    assert.equal(new Set(taken.values()).size, 3, "no address twice");
    const db = report.records.find((r) => r.name === "db-01")!;
    const config = (await lab.pve.request("GET", `/nodes/pve1/qemu/${db.vmid}/config`)) as Record<string, unknown>;
    assert.equal(config.ipconfig0, `gw=10.20.0.1,ip=${taken.get("db-01")}/24`);
  });

  test("a prefix's gateway custom field moves the gateway: its first address is a guest's, the gateway is nobody's", async () => {
    lab = await startNetboxLab(CLOUD_INIT.replace("prefix: 10.20.0.0/24", "prefix: 10.20.0.0/30"));
    const prefixId = lab.nb.admin.idOf("ipam/prefixes", { prefix: "10.20.0.0/24" });
    lab.nb.admin.update("ipam/prefixes", prefixId, { prefix: "10.20.0.0/30", custom_fields: { gateway: "10.20.0.2" } });
    const report = await lab.sync();
    const taken = primaries(lab);
    // A /30 has two usable addresses, .1 and .2; .2 is the gateway, so one record gets .1 and the others find the prefix full.
    assert.deepEqual([...taken.values()], ["10.20.0.1"], JSON.stringify([...taken]));
    const full = report.records.filter((r) => r.result === "failed");
    assert.equal(full.length, 2, JSON.stringify(report.records));
    for (const r of full)
      assert.match(
        r.errors.join("; "),
        /prefix 10\.20\.0\.0\/30 has no free address left .* other than 10\.20\.0\.2 \(the gateway: the custom field gateway of prefix 10\.20\.0\.0\/30\)/,
      );
  });

  test("a record whose address is its gateway is refused, naming the address and where the gateway came from", async () => {
    lab = await startNetboxLab(CLOUD_INIT);
    const db = lab.nb.admin.list(VMS, { name: "db-01" })[0]!;
    const eth0 = lab.nb.admin.list("virtualization/interfaces", { virtual_machine_id: String(db.id), name: "eth0" })[0]!;
    const ip = lab.nb.admin.create("ipam/ip-addresses", {
      address: "10.20.0.1/24",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: eth0.id,
    });
    lab.nb.admin.update(VMS, Number(db.id), { primary_ip4: ip.id });
    const report = await lab.sync({ selection: { names: ["db-01"] } });
    const outcome = report.records[0]!;
    assert.equal(outcome.result, "invalid", JSON.stringify(outcome));
    assert.match(
      outcome.errors.join("; "),
      /interface eth0: its IPv4 10\.20\.0\.1\/24 is its own gateway \(10\.20\.0\.1, the custom field gateway of prefix 10\.20\.0\.0\/24\)/,
    );
    assert.deepEqual(await lab.pveGuests(), new Map(), "nothing built");
  });

  test("property: allocated addresses are never the network, broadcast, gateway or an address NetBox holds", async () => {
    lab = await startNetboxLab(CLOUD_INIT);
    const config = parseNetboxConfig(DEMO_CONFIG, "netbox.yaml");
    const record = (await loadRecords(lab.netbox, { names: ["db-01"] }))[0]!;
    const eth0 = record.interfaces[0]!;
    // eth0 without a VLAN takes the fallback prefix, the one under test.
    lab.nb.admin.update("virtualization/interfaces", eth0.id, { mode: null });
    delete eth0.mode;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 27, max: 30 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 31 }), { maxLength: 6 }),
        async (length, held) => {
          // A fresh prefix each round, at the configured address, with some addresses held by IP objects.
          for (const p of lab.nb.admin.list("ipam/prefixes", { contains: "10.99.0.0" })) lab.nb.admin.remove("ipam/prefixes", Number(p.id));
          for (const ip of lab.nb.admin.list("ipam/ip-addresses", { parent: "10.99.0.0/24" }))
            lab.nb.admin.remove("ipam/ip-addresses", Number(ip.id));
          lab.nb.admin.create("ipam/prefixes", { prefix: `10.99.0.0/${length}`, custom_fields: { gateway: "10.99.0.1" } });
          const size = 2 ** (32 - length);
          const inside = held.filter((h) => h < size);
          for (const h of inside)
            lab.nb.admin.create("ipam/ip-addresses", { address: `10.99.0.${h}/${length}`, status: h % 2 ? "reserved" : "active" });
          config.writeBack.primaryIp4!.fallbackPrefix = `10.99.0.0/${length}`;
          const writeBack = new WriteBack(lab.netbox, config);
          const got: number[] = [];
          for (;;) {
            const copy = { ...record, interfaces: [eth0], vm: { ...record.vm, primary_ip4: null } };
            const wrote: string[] = [];
            try {
              await writeBack.addresses.assign(copy, wrote, false);
            } catch (err) {
              assert.match(String(err), /has no free address left/);
              break;
            }
            // Move the address off the interface so the next call allocates a new one.
            const ip = lab.nb.admin.list("ipam/ip-addresses", { vminterface_id: String(eth0.id) })[0]!;
            lab.nb.admin.update(VMS, record.vm.id, { primary_ip4: null });
            lab.nb.admin.update("ipam/ip-addresses", Number(ip.id), { assigned_object_type: null, assigned_object_id: null });
            got.push(Number(String(ip.address).split("/")[0]!.split(".")[3]));
            if (got.length > size) break;
          }
          const usable = Array.from({ length: size }, (_, i) => i).filter(
            (i) => i !== 0 && i !== size - 1 && i !== 1 && !inside.includes(i),
          );
          assert.deepEqual(got, usable);
        },
      ),
      { numRuns: 12 },
    );
  });
});
