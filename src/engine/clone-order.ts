// A clone whose source this same plan creates or converts to a template. Guests run side by
// side with no order between them, so such a clone would race its source (a linked clone of a
// guest not converted yet, a copy taken while it is being stopped, or no source at all yet).
// The clone waits for the next run, and says so, instead of failing on a lookup or blocking
// the whole plan in preflight: this run makes the source, the next one clones it.
// The same holds the other way round for destroy: a template whose linked clones this plan
// destroys waits for the next run (PVE refuses it while a clone's disk exists).
import type { DesiredGuest } from "../resources/index.js";
import type { GuestPlan } from "../plan/types.js";

/** The spec entry `clone.from` names, when the spec has one (by vmid, else by name, same kind). */
function sourceEntry(vm: DesiredGuest, desired: DesiredGuest[]): DesiredGuest | undefined {
  const from = vm.clone?.from;
  if (from === undefined) return undefined;
  const kind = vm.kind ?? "qemu";
  return desired.find((d) => d !== vm && (d.kind ?? "qemu") === kind && (typeof from === "number" ? d.vmid === from : d.name === from));
}

/** What the source's plan does this run that a clone must not race: its creation or conversion. */
function inFlight(plan: GuestPlan): string | undefined {
  const actions = new Set(plan.steps.map((s) => s.action));
  if (actions.has("create")) return "created";
  if (actions.has("template")) return "converted to a template";
  return undefined;
}

/** Defers (no steps, an error that says why and what to do) each new clone whose source is made in this plan. */
export function deferClonesOfSourcesInFlight(guests: GuestPlan[], desired: DesiredGuest[]): void {
  const planOf = new Map(guests.map((g) => [g.key, g]));
  for (const vm of desired) {
    const clone = planOf.get(vm.key);
    if (vm.clone === undefined || vm.absent || clone === undefined || clone.exists) continue;
    const source = sourceEntry(vm, desired);
    const sourcePlan = source !== undefined ? planOf.get(source.key) : undefined;
    const what = sourcePlan !== undefined ? inFlight(sourcePlan) : undefined;
    if (what === undefined) continue;
    clone.steps = [];
    clone.errors = [
      `clone.from: ${source!.key} is ${what} by this same plan, and guests run side by side (the clone would race it): ` +
        `apply this plan, then apply again to clone ${vm.key} from it`,
    ];
  }
}

/**
 * The templates whose base volumes a volume id builds on: a linked clone's disk is named after
 * its base (`local-lvm:base-9000-disk-0/vm-101-disk-0` on thin LVM, ZFS and Ceph,
 * `local:9000/base-9000-disk-0.qcow2/101/vm-101-disk-0.qcow2` on directory storages).
 */
function baseOwners(volid: string): number[] {
  return [...volid.matchAll(/(?:^|[:/])base-(\d+)-disk-\d+/g)].map((m) => Number(m[1]));
}

/** Defers (no steps, an error that says why and what to do) each template destroyed with its linked clones in one plan. */
export function deferTemplatesOfClonesInFlight(guests: GuestPlan[]): void {
  const destroyed = guests.filter((g) => g.steps.some((s) => s.action === "destroy"));
  const clonesOf = new Map<number, Set<string>>();
  for (const g of destroyed)
    for (const volid of g.steps.flatMap((s) => s.deletesVolumes ?? []))
      for (const base of baseOwners(volid)) if (base !== g.vmid) clonesOf.set(base, (clonesOf.get(base) ?? new Set()).add(g.key));
  for (const template of destroyed) {
    const clones = template.vmid !== undefined ? clonesOf.get(template.vmid) : undefined;
    if (clones === undefined) continue;
    template.steps = [];
    template.errors = [
      `its linked clones ${[...clones].join(", ")} are destroyed by this same plan, and PVE refuses to destroy a template while a linked clone's disk exists (guests run side by side): ` +
        `destroy again once they are gone`,
    ];
  }
}
