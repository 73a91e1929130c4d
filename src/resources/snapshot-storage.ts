// Which volumes PVE can snapshot, by storage type and volume format. Source: proxmox/pve-storage,
// each plugin's `volume_has_feature` table for the `snapshot` feature (src/PVE/Storage/Plugin.pm
// for file-based storages: qcow2 only; LvmThinPlugin.pm, ZFSPoolPlugin.pm, RBDPlugin.pm,
// BTRFSPlugin.pm: any volume; LVMPlugin.pm: only qcow2 volumes, which exist there only when the
// storage uses `snapshot-as-volume-chain` in PVE 9, so a plain raw LVM volume cannot).

/** File-based storages: a volume is a file, and only the qcow2 format carries snapshots. */
const FILE_BASED = new Set(["dir", "nfs", "cifs", "glusterfs", "cephfs"]);
/** Storages that snapshot at the block/dataset level, whatever the volume's format. */
const ALWAYS = new Set(["lvmthin", "zfspool", "rbd", "btrfs"]);

/**
 * Why a volume on `storageType` with `format` cannot be snapshotted, or undefined when it can.
 * `format` is the volume's format as PVE reports it (raw, qcow2, vmdk, subvol), when known.
 */
export function snapshotUnsupported(storageType: string, format: string | undefined): string | undefined {
  if (ALWAYS.has(storageType)) return undefined;
  if ((FILE_BASED.has(storageType) || storageType === "lvm") && format === "qcow2") return undefined;
  if (FILE_BASED.has(storageType)) {
    return `a ${format ?? "raw"} volume on ${storageType} storage cannot be snapshotted (only qcow2 can)`;
  }
  if (storageType === "lvm") return "plain LVM volumes cannot be snapshotted (use lvmthin, or qcow2 on a volume-chain LVM)";
  return `storage type '${storageType}' does not support snapshots`;
}
