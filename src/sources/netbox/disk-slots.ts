// Which slot (scsi0, scsi1 … or a container's rootfs, mp0 …) holds which NetBox virtual disk.
// Pure: no I/O.
//
// A slot is chosen once, when its virtual disk first reaches the guest, and recorded on the
// guest as a Proxmox VE tag `netbox-disk-<virtual disk id>-<slot>` (one per disk). Every later
// sync maps by that record, not by the order of the virtual disks: a disk keeps its slot while
// its virtual disk exists; a new virtual disk takes the lowest slot that is free; a virtual disk
// deleted in NetBox is the removal of exactly its slot (guarded as data loss by the engine).
// Mapping by position instead would, after the first virtual disk is deleted, grow the OS disk to
// the data disk's size (irreversible) and delete the data disk.
//
// Why a tag on the guest and not a custom field on the NetBox virtual disk: the tag is written by
// the same plan that creates the disk (in the create call itself for a new guest), it is read
// back with the cluster listing pvectl reads anyway, it describes the volumes right next to them
// (a guest restored from a backup brings its own), and a virtual disk's custom field would go
// with it when someone moves it to another record, copied or edited in NetBox, and needs a write
// back that can fail after the disk was built.
//
// What cannot be matched is an error naming the slot and the virtual disk(s), never a resize or
// a delete: a disk on the guest with no record (added by hand, or a partial apply), a record
// pointing at a virtual disk that now belongs to another NetBox record, two records for one slot.
// A guest built before the tags existed has none: its disks are adopted by position once, only
// when every slot holds exactly the size of the virtual disk in that position (and no other disk
// is there); the plan says so, and the tags are written by the same plan.
import { humanSize } from "../../resources/formats.js";

export const DISK_TAG_PREFIX = "netbox-disk-";
const DISK_TAG = /^netbox-disk-(\d+)-([a-z]+\d*)$/;

/** The tag recording that `slot` holds the NetBox virtual disk with this id. */
export function diskTagOf(id: number, slot: string): string {
  return `${DISK_TAG_PREFIX}${id}-${slot}`;
}

/** Whether a tag has the shape of a disk identity tag (pvectl's alone to set). */
export function isDiskTag(tag: string): boolean {
  return DISK_TAG.test(tag);
}

/** The slot -> virtual disk records a guest's tags hold. */
export function recordedDisks(tags: readonly string[]): { id: number; slot: string }[] {
  return tags.flatMap((t) => {
    const m = DISK_TAG.exec(t);
    return m ? [{ id: Number(m[1]), slot: m[2]! }] : [];
  });
}

/** A disk the record asks for: a virtual disk (with its id), or the record's `disk` size / the default (no id). */
export interface RecordDisk {
  id?: number;
  /** How messages name it: "virtual disk `data`". */
  label: string;
  /** Undefined when the size is not valid (the mapping reports it). */
  sizeBytes?: number;
}

/** The guest as it is: its tags, and its disks of the kind the record maps (slot -> size in bytes). */
export interface GuestDisks {
  vmid: number;
  tags: readonly string[];
  slots: ReadonlyMap<string, number | undefined>;
}

export interface SlotRules {
  /** Every slot a disk may take, in the order they are handed out (scsi0, scsi1 … or rootfs, mp0 …). */
  candidates: readonly string[];
  /** A slot that can never be removed (a container's rootfs). */
  fixed?: string;
}

export interface SlotChoice {
  slot: string;
  /** Index into the record's disks. */
  disk: number;
  /** A slot that is new on an existing guest (not the guest's original first disk, whatever its slot). */
  added: boolean;
}

export interface DiskPlacement {
  slots: SlotChoice[];
  /** The identity tags the guest carries after this sync. */
  tags: string[];
  /** What the plan should say (adoption by position, a slot removed because its virtual disk is gone). */
  notes: string[];
  /** Slots that cannot be matched: the guest's disks must be left alone. */
  errors: string[];
}

const describe = (d: RecordDisk): string =>
  `${d.label}${d.id !== undefined ? ` (id ${d.id})` : ""}${d.sizeBytes !== undefined ? `, ${humanSize(d.sizeBytes)}` : ""}`;
const liveSize = (size: number | undefined): string => (size === undefined ? "size unknown" : humanSize(size));

