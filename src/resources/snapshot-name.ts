// Snapshot names as PVE accepts them (format `pve-snapshot-name` in the API schema: a letter
// first, then letters, digits, `_` or `-`, at most 40 characters). `current` names the live
// state in PVE's snapshot list and `pending` is reserved too, so neither can be a snapshot.
const SNAPSHOT_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const MAX_LENGTH = 40;
const RESERVED = new Set(["current", "pending"]);

/** Why `name` cannot be a snapshot name, or undefined when PVE would accept it. */
export function snapshotNameProblem(name: string): string | undefined {
  if (name.length === 0) return "a snapshot name cannot be empty";
  if (name.length > MAX_LENGTH) return `snapshot name '${name}' is longer than ${MAX_LENGTH} characters`;
  if (!SNAPSHOT_NAME.test(name)) {
    return `snapshot name '${name}' must start with a letter and use only letters, digits, '_' and '-'`;
  }
  if (RESERVED.has(name)) return `'${name}' is reserved by PVE and cannot name a snapshot`;
  return undefined;
}
