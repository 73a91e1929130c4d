// `template: true` for every kind: when a guest is converted, and what a spec may ask of a
// guest that already is a template. Conversion is one way (PVE has no call that undoes it),
// needs the guest stopped (qemu-server and pve-container refuse a running one), and a
// template is never started (both refuse `status/start` on one).
import type { TemplateVolume } from "../plan/intent.js";
import type { ApiCall, StepAction, StepDraft } from "../plan/types.js";
import type { PowerState } from "./kind.js";

/** What the template rules read of a desired guest. */
export interface TemplateWish {
  template?: boolean;
  power?: PowerState;
}

/** What the template rules read of a live guest. */
export interface TemplateLive {
  vmid: number;
  name?: string;
  template: boolean;
  status: PowerState;
}

/**
 * Steps that write a template's volumes. Its disks are base images that linked clones may
 * share, so pvectl leaves them alone whether or not PVE would take the call.
 */
const VOLUME_ACTIONS: ReadonlySet<StepAction> = new Set(["disk-add", "disk-grow", "disk-move", "disk-detach", "disk-delete"]);

/** Whether the plan converts this guest: the spec asks for a template and the guest is not one. */
export function converts(wish: TemplateWish, live: TemplateLive): boolean {
  return wish.template === true && !live.template;
}

/** Problems of a spec entry with the template it asks for (any guest, new or live). */
export function templateWishErrors(wish: TemplateWish): string[] {
  if (wish.template === true && wish.power === "running") {
    return ["`template: true` with `power: running`: PVE never starts a template; drop `power` (a template is always stopped)"];
  }
  return [];
}

/** Problems of a spec entry with a guest that already is a template. */
export function liveTemplateErrors(wish: TemplateWish, live: TemplateLive, noun: string): string[] {
  if (!live.template) return [];
  const errors: string[] = [];
  if (wish.template === false) {
    errors.push(
      `vmid ${live.vmid} is a ${noun} template and the spec says \`template: false\`: PVE has no way to turn a template back into a ${noun} ` +
        "(clearing the flag would leave its disks as base volumes that linked clones may share); " +
        "clone it (a full clone) to get one, and set `template: true` or leave `template` out for this entry",
    );
  }
  if (wish.power === "running") {
    errors.push(
      `vmid ${live.vmid} is a template: PVE never starts a template; drop \`power: running\` from this entry (clone the template to get a ${noun} that runs)`,
    );
  }
  return errors;
}

/** Problems of the steps planned for a template: those that would change its volumes. */
export function templateVolumeErrors(drafts: StepDraft[], live: TemplateLive): string[] {
  if (!live.template) return [];
  return drafts
    .filter((d) => VOLUME_ACTIONS.has(d.action))
    .map(
      (d) =>
        `vmid ${live.vmid} is a template: pvectl does not change its volumes (${d.summary}); linked clones may share them. ` +
        "Clone it, change the clone and convert that to a template, or change the spec back",
    );
}

/**
 * The conversion step. `wasRunning`: the plan stops the guest first, so the step belongs to a
 * change that takes the guest out of service.
 */
export function templateStep(who: string, call: ApiCall, wasRunning: boolean): StepDraft {
  return {
    action: "template",
    severity: wasRunning ? "service-impact" : "configuration",
    summary: `convert ${who} to a template: cannot be undone (a template is never started again; clone it to get a guest that runs)`,
    changes: [{ field: "template", before: "no", after: "yes" }],
    calls: [call],
  };
}

/** A disk or mount point as the conversion reads it: its slot, storage and (live) volume. */
interface VolumeSlot {
  slot: string;
  storage?: string;
  volume?: string;
}

/**
 * Where the guest's volumes will be when the conversion runs (it is the plan's last step): the
 * spec's, on the storage it names (a move lands first), else where they are; live ones the spec
 * does not list only when the section is not managed (otherwise they are removed before).
 */
export function templateVolumes(desired: VolumeSlot[], live: Record<string, VolumeSlot>, keepUnlisted: boolean): TemplateVolume[] {
  const out: TemplateVolume[] = [];
  const listed = new Set(desired.map((d) => d.slot));
  for (const want of desired) {
    const current = live[want.slot];
    const storage = want.storage ?? current?.storage;
    if (storage === undefined) continue;
    const volume = current?.storage === storage ? current.volume : undefined;
    out.push({ slot: want.slot, storage, ...(volume !== undefined ? { volume } : {}) });
  }
  if (keepUnlisted) {
    for (const current of Object.values(live)) {
      if (listed.has(current.slot) || current.storage === undefined) continue;
      out.push({ slot: current.slot, storage: current.storage, ...(current.volume !== undefined ? { volume: current.volume } : {}) });
    }
  }
  return out;
}
