// What a sync builds a guest from: the fields of a NetBox record the mapping reads (mapping.ts,
// mapping-ct.ts) and the status that selected it, each as a printable value under a name a
// person recognises. The record as selected and the record as read again after its guest was
// built, compared, say whether the guest still is what the record asks for: write-back
// (app/netbox/guarded-record.ts) sets the status only when nothing here changed. Fields the
// mapping does not read (comments, description ...) and what pvectl writes itself (MACs,
// addresses, the primary IPv4, DNS names) are left out, so an edit of them never holds a record.
import type { NetboxConfig } from "./config.js";
import { diskSizes, vlansOf } from "./mapping-common.js";
import type { NetboxVmRecord } from "./records.js";

/** Field name -> value, in a stable order. */
export type RecordInputs = Record<string, string>;

export interface InputChange {
  field: string;
  /** Absent: the field (an interface, a virtual disk ...) was not there before. */
  before?: string;
  /** Absent: it is gone. */
  after?: string;
}

/** The name the vmid custom field goes by here (pvectl writes it back itself: its own write is not an edit). */
export function vmidInput(config: NetboxConfig): string {
  return `custom field ${config.customFields.vmid}`;
}

const text = (v: unknown): string | undefined => (v === null || v === undefined || v === "" ? undefined : String(v));

/** An interface as the mapping sees it, its MAC aside (write-back writes that). */
function interfaceValue(iface: NetboxVmRecord["interfaces"][number]): string {
  const { tag, trunks } = vlansOf(iface);
  const parts = [
    ...(tag !== undefined ? [`vlan ${tag}`] : []),
    ...(trunks !== undefined ? [`trunks ${trunks}`] : []),
    ...(iface.mtu !== null && iface.mtu !== undefined ? [`mtu ${iface.mtu}`] : []),
    ...(iface.enabled === false ? ["disabled"] : []),
  ];
  return parts.join(", ") || "plain";
}

export function recordInputs(record: NetboxVmRecord, config: NetboxConfig): RecordInputs {
  const { vm } = record;
  const fields = config.customFields;
  const out: Record<string, string | undefined> = {
    status: text(vm.status?.value),
    name: vm.name,
    cluster: text(vm.cluster?.name),
    platform: text(vm.platform?.slug),
    vcpus: text(vm.vcpus),
    memory: text(vm.memory),
    [vmidInput(config)]: text(vm.custom_fields?.[fields.vmid]),
    [`custom field ${fields.node}`]: text(vm.custom_fields?.[fields.node]),
    [`custom field ${fields.storage}`]: text(vm.custom_fields?.[fields.storage]),
    ...(config.tags.passThrough
      ? {
          tags: text(
            (vm.tags ?? [])
              .map((t) => t.slug)
              .sort()
              .join(", "),
          ),
        }
      : {}),
  };
  // The disks as the mapping sizes them: the virtual disks, else the VM's `disk` (NetBox sums
  // the virtual disks into it, so it says nothing more when there are some).
  for (const disk of diskSizes(record, config)) if (disk.label !== "defaults.diskSize") out[disk.label] = String(disk.size);
  for (const iface of record.interfaces) out[`interface ${iface.name}`] = interfaceValue(iface);
  return Object.fromEntries(Object.entries(out).filter((e): e is [string, string] => e[1] !== undefined));
}

/** What differs from `before` to `after`, field by field (`before`'s order, then fields new in `after`). */
export function inputChanges(before: RecordInputs, after: RecordInputs): InputChange[] {
  const out: InputChange[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const b = before[field];
    const a = after[field];
    if (a !== b) out.push({ field, ...(b !== undefined ? { before: b } : {}), ...(a !== undefined ? { after: a } : {}) });
  }
  return out;
}

/** An interface or a virtual disk: one of several parts of the record, added or removed as a whole. */
const isPart = (field: string): boolean => field.startsWith("interface ") || field.startsWith("virtual disk ");

/** "memory 2048 -> 4096", "custom field proxmox_node set to pve2", "interface eth1 added (vlan 20)", "virtual disk `data` removed (was 20480)" */
export function describeChange(change: InputChange): string {
  const { field, before, after } = change;
  if (before === undefined) return isPart(field) ? `${field} added (${after})` : `${field} set to ${after}`;
  if (after === undefined) return isPart(field) ? `${field} removed (was ${before})` : `${field} cleared (was ${before})`;
  return `${field} ${before} -> ${after}`;
}
