// What to say about a key a `vms:` entry's schema refused: the field it belongs to when it is
// PVE's or proxmox_kvm's name for one, the escape hatch for another PVE key, and, inside the
// device sections, which slots exist.
import type { SpecPath } from "../spec-section/issues.js";
import { ownEntry } from "../spec-section/own.js";
import { didYouMean } from "../spec-section/suggest.js";
import { configKeySchema, slotNames } from "./spec-facts.js";
import { ownedKeyHint, PROXMOX_KVM_NAMES } from "./spec-owned-keys.js";

/** Long runs of slots as ranges: "scsi0-scsi30, virtio0-virtio15". */
function slotRangeText(bases: string[]): string {
  return bases
    .map((base) => {
      const names = slotNames(base);
      return `${names[0]}-${names[names.length - 1]}`;
    })
    .join(", ");
}

/** An unknown key of the entry itself. */
function unknownVmKeyMessage(key: string, allowed: string[]): string {
  const kvm = ownEntry(PROXMOX_KVM_NAMES, key);
  if (kvm) return `unknown key \`${key}\`; here it is ${kvm}`;
  const owned = ownedKeyHint(key);
  if (owned) return `unknown key \`${key}\`; write it as ${owned}`;
  if (configKeySchema(key)) {
    return `\`${key}\` is a PVE config key without a field of its own here: put it under \`extraConfig\` (e.g. \`extraConfig: { ${key}: ... }\`)`;
  }
  return `unknown key \`${key}\`${didYouMean(key, allowed)}`;
}

/**
 * An unknown key inside a VM's device sections (`within` ends at the section): a slot that does
 * not exist there. Also used where a VM's fields are written outside a spec file (NetBox templates).
 */
export function vmDeviceKeyMessage(within: SpecPath, key: string): string | undefined {
  const last = within[within.length - 1];
  if (last === "disks" && /^(scsi|virtio|sata|ide)\d+$/.test(key)) {
    return `\`${key}\` is not a disk slot: disk slots are ${slotRangeText(["scsi", "virtio", "sata", "ide"])}`;
  }
  if (last === "disks" && (key === "efidisk0" || key === "tpmstate0")) {
    return `\`${key}\` is not a disk slot here: write it as ${ownedKeyHint(key)}`;
  }
  if (last === "cdroms" && /^(scsi|virtio|sata|ide)\d+$/.test(key)) {
    return `\`${key}\` cannot hold a CD-ROM: CD-ROM slots are ${slotRangeText(["ide", "sata", "scsi"])}`;
  }
  if (last === "nics" && /^net\d+$/.test(key)) {
    return `\`${key}\` is not a NIC slot: NIC slots are ${slotRangeText(["net"])}`;
  }
  if (last === "ipconfig" && /^ipconfig\d+$/.test(key)) {
    return `\`${key}\` is out of range: ${slotRangeText(["ipconfig"])}`;
  }
  return undefined;
}

/** An unknown key at `within` inside one `vms:` entry ([] is the entry itself). */
export function vmKeyMessage(within: SpecPath, key: string, allowed: string[]): string | undefined {
  return within.length === 0 ? unknownVmKeyMessage(key, allowed) : vmDeviceKeyMessage(within, key);
}
