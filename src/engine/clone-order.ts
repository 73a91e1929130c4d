// A clone whose source this same plan creates or converts to a template is planned against the
// source as it will be once its own steps ran (planned-source.ts), and at apply it waits for
// them (apply.ts): one run makes both. What cannot be predicted (a source made by a clone or a
// restore, a live source changed besides its conversion, a vmid allocated at apply, a snapshot
// not taken yet) still waits for the next run, and says so.
// The other way round, for destroy: a template whose linked clones this plan destroys waits, at
// apply, until their destroys ran (PVE refuses it while a clone's disk exists): one run removes both.
import { type DesiredGuest, kindOf, type LiveGuest } from "../resources/index.js";
import type { GuestPlan } from "../plan/types.js";
import { predictSource } from "./planned-source.js";

/** The spec entry `clone.from` names, when the spec has one (by vmid, else by name, same kind). */
function sourceEntry(vm: DesiredGuest, desired: DesiredGuest[]): DesiredGuest | undefined {
  const from = vm.clone?.from;
  if (from === undefined) return undefined;
  return desired.find((d) => d !== vm && d.kind === vm.kind && (typeof from === "number" ? d.vmid === from : d.name === from));
}

/** What the source's plan does this run that a clone must wait for: its creation or conversion. */
function inFlight(plan: GuestPlan): string | undefined {
  const actions = new Set(plan.steps.map((s) => s.action));
  if (actions.has("create")) return "created";
  if (actions.has("template")) return "converted to a template";
  return undefined;
}

function idle(vm: DesiredGuest, error: string): GuestPlan {
  return kindOf(vm).plan.idle(vm, [error]);
}

/** The plan of a new clone whose source is made in this plan: planned against it, or an error that says why not. */
function cloneOfPlanned(
  vm: DesiredGuest,
  source: DesiredGuest,
  sourcePlan: GuestPlan,
  live: Map<number, LiveGuest>,
): GuestPlan | undefined {
  if (!sourcePlan.exists && sourcePlan.errors.length > 0) {
    return idle(
      vm,
      `clone.from: ${source.key} is not live and cannot be created in this run (see its errors); fix it, and its clone is planned with it`,
    );
  }
  const what = inFlight(sourcePlan);
  if (what === undefined) return undefined;
  const predicted = predictSource(sourcePlan, live);
  if (typeof predicted === "string") {
    return idle(
      vm,
      `clone.from: ${source.key} is ${what} by this same plan, and ${predicted}: apply this plan, then apply again to clone ${vm.key} from it`,
    );
  }
  if (vm.clone?.node !== undefined && predicted.node !== vm.clone.node) {
    return idle(vm, `clone.from: ${source.key} is ${what} on ${predicted.node} by this plan, not on ${vm.clone.node} as clone.node says`);
  }
  if (vm.clone?.snapname !== undefined) {
    return idle(
      vm,
      `clone.snapname: ${source.key} is ${what} by this same plan and has no snapshot ${vm.clone.snapname} yet: apply this plan, take the snapshot, then apply again`,
    );
  }
  return kindOf(vm).plan.create(vm, predicted);
}

/**
 * Plans each new clone whose source this plan creates or converts against that source as
 * planned (replacing what the live lookup said); a source neither live nor in the spec stays
 * the lookup's error.
 */
export function planClonesOfPlannedSources(guests: GuestPlan[], desired: DesiredGuest[], live: Map<number, LiveGuest>): void {
  const indexOf = new Map(guests.map((g, i) => [g.key, i]));
  for (const vm of desired) {
    const i = indexOf.get(vm.key);
    if (vm.clone === undefined || vm.absent || i === undefined || guests[i]!.exists) continue;
    const source = sourceEntry(vm, desired);
    const j = source !== undefined ? indexOf.get(source.key) : undefined;
    if (source === undefined || j === undefined) continue;
    const planned = cloneOfPlanned(vm, source, guests[j]!, live);
    if (planned !== undefined) guests[i] = planned;
  }
}

/** Which guest of the plan each clone waits for at apply: the source its plan predicted (created or converted in this plan). */
export function clonesWaitFor(guests: GuestPlan[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const guest of guests) {
    for (const call of guest.steps.flatMap((s) => s.calls)) {
      const intent = call.intent;
      if (intent.op !== "clone") continue;
      const source = guests.find(
        (g) => g !== guest && g.vmid === intent.source.vmid && g.node === intent.source.node && inFlight(g) !== undefined,
      );
      if (source !== undefined) out.set(guest.key, source.key);
    }
  }
  return out;
}

/**
 * The templates whose base volumes a volume id builds on: a linked clone's disk is named after
 * its base (`local-lvm:base-9000-disk-0/vm-101-disk-0` on thin LVM, ZFS and Ceph,
 * `local:9000/base-9000-disk-0.qcow2/101/vm-101-disk-0.qcow2` on directory storages).
 */
function baseOwners(volid: string): number[] {
  return [...volid.matchAll(/(?:^|[:/])base-(\d+)-disk-\d+/g)].map((m) => Number(m[1]));
}

/**
 * Which guest of the plan each destroyed template waits for at apply: the guests whose destroy
 * deletes a linked clone of it (PVE refuses to destroy a template while a linked clone's disk
 * exists, so the clones go first and the template after them, in the same run).
 */
export function templatesWaitFor(guests: GuestPlan[]): Map<string, string[]> {
  const destroyed = guests.filter((g) => g.steps.some((s) => s.action === "destroy"));
  const clonesOf = new Map<number, Set<string>>();
  for (const g of destroyed)
    for (const volid of g.steps.flatMap((s) => s.deletesVolumes ?? []))
      for (const base of baseOwners(volid)) if (base !== g.vmid) clonesOf.set(base, (clonesOf.get(base) ?? new Set()).add(g.key));
  const out = new Map<string, string[]>();
  for (const template of destroyed) {
    const clones = template.vmid !== undefined ? clonesOf.get(template.vmid) : undefined;
    if (clones !== undefined) out.set(template.key, [...clones]);
  }
  return out;
}

/** Says in the plan of each template destroyed with its linked clones that it goes after them. */
export function noteTemplatesAfterClones(guests: GuestPlan[]): void {
  for (const [key, clones] of templatesWaitFor(guests)) {
    guests
      .find((g) => g.key === key)
      ?.warnings.push(
        `destroyed after its linked clones ${clones.join(", ")} in this run: PVE refuses to destroy a template while a linked clone's disk exists`,
      );
  }
}
