// `clone:` on a guest the spec creates by copying another: its shape (zod, strict) and its
// checks. PVE's rules the spec can know without the cluster: `storage` and `format` go with full
// clones only (PVE refuses them for linked ones); `format` only for VMs.
import { z } from "zod";
import type { CloneSpec } from "../index.js";
import type { SpecPath } from "./issues.js";
import type { IssueSink } from "./issues.js";
import { DNS_NAME, NODE_NAME, pattern, STORAGE_ID } from "./zod-values.js";

const VMID_MIN = 100;
/** PVE's `pve-configid` (a snapshot name). */
const SNAPSHOT_NAME = /^[A-Za-z][A-Za-z0-9_-]+$/;
const VMID_MAX = 999_999_999;

function fromField() {
  return z
    .union([
      z.number().int().min(VMID_MIN).max(VMID_MAX),
      pattern(DNS_NAME, "a vmid, or the name of a guest or template with the pvectl tag"),
    ])
    .describe("The source: a vmid, or the name of a guest or template that carries the pvectl tag.");
}

const common = {
  from: fromField(),
  full: z
    .boolean()
    .optional()
    .describe("Full copy, or linked clone (templates only). Default: linked from a template, full otherwise (PVE's default)."),
  storage: pattern(STORAGE_ID, "a storage id, e.g. local-lvm").optional().describe("Full clones: the storage every copied volume goes to."),
  node: pattern(NODE_NAME, "a node name, e.g. pve1").optional().describe("The node the source is on (to pick among same-named templates)."),
  snapname: pattern(SNAPSHOT_NAME, "a snapshot name (a letter, then letters, digits, '-' and '_')")
    .max(40)
    .optional()
    .describe("Clone the source as it was at this snapshot."),
};

/** `clone:` of a VM (`format` for full clones onto file storages). */
export function vmCloneSchema() {
  return z
    .strictObject({
      ...common,
      format: z.enum(["raw", "qcow2", "vmdk"]).optional().describe("Full clones on file storages: the copies' format."),
    })
    .describe(
      "Create the VM by cloning a template or guest, then converge it to the rest of this entry. Used only when the VM does not exist.",
    );
}

/** `clone:` of a container (PVE's container clone has no `format`). */
export function ctCloneSchema() {
  return z
    .strictObject(common)
    .describe(
      "Create the container by cloning a template or container, then converge it to the rest of this entry. Used only when it does not exist.",
    );
}

type RawClone = z.infer<ReturnType<typeof vmCloneSchema>>;

/** The clone as the engine takes it; a linked clone that names a storage or format is reported. */
export function normalizeClone(raw: Partial<RawClone> & Pick<RawClone, "from">, path: SpecPath, sink: IssueSink): CloneSpec {
  if (raw.full === false) {
    for (const key of ["storage", "format"] as const) {
      if (raw[key] !== undefined)
        sink.add(
          [...path, key],
          `${key} applies to full clones only (PVE refuses it for a linked clone): remove it, or set full: true`,
          "key",
        );
    }
  }
  return {
    from: raw.from,
    ...(raw.full !== undefined ? { full: raw.full } : {}),
    ...(raw.storage !== undefined ? { storage: raw.storage } : {}),
    ...(raw.format !== undefined ? { format: raw.format } : {}),
    ...(raw.node !== undefined ? { node: raw.node } : {}),
    ...(raw.snapname !== undefined ? { snapname: raw.snapname } : {}),
  };
}
