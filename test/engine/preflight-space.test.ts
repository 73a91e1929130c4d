// The free-space preflight's arithmetic: needs summed per storage over the whole plan (per node
// for a local storage), thick LVM refused past its free space, thin storages only warned about,
// and a storage whose status cannot be read degrading to a warning that names the privilege.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { ClusterSnapshot } from "../../src/engine/cluster.js";
import { checkSpace, groupNeeds, judgeSpace, neededBytes, spaceNeeds } from "../../src/engine/preflight-space.js";
import type { CallIntent } from "../../src/plan/intent.js";
import type { GuestPlan } from "../../src/plan/types.js";

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;

function guest(key: string, node: string, intents: CallIntent[]): GuestPlan {
  const calls = intents.map((intent) => ({ method: "POST" as const, endpoint: "/version" as const, pathParams: {}, body: {}, intent }));
  return {
    key,
    name: key,
    node,
    exists: false,
    steps: [{ id: `${key}/1`, action: "create", severity: "configuration", summary: "", changes: [], calls }],
    errors: [],
    warnings: [],
  };
}

function newDisk(storage: string, bytes: number, key = "scsi0"): CallIntent {
  return {
    kind: "qemu",
    op: "configure",
    writes: [{ key, as: "drive", media: "disk", newOn: storage, newBytes: bytes }],
    deletes: [],
    allocates: true,
  };
}

const cluster: ClusterSnapshot = {
  nodes: new Map([
    ["pve1", { node: "pve1", online: true }],
    ["pve2", { node: "pve2", online: true }],
  ]),
  storages: ["pve1", "pve2"].flatMap((node) => [
    { storage: "thick", node, content: ["images"], available: true, shared: false, type: "lvm" },
    { storage: "thin", node, content: ["images"], available: true, shared: false, type: "lvmthin" },
    { storage: "nfs", node, content: ["images"], available: true, shared: true, type: "nfs" },
  ]),
  guests: [],
};

const disk = fc.record({
  node: fc.constantFrom("pve1", "pve2"),
  storage: fc.constantFrom("thick", "thin", "nfs"),
  mib: fc.integer({ min: 1, max: 4096 }),
});

