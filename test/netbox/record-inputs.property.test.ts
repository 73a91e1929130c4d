// What write-back compares to tell an edit made during the build (sources/netbox/record-inputs.ts),
// over random edits of a real record (the simulator's db-01: two interfaces, two virtual disks,
// tags): two records with the same inputs map to the same spec (nothing the mapping reads is
// missed, MACs aside: pvectl writes them itself), an edit of a field the build used is named
// with both values, and an edit of anything else (comments, the primary IPv4 ...) is no change.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import { NetboxClient } from "../../src/netbox/client.js";
import { type NetboxSimulator, startNetboxSimulator } from "../../src/netbox/sim/index.js";
import { parseNetboxConfig } from "../../src/sources/netbox/config.js";
import { mapRecord } from "../../src/sources/netbox/mapping.js";
import { describeChange, inputChanges, recordInputs } from "../../src/sources/netbox/record-inputs.js";
import { loadRecords, type NetboxVmRecord } from "../../src/sources/netbox/records.js";
import { DEMO_CONFIG } from "./fixtures.js";

const config = parseNetboxConfig(DEMO_CONFIG, "netbox.yaml");

interface Edit {
  name: string;
  /** The field the change names, when the build used it. */
  counts?: string;
  apply(r: NetboxVmRecord): void;
}

const cf = (r: NetboxVmRecord): Record<string, unknown> => {
  r.vm.custom_fields = { ...(r.vm.custom_fields ?? {}) };
  return r.vm.custom_fields;
};

const EDITS: Edit[] = [
  {
    name: "status",
    counts: "status",
    apply: (r) => {
      r.vm.status = { value: "decommissioning", label: "Decommissioning" };
    },
  },
  {
    name: "name",
    counts: "name",
    apply: (r) => {
      r.vm.name = "db-99";
    },
  },
  {
    name: "vcpus",
    counts: "vcpus",
    apply: (r) => {
      r.vm.vcpus = (r.vm.vcpus ?? 1) + 1;
    },
  },
  {
    name: "memory",
    counts: "memory",
    apply: (r) => {
      r.vm.memory = (r.vm.memory ?? 1024) * 2;
    },
  },
  {
    name: "cluster",
    counts: "cluster",
    apply: (r) => {
      r.vm.cluster = { ...r.vm.cluster!, name: "other" };
    },
  },
  {
    name: "platform",
    counts: "platform",
    apply: (r) => {
      r.vm.platform = { ...r.vm.platform!, slug: "debian-13" };
    },
  },
  {
    name: "vmid",
    counts: "custom field proxmox_vmid",
    apply: (r) => {
      cf(r).proxmox_vmid = 4242;
    },
  },
  {
    name: "node",
    counts: "custom field proxmox_node",
    apply: (r) => {
      cf(r).proxmox_node = "pve2";
    },
  },
  {
    name: "tags",
    counts: "tags",
    apply: (r) => {
      r.vm.tags = [...(r.vm.tags ?? []), { id: 99, url: "", display: "x", name: "x", slug: "x" } as never];
    },
  },
  {
    name: "disk size",
    counts: "virtual disk `data`",
    apply: (r) => {
      r.disks = r.disks.map((d) => (d.name === "data" ? { ...d, size: d.size + 1000 } : d));
    },
  },
  {
    name: "disk removed",
    counts: "virtual disk `root`",
    apply: (r) => {
      r.disks = r.disks.filter((d) => d.name !== "root");
    },
  },
  {
    name: "mtu",
    counts: "interface eth0",
    apply: (r) => {
      r.interfaces = r.interfaces.map((i) => (i.name === "eth0" ? { ...i, mtu: 9000 } : i));
    },
  },
  {
    name: "enabled",
    counts: "interface eth1",
    apply: (r) => {
      r.interfaces = r.interfaces.map((i) => (i.name === "eth1" ? { ...i, enabled: false } : i));
    },
  },
  {
    name: "comments",
    apply: (r) => {
      r.vm.comments = "rack B";
    },
  },
  {
    name: "description",
    apply: (r) => {
      r.vm.description = "db of team x";
    },
  },
  {
    name: "primary IPv4",
    apply: (r) => {
      r.vm.primary_ip4 = { id: 7, url: "", display: "10.20.0.9/24", family: { value: 4, label: "IPv4" }, address: "10.20.0.9/24" } as never;
    },
  },
  {
    name: "another custom field",
    apply: (r) => {
      cf(r).owner = "jo";
    },
  },
  {
    name: "last_updated",
    apply: (r) => {
      (r.vm as { last_updated: string }).last_updated = "2031-01-01T00:00:00Z";
    },
  },
];

describe("record inputs: what counts as changed during the build", () => {
  let nb: NetboxSimulator;
  let base: NetboxVmRecord;
  before(async () => {
    nb = await startNetboxSimulator({ seed: "demo" });
    const client = new NetboxClient({ url: nb.url, token: nb.token });
    const [db] = await loadRecords(client, { names: ["db-01"] });
    await client.close();
    assert.ok(db && db.interfaces.length === 2 && db.disks.length === 2, "db-01 as the demo seeds it");
    // As sync maps it: with its addresses loaded (none here), not from the primary IPv4.
    base = { ...db, addresses: [] };
  });
  after(() => nb.close());

  const edited = (picks: Edit[]): NetboxVmRecord => {
    const copy = structuredClone(base);
    for (const e of picks) e.apply(copy);
    return copy;
  };

  test("each edit the build used is named with both values; the others are no change", () => {
    for (const edit of EDITS) {
      const changes = inputChanges(recordInputs(base, config), recordInputs(edited([edit]), config));
      assert.deepEqual(
        changes.map((c) => c.field),
        edit.counts ? [edit.counts] : [],
        edit.name,
      );
    }
    const [memory] = inputChanges(recordInputs(base, config), recordInputs(edited([EDITS[3]!]), config));
    assert.equal(describeChange(memory!), "memory 8192 -> 16384");
    const [removed] = inputChanges(recordInputs(base, config), recordInputs(edited([EDITS[10]!]), config));
    assert.equal(describeChange(removed!), "virtual disk `root` removed (was 32000)");
  });

  test("any mix of edits: exactly the fields the build used are named, and equal inputs map to the same spec", () => {
    fc.assert(
      fc.property(fc.subarray(EDITS), fc.subarray(EDITS), (one, two) => {
        const a = edited(one);
        const b = edited(two);
        const changes = inputChanges(recordInputs(a, config), recordInputs(b, config));
        const counted = (picks: Edit[]) => new Set(picks.flatMap((e) => (e.counts ? [e.counts] : [])));
        const inA = counted(one);
        const inB = counted(two);
        const differ = new Set([...inA, ...inB].filter((f) => !(inA.has(f) && inB.has(f))));
        assert.deepEqual(new Set(changes.map((c) => c.field)), differ);
        if (changes.length === 0) {
          const [ma, mb] = [mapRecord(a, config), mapRecord(b, config)];
          assert.deepEqual(ma.ok ? ma.spec : ma.errors, mb.ok ? mb.spec : mb.errors);
        }
      }),
      { numRuns: 200 },
    );
  });
});