function tagsOf(disks: RecordDisk[], slots: SlotChoice[]): string[] {
  return slots.flatMap((s) => {
    const id = disks[s.disk]?.id;
    return id === undefined ? [] : [diskTagOf(id, s.slot)];
  });
}

function byPosition(disks: RecordDisk[], rules: SlotRules, guest: GuestDisks | undefined): SlotChoice[] {
  return disks.flatMap((_, i) => {
    const slot = rules.candidates[i];
    return slot === undefined ? [] : [{ slot, disk: i, added: guest !== undefined && !guest.slots.has(slot) }];
  });
}

/**
 * Where the record's disks go: by the identity recorded on the guest; for a new guest by
 * position; for a guest without any record, adopted by position when the sizes match exactly.
 * `elsewhere`: recorded virtual disk ids that now belong to another NetBox record, described.
 */
export function placeDisks(
  disks: RecordDisk[],
  rules: SlotRules,
  guest: GuestDisks | undefined,
  elsewhere: ReadonlyMap<number, string> = new Map(),
): DiskPlacement {
  if (guest === undefined) {
    const slots = byPosition(disks, rules, undefined);
    return { slots, tags: tagsOf(disks, slots), notes: [], errors: [] };
  }
  const recorded = recordedDisks(guest.tags).filter((r) => rules.candidates.includes(r.slot));
  if (recorded.length === 0) return adoptByPosition(disks, rules, guest);
  return byIdentity(disks, rules, guest, recorded, elsewhere);
}

/** A guest with no identity recorded: built before pvectl recorded it, or its record has no virtual disks. */
function adoptByPosition(disks: RecordDisk[], rules: SlotRules, guest: GuestDisks): DiskPlacement {
  const slots = byPosition(disks, rules, guest);
  // The record's `disk` size (no virtual disks): one disk, nothing to tell apart, nothing to record.
  if (disks.every((d) => d.id === undefined)) return { slots, tags: [], notes: [], errors: [] };
  const expected = new Set(slots.map((s) => s.slot));
  const exact =
    slots.every((s) => guest.slots.has(s.slot) && guest.slots.get(s.slot) === disks[s.disk]!.sizeBytes) &&
    [...guest.slots.keys()].every((s) => expected.has(s));
  if (exact) {
    const pairs = slots.map((s) => `${s.slot} = ${describe(disks[s.disk]!)}`).join("; ");
    return {
      slots,
      tags: tagsOf(disks, slots),
      notes: [
        `disks adopted by position (the guest was built before pvectl recorded which NetBox virtual disk each slot holds; every size matches exactly): ${pairs}; recorded as tags ${DISK_TAG_PREFIX}<id>-<slot>`,
      ],
      errors: [],
    };
  }
  const live = [...guest.slots].map(([slot, size]) => `${slot} (${liveSize(size)})`).join(", ") || "none";
  const wanted = disks.map((d, i) => `${rules.candidates[i] ?? "?"}: ${describe(d)}`).join(", ");
  return {
    slots: [],
    tags: [],
    notes: [],
    errors: [
      `vmid ${guest.vmid} has disks ${live} with no record of which NetBox virtual disk each holds (built before pvectl recorded it), ` +
        `and they do not match the record's virtual disks by position and exact size (${wanted}); pvectl will not guess, so no disk is resized or removed. ` +
        `Tag each slot in Proxmox VE with ${DISK_TAG_PREFIX}<virtual disk id>-<slot> (e.g. ${diskTagOf(disks.find((d) => d.id !== undefined)?.id ?? 1, rules.candidates[0] ?? "scsi0")}), ` +
        "or make the virtual disks match the guest's disks again",
    ],
  };
}

/** Two records for one slot, or one virtual disk recorded in two slots: nothing is certain then. */
function conflicts(recorded: { id: number; slot: string }[], named: (id: number) => string): string[] {
  const errors: string[] = [];
  const bySlot = new Map<string, number[]>();
  const byId = new Map<number, string[]>();
  for (const r of recorded) {
    bySlot.set(r.slot, [...(bySlot.get(r.slot) ?? []), r.id]);
    byId.set(r.id, [...(byId.get(r.id) ?? []), r.slot]);
  }
  for (const [slot, ids] of bySlot)
    if (ids.length > 1)
      errors.push(
        `${slot} is recorded as holding ${ids.map(named).join(" and ")} (tags ${ids.map((id) => diskTagOf(id, slot)).join(", ")}); remove the wrong tag from the guest in Proxmox VE`,
      );
  for (const [id, slots] of byId)
    if (slots.length > 1)
      errors.push(
        `${named(id)} is recorded in ${slots.join(" and ")} (tags ${slots.map((s) => diskTagOf(id, s)).join(", ")}); remove the wrong tag from the guest in Proxmox VE`,
      );
  return errors;
}

