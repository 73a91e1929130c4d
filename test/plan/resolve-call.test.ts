// A planned call is a typed value (endpoint, path parameters, body); what it sends must be what
// the earlier string plans sent: these examples are the requests those plans made, byte for byte.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ALLOCATED_VMID } from "../../src/plan/call.js";
import { clonedVolumeSlots, plannedPath, resolveCall } from "../../src/plan/resolve-call.js";
import { lxcCalls } from "../../src/resources/lxc/calls.js";
import { qemuCalls } from "../../src/resources/qemu/calls.js";
import { bodyOf, clonedVolumeRef, UNKNOWN_VMID, withVmidPlaceholder } from "../../src/resources/clone-step.js";

const GIB = 1024 ** 3;
/** The copy's config after the clone task: PVE named each copied volume then. */
const COPY: Record<string, string> = { scsi0: "local-lvm:vm-123-disk-0", mp0: "local-lvm:subvol-123-disk-1" };
const fromCopy = (slot: string) => COPY[slot]!;

describe("typed planned calls resolve to the requests string plans sent", () => {
  it("a clone follow-up on a cloned volume, at a vmid allocated at apply", () => {
    const draft = {
      action: "disk-options" as const,
      severity: "configuration" as const,
      summary: "",
      changes: [],
      calls: [qemuCalls.config("pve1", UNKNOWN_VMID, { scsi0: `${clonedVolumeRef("scsi0")},cache=writeback,discard=on` })],
    };
    const call = withVmidPlaceholder(draft, undefined).calls[0]!;
    assert.deepEqual(call.pathParams, { node: "pve1", vmid: ALLOCATED_VMID });
    assert.deepEqual(call.body, { scsi0: { clonedVolume: "scsi0", options: "cache=writeback,discard=on" } });
    assert.deepEqual(clonedVolumeSlots(call), ["scsi0"]);
    // What the plan shows before apply, as before: the placeholders.
    assert.equal(plannedPath(call), "/nodes/pve1/qemu/{vmid}/config");
    assert.deepEqual(resolveCall(call, { vmid: 123, clonedVolume: fromCopy }), {
      method: "PUT",
      path: "/nodes/pve1/qemu/123/config",
      params: { scsi0: "local-lvm:vm-123-disk-0,cache=writeback,discard=on" },
    });
  });

  it("a container mount point on a cloned volume with no options, and a known vmid left as planned", () => {
    const call = lxcCalls.config("pve2", 321, { mp0: clonedVolumeRef("mp0") });
    const planned = withVmidPlaceholder({ action: "config", severity: "configuration", summary: "", changes: [], calls: [call] }, 321);
    assert.deepEqual(resolveCall(planned.calls[0]!, { vmid: 999, clonedVolume: fromCopy }), {
      method: "PUT",
      path: "/nodes/pve2/lxc/321/config",
      params: { mp0: "local-lvm:subvol-123-disk-1" },
    });
  });

  it("a resize says its size once (in the intent) and sends disk and size as before", () => {
    const call = qemuCalls.resize("pve1", ALLOCATED_VMID, "scsi0", 40 * GIB, { growOnly: true });
    assert.deepEqual(call.body, {});
    assert.equal(call.intent.op === "resize" && call.intent.sizeBytes, 40 * GIB);
    assert.deepEqual(resolveCall(call, { vmid: 301 }), {
      method: "PUT",
      path: "/nodes/pve1/qemu/301/resize",
      params: { disk: "scsi0", size: "40G" },
    });
    const ct = lxcCalls.resize("pve1", 200, "rootfs", 12 * GIB, { fromBytes: 8 * GIB });
    assert.deepEqual(resolveCall(ct).params, { disk: "rootfs", size: "12G" });
  });

  it("refuses to send a call whose vmid or cloned volume is not known yet", () => {
    const call = qemuCalls.config("pve1", ALLOCATED_VMID, { scsi0: `${clonedVolumeRef("scsi0")},ssd=1` });
    assert.throws(() => resolveCall(call, { clonedVolume: fromCopy }), /the vmid is allocated at apply and not known yet/);
    assert.throws(() => resolveCall(call, { vmid: 5 }), /the volume of scsi0 is named by the clone and not known yet/);
  });

  it("percent-encodes each path segment, as the client does for a path template", () => {
    const call = lxcCalls.config("pve#1", 7, { cores: 2 });
    assert.equal(resolveCall(call).path, "/nodes/pve%231/lxc/7/config");
  });

  it("refuses a cloned volume that does not lead its value (it would not be resolved)", () => {
    assert.throws(() => bodyOf({ scsi0: `local-lvm:x,${clonedVolumeRef("scsi1")}` }), /a cloned volume must lead its value/);
  });
});