describe("free-space preflight", () => {
  it("sums every new volume per storage, per node for a local one, once for a shared one", () => {
    fc.assert(
      fc.property(fc.array(disk, { maxLength: 12 }), (disks) => {
        const guests = disks.map((d, i) => guest(`g${i}`, d.node, [newDisk(d.storage, d.mib * MIB)]));
        const groups = groupNeeds(spaceNeeds(guests), cluster);
        for (const group of groups) {
          const mine = disks.filter((d) => d.storage === group.storage && (group.shared || d.node === group.node));
          assert.equal(group.needs.length, mine.length);
          const bytes = mine.reduce((s, d) => s + (group.type === "lvm" ? Math.ceil(d.mib / 4) * 4 : d.mib) * MIB, 0);
          assert.equal(neededBytes(group), bytes);
        }
        assert.equal(
          groups.reduce((n, g) => n + g.needs.length, 0),
          disks.length,
        );
      }),
    );
  });

  it("refuses thick LVM exactly when the plan's volumes exceed its free space, naming every guest; thin storages only warn", () => {
    fc.assert(
      fc.property(fc.array(disk, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 16 }), (disks, freeGib) => {
        const guests = disks.map((d, i) => guest(`g${i}`, d.node, [newDisk(d.storage, d.mib * MIB)]));
        const groups = groupNeeds(spaceNeeds(guests), cluster);
        const verdict = judgeSpace(
          groups,
          groups.map(() => ({ avail: freeGib * GIB })),
          "pvectl@pve!ci",
        );
        const over = groups.filter((g) => neededBytes(g) > freeGib * GIB);
        const refused = over.filter((g) => g.type === "lvm");
        assert.equal(verdict.problems.length, refused.length);
        for (const [i, group] of refused.entries()) {
          const problem = verdict.problems[i]!;
          assert.equal(problem.kind, "space");
          for (const need of group.needs) assert.ok(problem.message.includes(`${need.guest} ${need.what}`), problem.message);
        }
        const warned = new Set(over.filter((g) => g.type !== "lvm").flatMap((g) => g.needs.map((n) => n.guest)));
        assert.deepEqual(new Set(verdict.warnings.keys()), warned);
      }),
    );
  });

  it("counts a grow by its growth, a move and a full clone by the volume, a linked clone and an import not at all", () => {
    const needs = spaceNeeds([
      guest("a", "pve1", [
        { kind: "qemu", op: "resize", slot: "scsi0", sizeBytes: 12 * GIB, fromBytes: 8 * GIB, storage: "thick" },
        { kind: "qemu", op: "move-volume", slot: "scsi1", storage: "thick", sizeBytes: 2 * GIB },
        {
          kind: "qemu",
          op: "configure",
          writes: [{ key: "scsi2", as: "drive", media: "disk", newOn: "thick" }],
          deletes: [],
          allocates: true,
        },
      ]),
      guest("b", "pve1", [
        {
          kind: "qemu",
          op: "clone",
          source: { vmid: 9000, node: "pve1", template: true, running: false },
          target: "pve1",
          full: true,
          storage: "thick",
          volumes: [{ slot: "scsi0", storage: "thin", sizeBytes: GIB }],
          bridges: [],
        },
      ]),
      guest("c", "pve1", [
        {
          kind: "qemu",
          op: "clone",
          source: { vmid: 9000, node: "pve1", template: true, running: false },
          target: "pve1",
          full: false,
          volumes: [{ slot: "scsi0", storage: "thin", sizeBytes: GIB }],
          bridges: [],
        },
      ]),
    ]);
    assert.deepEqual(
      needs.map((n) => [n.guest, n.what, n.storage, n.bytes]),
      [
        ["a", "scsi0 grown by 4 GiB", "thick", 4 * GIB],
        ["a", "scsi1 moved 2 GiB", "thick", 2 * GIB],
        ["b", "scsi0 cloned 1 GiB", "thick", GIB],
      ],
    );
  });

  it("counts a migration by the node-local volumes it copies, on the target node", () => {
    const needs = spaceNeeds([
      guest("m", "pve2", [
        {
          kind: "qemu",
          op: "migrate",
          from: "pve1",
          target: "pve2",
          mode: "online",
          localVolumes: [{ slot: "scsi0", volume: "thick:vm-100-disk-0", storage: "thick", sizeBytes: 8 * GIB }],
          storages: ["nfs", "thick"],
          bridges: [],
          memoryBytes: GIB,
        },
      ]),
    ]);
    assert.deepEqual(
      needs.map((n) => [n.guest, n.what, n.storage, n.node, n.bytes]),
      [["m", "scsi0 copied to pve2 8 GiB", "thick", "pve2", 8 * GIB]],
    );
  });

  it("a storage whose status cannot be read is a warning that names the privilege, never a refusal or a crash", async () => {
    const guests = [guest("web", "pve1", [newDisk("thick", 64 * GIB)])];
    const forbidden = {
      identity: "ci@pve!plan",
      request: async () => {
        throw new Error("403 Permission check failed");
      },
    };
    const hidden = {
      identity: "ci@pve!plan",
      request: async () => [{ storage: "thin", type: "lvmthin", content: "images", total: GIB, used: 0, avail: GIB }],
    };
    const inactive = {
      identity: "ci@pve!plan",
      request: async () => [{ storage: "thick", type: "lvm", content: "images", active: 0, total: 0, used: 0, avail: 0 }],
    };
    for (const client of [forbidden, hidden, inactive]) {
      const verdict = await checkSpace(client, cluster, guests);
      assert.deepEqual(verdict.problems, []);
      const [warning] = verdict.warnings.get("web") ?? [];
      assert.match(
        warning ?? "",
        /^free space on storage thick on node pve1 was not checked \(.+\): this plan puts 64 GiB there \(web scsi0 new 64 GiB\); ci@pve!plan sees it with Datastore\.Audit \(or Datastore\.AllocateSpace\) on \/storage\/thick$/,
      );
    }
  });
});
