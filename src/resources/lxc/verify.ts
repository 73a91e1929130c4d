// "Did this call land?" for the lxc kind: after an answer was lost, the executor reads the
// container back and asks here before it would send a write again. Each write is checked as
// what the plan said it was (its intent), so nothing is re-read from value strings.
import { plannedBody } from "../../plan/call.js";
import type { ConfigWrite } from "../../plan/intent.js";
import type { ApiCall } from "../../plan/types.js";
import { parseTags } from "../formats.js";
import type { LiveCt } from "./model.js";

/** Whether one written key already has the value the write gives it. */
function writeLanded(write: ConfigWrite, value: string, live: LiveCt): boolean {
  if (write.as === "drive") {
    const mount = live.mounts[write.key];
    // A new volume (STORAGE:SIZE) is there when the slot holds a volume on that storage.
    if (write.newOn !== undefined) return mount?.storage === write.newOn;
    return mount?.volume === write.volume;
  }
  if (write.as === "nic") {
    const nic = live.nics[write.key];
    return nic !== undefined && (write.bridge === undefined || nic.bridge === write.bridge);
  }
  if (write.key === "hostname") return live.name === value;
  if (write.key === "tags") return live.tags.join(";") === parseTags(value).join(";");
  return live.options[write.key] !== undefined;
}

function present(live: LiveCt, key: string): boolean {
  return (
    live.mounts[key] !== undefined || live.nics[key] !== undefined || live.unused[key] !== undefined || live.options[key] !== undefined
  );
}

/** Whether the effect of a config, resize, move or template call is in `live` (false for other calls). */
export function lxcCallLanded(call: ApiCall, live: LiveCt): boolean {
  const intent = call.intent;
  switch (intent.op) {
    case "configure":
      if (intent.deletes.some((k) => present(live, k))) return false;
      // A revert landed when nothing is pending on its keys any more.
      if (intent.reverts?.some((k) => live.pendingKeys.includes(k))) return false;
      return intent.writes.every((w) => writeLanded(w, String(plannedBody(call)[w.key]), live));
    case "resize": {
      const size = live.mounts[intent.slot]?.sizeBytes;
      return size !== undefined && size >= intent.sizeBytes;
    }
    case "move-volume":
      return live.mounts[intent.slot]?.storage === intent.storage;
    // The read-back says so once PVE wrote `template: 1` (a conversion cannot be half undone).
    case "template":
      return live.template;
    default:
      return false;
  }
}
