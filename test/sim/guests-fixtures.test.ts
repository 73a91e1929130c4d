// The guest model compared with what real PVE wrote or answered (test/fixtures, see SOURCE.md).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parseConfigFile } from "../../src/pve/config-file.js";
import type { GuestConfig, GuestState, SnapshotState } from "../../src/sim/cluster/types.js";
import { Harness } from "./guests-harness.js";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8");

/** A guest holding exactly what a PVE config file holds. */
function guestFromFile(text: string, vmid: number, type: "qemu" | "lxc"): GuestState {
  const file = parseConfigFile(text);
  const typed = (section: Record<string, string>): GuestConfig => ({ ...section });
  const snapshots: SnapshotState[] = Object.entries(file.snapshots).map(([name, s]) => {
    const { snaptime, parent, vmstate, description, ...config } = s;
    return {
      name,
      snaptime: Number(snaptime ?? 0),
      vmstate: vmstate === "1",
      description: description ?? "",
      ...(parent ? { parent } : {}),
      config: typed(config),
    };
  });
  return {
    vmid,
    type,
    node: "pve1",
    config: typed(file.current),
    pending: {},
    pendingDelete: {},
    snapshots,
    status: "stopped",
    qmpstatus: "stopped",
    agentDelay: 0,
  };
}

describe("guest model vs. real PVE data", () => {
  for (const [name, type] of [
    ["qemu__parse-config-input__snapshots.conf", "qemu"],
    ["qemu__parse-config-input__plain.conf", "qemu"],
    ["qemu__parse-config-input__regular-vm-efi.conf", "qemu"],
    ["lxc__test-alpine-001__config.conf", "lxc"],
  ] as const) {
    it(`the config digest is the SHA1 of the file PVE wrote (${name})`, async () => {
      const text = fixture(`pve-configs/${name}`);
      const h = new Harness();
      h.model.state.guests.push(guestFromFile(text, 111, type));
      const cfg = await h.config(111, "pve1", type);
      assert.equal(cfg.digest, createHash("sha1").update(text).digest("hex"));
    });
  }

  it("cluster/resources guest entries carry every field a real PVE entry has", async () => {
    const real = JSON.parse(fixture("api-responses/community-proxmox__GET_cluster_resources__01.json")) as Array<Record<string, unknown>>;
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", start: 1 });
    const ours = ((await h.call("GET", "/cluster/resources", { type: "vm" })) as Array<Record<string, unknown>>)[0] as Record<
      string,
      unknown
    >;
    for (const entry of real.filter((r) => r.type === "qemu")) {
      for (const [key, value] of Object.entries(entry)) {
        if (key === "pool") continue;
        assert.ok(key in ours, `missing ${key}`);
        assert.equal(typeof ours[key], typeof value, `type of ${key}`);
      }
    }
  });

  it("agent network-get-interfaces has the shape of a real reply", async () => {
    const real = JSON.parse(fixture("api-responses/community-proxmox__GET_nodes_NODE_qemu_VMID_agent_COMMAND__01.json")) as {
      result: Array<Record<string, unknown>>;
    };
    const h = new Harness();
    await h.createVm(100, { net0: "virtio,bridge=vmbr0", agent: "1", start: 1 });
    h.clock += 100;
    const ours = (await h.call("GET", "/nodes/pve1/qemu/100/agent/network-get-interfaces")) as { result: Array<Record<string, unknown>> };
    const keys = (o: Record<string, unknown>) => Object.keys(o).sort();
    assert.deepEqual(keys(ours.result[1] as Record<string, unknown>), keys(real.result[1] as Record<string, unknown>));
    const first = (iface: Record<string, unknown> | undefined) => {
      const list = (iface?.["ip-addresses"] ?? []) as Array<Record<string, unknown>>;
      return list[0] ?? {};
    };
    const realAddr = first(real.result[1]);
    const ourAddr = first(ours.result[1]);
    assert.deepEqual(keys(ourAddr), keys(realAddr));
    assert.deepEqual(
      keys(ours.result[1]?.statistics as Record<string, unknown>),
      keys(real.result[1]?.statistics as Record<string, unknown>),
    );
  });
});
