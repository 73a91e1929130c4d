// The format of a guest's volume as its name or drive options tell it, for the snapshot
// capability table (a qcow2 file snapshots on any storage, a raw one only where the storage can).
/** The format a volume id or drive option names: `format=` wins, else the file's extension, else a `subvol-` name. */
export function volumeFormatOf(volume: string, option: string | undefined): string | undefined {
  if (option !== undefined) return option;
  const file = volume.slice(volume.lastIndexOf("/") + 1);
  const ext = /\.(raw|qcow2|vmdk)$/.exec(file)?.[1];
  if (ext !== undefined) return ext;
  return /(^|:)subvol-/.test(file) ? "subvol" : undefined;
}
