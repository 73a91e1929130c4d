// The journal note of a record someone edited while its guest was built (sync.ts, result
// `changed`): what was built and from what, what changed meanwhile, what was written and what
// was not, and what happens to the record next.
import type { GuestReport } from "../../engine/report.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import { describeChange } from "../../sources/netbox/record-inputs.js";
import type { WriteBackResult } from "./writeback.js";

export interface ChangedRecord {
  config: NetboxConfig;
  /** The statuses this sync selects. */
  selected: string[];
  /** The record was past `planned` (day 2): its status is never written. */
  built: boolean;
  kind: "vm" | "container";
  report: GuestReport;
  result: WriteBackResult;
}

/** What becomes of the record, by the status it has now. */
function nextStep(c: ChangedRecord): string {
  const { status } = c.result;
  if (c.selected.includes(status))
    return `the next sync converges the guest to the record${c.built ? "" : ` and sets it ${c.config.writeBack.onSuccess}`}`;
  const retire = status === c.config.decommission.status ? "; `pvectl netbox decommission` finds the guest by its vmid" : "";
  return `sync does not select status ${status} (it selects ${c.selected.join(", ")}), so it leaves the record and its guest alone from now on${retire}`;
}

export function changedNote(c: ChangedRecord): string {
  const { report, result } = c;
  const guest = `${c.kind === "vm" ? "vm" : "container"} ${report.vmid} on ${report.node} (${report.result})`;
  const status = c.built
    ? `its status stays ${result.status}`
    : `status not set to ${c.config.writeBack.onSuccess} (it stays ${result.status})`;
  return (
    `pvectl netbox sync: ${c.built ? "converged" : "built"} ${guest} from the record as it was selected; ` +
    `changed while it was built: ${result.changes.map(describeChange).join(", ")}; ` +
    `wrote ${result.wrote.join(", ") || "nothing new"}; ${status}; ${nextStep(c)}`
  );
}
