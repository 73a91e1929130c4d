// "Did this call land?" for the qemu kind: after an answer was lost, the executor reads the
// guest back and asks here before it would send a write again. Each write is checked as what
// the plan said it was (its intent), so nothing is re-read from value strings.
import { plannedBody } from "../../plan/call.js";
import type { ConfigWrite } from "../../plan/intent.js";
import type { ApiCall } from "../../plan/types.js";
import { isDriveSlot } from "../../pve/index.js";
import { parseTags } from "../formats.js";
import type { LiveVm } from "./model.js";

/** Whether one written key already has the value the write gives it. */
function writeLanded(write: ConfigWrite, value: string, live: LiveVm): boolean {
  // efidisk0 and tpmstate0 are drives to PVE but read into LiveVm.options, like plain keys.
  if (write.as === "drive" && isDriveSlot(write.key)) {
    const disk = live.disks[write.key];
    // A new volume (STORAGE:SIZE) is there when the slot holds a volume on that storage.
    if (write.newOn !== undefined) return disk?.storage === write.newOn;
    return disk?.volume === write.volume;
  }
  if (write.as === "nic") {
    const nic = live.nics[write.key];
    return nic !== undefined && (write.bridge === undefined || nic.bridge === write.bridge);
  }
  if (write.key === "name") return live.name === value;
  if (write.key === "tags") return live.tags.join(";") === parseTags(value).join(";");
  return live.options[write.key] !== undefined;
}

/** Whether the effect of a config, resize, move or template call is in `live` (false for other calls). */
export function qemuCallLanded(call: ApiCall, live: LiveVm): boolean {
  const intent = call.intent;
  switch (intent.op) {
    case "configure":
      if (intent.deletes.some((k) => live.disks[k] || live.nics[k] || live.options[k] !== undefined)) return false;
      // A revert landed when nothing is pending on its keys any more.
      if (intent.reverts?.some((k) => live.pendingKeys.includes(k))) return false;
      return intent.writes.every((w) => writeLanded(w, String(plannedBody(call)[w.key]), live));
    case "resize": {
      const size = live.disks[intent.slot]?.sizeBytes;
      return size !== undefined && size >= intent.sizeBytes;
    }
    case "move-volume":
      return live.disks[intent.slot]?.storage === intent.storage;
    // The read-back says so once PVE wrote `template: 1` (a conversion cannot be half undone).
    case "template":
      return live.template;
    default:
      return false;
  }
}
