// Property: for any clone follow-up, allocated vmid and resize, the typed call resolves to the
// request the string plans made. The oracle is the former runner's string filling (replace
// `{vmid}` in the path, each `{volume:SLOT}` in a value by the copy's volume), applied to the
// call as string plans said it (plannedRequest).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { ParamValue } from "../../src/plan/call.js";
import { plannedRequest, resolveCall } from "../../src/plan/resolve-call.js";
import { formatSize } from "../../src/pve/size.js";
import { clonedVolumeRef, UNKNOWN_VMID, withVmidPlaceholder } from "../../src/resources/clone-step.js";
import { lxcCalls } from "../../src/resources/lxc/calls.js";
import { qemuCalls } from "../../src/resources/qemu/calls.js";

/** What the runner did before calls were typed. */
function stringFilled(path: string, params: Record<string, ParamValue>, vmid: number, volumes: Record<string, string>) {
  const fill = (text: string) => text.replace(/\{volume:(\w+)\}/g, (_, slot: string) => volumes[slot]!);
  return {
    path: path.replace("{vmid}", String(vmid)),
    params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === "string" ? fill(v) : v])),
  };
}

const slot = fc.constantFrom("scsi0", "scsi1", "virtio0", "efidisk0", "rootfs", "mp0", "mp3");
const option = fc.constantFrom("cache=writeback", "discard=on", "ssd=1", "iothread=1", "mp=/data", "backup=0", "size=8G");
const node = fc.constantFrom("pve1", "pve2", "node-3");
const vmid = fc.integer({ min: 100, max: 999_999 });

describe("typed calls resolve as the string plans were filled (property)", () => {
  it("clone follow-ups on cloned volumes, at a known or an allocated vmid", () => {
    fc.assert(
      fc.property(
        node,
        vmid,
        fc.boolean(),
        fc.boolean(),
        fc.uniqueArray(fc.tuple(slot, fc.array(option, { maxLength: 3 })), { selector: ([s]) => s, minLength: 1, maxLength: 3 }),
        (n, id, allocated, container, drives) => {
          const params: Record<string, ParamValue> = { cores: 2 };
          for (const [s, opts] of drives) params[s] = [clonedVolumeRef(s), ...opts].join(",");
          const planned = allocated ? UNKNOWN_VMID : id;
          const call = container ? lxcCalls.config(n, planned, params) : qemuCalls.config(n, planned, params);
          const draft = { action: "config" as const, severity: "configuration" as const, summary: "", changes: [], calls: [call] };
          const typed = withVmidPlaceholder(draft, allocated ? undefined : id).calls[0]!;
          const volumes = Object.fromEntries(drives.map(([s]) => [s, `local-lvm:vm-${id}-disk-${s}`]));
          const before = plannedRequest(typed);
          assert.deepEqual(resolveCall(typed, { vmid: id, clonedVolume: (s) => volumes[s]! }), {
            method: "PUT",
            ...stringFilled(before.path, before.params, id, volumes),
          });
        },
      ),
    );
  });

  it("resizes send the size the intent holds, as the string plans' params did", () => {
    fc.assert(
      fc.property(node, vmid, fc.boolean(), slot, fc.integer({ min: 1, max: 4096 }), (n, id, allocated, s, gib) => {
        const bytes = gib * 1024 ** 3;
        const call = qemuCalls.resize(n, allocated ? { allocated: "vmid" } : id, s, bytes);
        const sent = resolveCall(call, { vmid: id });
        assert.deepEqual(sent, { method: "PUT", path: `/nodes/${n}/qemu/${id}/resize`, params: { disk: s, size: formatSize(bytes) } });
      }),
    );
  });
});
