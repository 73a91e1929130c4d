// The guest kinds the engine can plan and run, and whose sections a spec file may write.
// Adding a kind: its folder, its line in KINDS, and its models in the DesiredGuest / LiveGuest
// unions (its spec section's key and entries follow from its line).
import type { GuestType } from "../plan/intent.js";
import type { GuestKind } from "./kind.js";
import { lxcKind } from "./lxc/kind.js";
import type { DesiredCt, LiveCt } from "./lxc/model.js";
import { qemuKind } from "./qemu/kind.js";
import type { DesiredVm, LiveVm } from "./qemu/model.js";

export { archiveCallNeeds } from "./backup/privileges.js";
export type {
  CloneSpec,
  DesiredBase,
  GuestDevices,
  GuestKind,
  GuestMeta,
  GuestVolume,
  KindRules,
  LiveBase,
  PowerOptions,
  PowerState,
  SpecObject,
  UpdateOptions,
} from "./kind.js";
export type { GuestSpecEntry, GuestSpecSection, UnknownKeyMessage } from "./guest-spec-section.js";
export { OWNERSHIP_TAG } from "./ownership.js";
// Each kind's spec entries, as library users name them (the spec loader re-exports them).
export type {
  AgentSpec,
  CdromSpec,
  CloudInitSpec,
  DeviceSection,
  DiskOptions,
  DiskSpec,
  DriveOptionValue,
  EfiDiskSpec,
  IpConfigSpec,
  NicSpec,
  TpmSpec,
  VmSpec,
} from "./qemu/spec-model.js";
export { describeVm } from "./qemu/spec-model.js";
export type { ContainerSpec, CtMountSpec, CtNicSpec, CtSecretRef } from "./lxc/spec-model.js";
export { describeCt } from "./lxc/spec-model.js";

/** A guest as a source of desired state describes it, of any kind. */
export type DesiredGuest = DesiredVm | DesiredCt;
/** A guest as read from the cluster, of any kind. */
export type LiveGuest = LiveVm | LiveCt;

/** Every kind, one line each, in the order their sections appear in a spec file (and its JSON Schema). */
const KINDS = { qemu: qemuKind, lxc: lxcKind };

type Kind = (typeof KINDS)[GuestType];
type SpecEntryOf<K> = K extends { spec: { toDesired(entry: infer S): unknown } } ? S : never;

/** The guest sections of a loaded spec: each kind's entries under its section key (`vms`, `containers`). */
export type GuestSections = { [K in Kind as K["spec"]["key"]]: SpecEntryOf<K>[] };
/** A guest as a spec file declares it, of any kind. */
export type GuestSpec = GuestSections[keyof GuestSections][number];

/** A kind as the engine holds it: over the unions of every kind's models. */
export type AnyGuestKind = GuestKind<DesiredGuest, LiveGuest, GuestSpec>;

// Each kind reads and plans only its own guests: the engine hands it guests of its type
// (kindOf / kindOfType), so widening each to the unions here is sound.
export const GUEST_KINDS: Record<GuestType, AnyGuestKind> = KINDS;

/** Every kind in registry order (the order of their sections in a spec file). */
export function guestKinds(): AnyGuestKind[] {
  return Object.values(GUEST_KINDS);
}

/** The kind of a guest model, or of a guest's plan (a plan without `kind`: qemu, as before containers). */
export function kindOf(guest: { kind?: GuestType }): AnyGuestKind {
  return GUEST_KINDS[guest.kind ?? "qemu"];
}

/**
 * What a guest's plan records of its kind: nothing for qemu (plans, saved plans and their JSON
 * predate containers and stay as they were), the type for every other kind.
 */
export function planKindField(type: GuestType): { kind?: GuestType } {
  return type === "qemu" ? {} : { kind: type };
}

/** The kind whose spec entries carry `specKind` (`vm`, `container`). */
export function kindOfSpec(specKind: string): AnyGuestKind {
  const kind = Object.values(GUEST_KINDS).find((k) => k.specKind === specKind);
  if (kind === undefined) throw new Error(`no guest kind writes spec entries of kind ${specKind}`);
  return kind;
}

/** Whether PVE's guest `type` (/cluster/resources) is one of the registered kinds. */
export function isGuestType(type: string): type is GuestType {
  return Object.hasOwn(GUEST_KINDS, type);
}

/** The kind of a listed guest (`type` from /cluster/resources); undefined for one pvectl does not manage. */
export function kindOfType(type: string): AnyGuestKind | undefined {
  return Object.hasOwn(GUEST_KINDS, type) ? GUEST_KINDS[type as GuestType] : undefined;
}
