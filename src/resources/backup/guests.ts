// What backup planning knows of a guest and a storage: the cluster listing's facts (the
// engine's GuestSummary and StorageInfo fit these shapes), and how a guest is keyed in a plan.
import type { GuestType } from "../../plan/intent.js";
import type { Step, StepDraft } from "../../plan/types.js";

export interface ArchiveGuest {
  vmid: number;
  type: GuestType;
  node: string;
  status: "running" | "stopped";
  name?: string;
  lock?: string;
  template: boolean;
}

export interface ArchiveStorage {
  storage: string;
  node: string;
  content: string[];
  available: boolean;
  shared: boolean;
}

/** How a guest is named in a plan and report: its name and vmid (names need not be unique). */
export function guestKey(guest: Pick<ArchiveGuest, "vmid" | "name">): string {
  return guest.name !== undefined && guest.name !== "" ? `${guest.name}-${guest.vmid}` : `vmid-${guest.vmid}`;
}

/** `web (vmid 101)`, for summaries. */
export function guestLabel(guest: Pick<ArchiveGuest, "vmid" | "name">): string {
  return guest.name ? `${guest.name} (vmid ${guest.vmid})` : `vmid ${guest.vmid}`;
}

/** The plan's step ids: `<guest key>/<n>-<action>`, as every other plan numbers them. */
export function numbered(key: string, drafts: StepDraft[]): Step[] {
  return drafts.map((draft, i) => ({ id: `${key}/${i + 1}-${draft.action}`, ...draft }));
}

/** The storage as `node` sees it (a shared storage is listed once per node). */
export function storageOn(storages: ArchiveStorage[], storage: string, node: string): ArchiveStorage | undefined {
  return storages.find((s) => s.storage === storage && s.node === node);
}
