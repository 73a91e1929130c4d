// The Proxmox VE tag that binds a guest to the NetBox record it was built for: `netbox-vm-<id>`
// (the NetBox virtual machine's id). Every guest a record builds carries it from its create
// on, so a rerun, day 2, decommission and serve can tell that a guest found by the record's
// vmid or name is that record's, and refuse a record that names another record's guest.
export const RECORD_TAG_PREFIX = "netbox-vm-";

const RECORD_TAG = /^netbox-vm-(\d+)$/;

/** The tag of the record with this NetBox id. */
export function recordTagOf(id: number): string {
  return `${RECORD_TAG_PREFIX}${id}`;
}

/** Whether a tag has the shape of a record tag (pvectl's alone to set). */
export function isRecordTag(tag: string): boolean {
  return RECORD_TAG.test(tag);
}

/** The NetBox ids of the records a guest's tags bind it to (normally one; none: built before the tag existed, or not by pvectl). */
export function recordIdsIn(tags: readonly string[]): number[] {
  return tags.flatMap((t) => {
    const id = RECORD_TAG.exec(t)?.[1];
    return id === undefined ? [] : [Number(id)];
  });
}