function byIdentity(
  disks: RecordDisk[],
  rules: SlotRules,
  guest: GuestDisks,
  recorded: { id: number; slot: string }[],
  elsewhere: ReadonlyMap<number, string>,
): DiskPlacement {
  const index = new Map(disks.flatMap((d, i) => (d.id === undefined ? [] : [[d.id, i] as const])));
  const named = (id: number): string => {
    const i = index.get(id);
    return i !== undefined ? describe(disks[i]!) : `NetBox virtual disk id ${id}`;
  };
  const errors = conflicts(recorded, named);
  const notes: string[] = [];
  const slots: SlotChoice[] = [];
  const keep: string[] = [];
  const taken = new Set<string>();
  for (const r of recorded) {
    const live = guest.slots.has(r.slot);
    const i = index.get(r.id);
    const other = elsewhere.get(r.id);
    if (i !== undefined) {
      slots.push({ slot: r.slot, disk: i, added: !live });
      taken.add(r.slot);
    } else if (other !== undefined) {
      errors.push(
        `${r.slot} holds NetBox virtual disk id ${r.id} (tag ${diskTagOf(r.id, r.slot)}), which now belongs to ${other}; a disk is not handed from one record to another: ` +
          "move the virtual disk back in NetBox, or remove the tag from the guest in Proxmox VE if the slot is free to go",
      );
      taken.add(r.slot);
    } else if (!live) {
      // Its disk is already gone from the guest too: the record is dropped, the slot is free.
    } else if (r.slot === rules.fixed) {
      errors.push(
        `${r.slot} holds NetBox virtual disk id ${r.id}, which is gone from NetBox; a container cannot lose its ${r.slot}: create the virtual disk again in NetBox, or rebuild the container`,
      );
      taken.add(r.slot);
    } else {
      // The record stays until the slot is gone, so the slot is not handed out while its removal waits (e.g. for --allow-data-loss).
      keep.push(diskTagOf(r.id, r.slot));
      notes.push(`${r.slot}: its NetBox virtual disk (id ${r.id}) was deleted, so the slot is removed`);
      taken.add(r.slot);
    }
  }
  const unassigned = disks.map((_, i) => i).filter((i) => !slots.some((s) => s.disk === i));
  const recordedSlots = new Set(recorded.map((r) => r.slot));
  for (const [slot, size] of guest.slots) {
    if (recordedSlots.has(slot)) continue;
    const could =
      unassigned.length > 0 ? `one of ${unassigned.map((i) => describe(disks[i]!)).join(", ")}` : "none of the record's virtual disks";
    errors.push(
      `${slot} (${liveSize(size)}) holds a disk with no record of its NetBox virtual disk (no tag ${DISK_TAG_PREFIX}<id>-${slot}); it could be ${could}; ` +
        `pvectl will not guess, so it is not resized or removed: tag it ${DISK_TAG_PREFIX}<virtual disk id>-${slot} in Proxmox VE if it holds one of them, or remove it there`,
    );
    taken.add(slot);
  }
  for (const i of unassigned) {
    const disk = disks[i]!;
    if (disk.id === undefined) {
      errors.push(
        `the guest's disks were built from NetBox virtual disks, but the record now lists none (${disk.label}); add the virtual disks back in NetBox`,
      );
      break;
    }
    const slot = rules.candidates.find((c) => !taken.has(c) && !guest.slots.has(c) && c !== rules.fixed);
    if (slot === undefined) {
      errors.push(`${describe(disk)} has no free slot left (${rules.candidates.length} in all)`);
      continue;
    }
    slots.push({ slot, disk: i, added: true });
    taken.add(slot);
  }
  if (errors.length > 0) return { slots: [], tags: [], notes: [], errors };
  slots.sort((a, b) => rules.candidates.indexOf(a.slot) - rules.candidates.indexOf(b.slot));
  return { slots, tags: [...keep, ...tagsOf(disks, slots)].sort(), notes, errors };
}
