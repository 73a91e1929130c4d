// The worker types PVE starts for a guest's calls (qemu-server's `qmcreate`, pve-container's
// `vzcreate` ...): a lost answer is found again by searching the task list for one. Each kind
// gives its names as one table; which call starts which task is decided here, once.
import type { PowerAction, SnapshotAction } from "../plan/intent.js";
import type { ApiCall } from "../plan/types.js";

export interface GuestTaskTypes {
  create: string;
  clone: string;
  /** A POST to the config endpoint, when the kind has one (a PUT answers at once, without a task). */
  configPost?: string;
  resize: string;
  moveVolume: string;
  /** POST …/migrate (qmigrate, vzmigrate). */
  migrate: string;
  destroy: string;
  template: string;
  /** A backup restored as this kind (POST create with `archive`). */
  restore: string;
  power: Record<PowerAction, string>;
  snapshot: Record<SnapshotAction, string>;
}

/** The worker type a call starts; undefined: the call answers at once (no task to look for). */
export function taskTypeOf(table: GuestTaskTypes, call: ApiCall): string | undefined {
  const intent = call.intent;
  switch (intent.op) {
    case "create":
      return table.create;
    case "clone":
      return table.clone;
    case "configure":
      return call.method === "POST" ? table.configPost : undefined;
    case "resize":
      return table.resize;
    case "move-volume":
      return table.moveVolume;
    case "migrate":
      return table.migrate;
    case "destroy":
      return table.destroy;
    case "template":
      return table.template;
    case "power":
      return table.power[intent.action];
    case "snapshot":
      return table.snapshot[intent.action];
    default:
      return undefined;
  }
}
