// Snapshot names as PVE accepts them (`snapname` is format `pve-configid`, maxLength 40, in
// src/schema/generated/endpoints.json; the format is checked against `$CONFIGID_RE` in
// proxmox/pve-common src/PVE/JSONSchema.pm: a letter first and then at least one more letter,
// digit, `_` or `-`, case-insensitive, so one-character names are refused). `current` names the live
// state in PVE's snapshot list and `pending` is reserved too, so neither can be a snapshot.
const SNAPSHOT_NAME = /^[A-Za-z][A-Za-z0-9_-]+$/;
const MAX_LENGTH = 40;
const RESERVED = new Set(["current", "pending"]);

/** Why `name` cannot be a snapshot name, or undefined when PVE would accept it. */
export function snapshotNameProblem(name: string): string | undefined {
  if (name.length === 0) return "a snapshot name cannot be empty";
  if (name.length > MAX_LENGTH) return `snapshot name '${name}' is longer than ${MAX_LENGTH} characters`;
  if (!SNAPSHOT_NAME.test(name)) {
    return `snapshot name '${name}' must start with a letter, be at least 2 characters and use only letters, digits, '_' and '-'`;
  }
  if (RESERVED.has(name)) return `'${name}' is reserved by PVE and cannot name a snapshot`;
  return undefined;
}
