// Volume ids as PVE's storage layer reads them (pve-storage): `STORAGE:VOLNAME`. The storage
// part follows parse_volume_id; a volume name under one of the directory plugin's content
// folders follows its parse_volname: exactly one file name below the folder (`iso/x.iso`,
// `snippets/hook.pl`, `import/disk.qcow2`), so a name that climbs out of its folder
// (`snippets/../../../etc/passwd`) is refused, as PVE refuses it. Names outside those folders
// (`vm-100-disk-0`, `100/vm-100-disk-0.qcow2`, RBD/ZFS names ...) are the storage plugin's
// business; only path segments `.` and `..` are refused there, since no plugin names a volume so.

/** The content folders of file-based storages whose volume names are checked here. */
export type VolumeContent = "iso" | "snippets" | "import" | "vztmpl";

const VOLUME_ID_RE = /^([a-z][a-z0-9\-_.]*[a-z0-9]):(.+)$/i;
const SAFE_NAME = "[ a-zA-Z0-9\\-.+=_]+";

/** One file name right under the content folder, with the extensions PVE lists for it. */
const CONTENT_NAMES: Record<VolumeContent, { re: RegExp; shape: string }> = {
  iso: { re: /^iso\/[^/]+\.(?:iso|img)$/i, shape: "iso/<file>.iso (or .img)" },
  snippets: { re: /^snippets\/[^/]+$/, shape: "snippets/<file>" },
  import: {
    re: new RegExp(`^import/(?:${SAFE_NAME}\\.(?:ova|ovf|qcow2|raw|vmdk)|${SAFE_NAME}\\.ova/${SAFE_NAME}\\.(?:qcow2|raw|vmdk))$`),
    shape: "import/<file>.qcow2 (or .raw, .vmdk, .ova, .ovf)",
  },
  vztmpl: { re: /^vztmpl\/[^/]+\.tar\.(?:gz|xz|zst|bz2)$/i, shape: "vztmpl/<file>.tar.zst (or .gz, .xz, .bz2)" },
};

export interface VolumeId {
  storage: string;
  volname: string;
}

/** Storage and volume name of a volume id; undefined when it is not `STORAGE:NAME`. */
export function parseVolumeId(volid: string): VolumeId | undefined {
  const m = VOLUME_ID_RE.exec(volid);
  return m ? { storage: m[1] as string, volname: m[2] as string } : undefined;
}

function contentOf(volname: string): VolumeContent | undefined {
  const folder = volname.split("/")[0] as string;
  return Object.hasOwn(CONTENT_NAMES, folder) ? (folder as VolumeContent) : undefined;
}

/**
 * Why PVE would refuse this volume id, or undefined when it would read it. `content` demands a
 * content folder (a hookscript must be a snippet).
 */
export function volumeIdProblem(volid: string, content?: VolumeContent): string | undefined {
  const parsed = parseVolumeId(volid);
  if (!parsed) return "is not a volume id: write STORAGE:NAME, e.g. local:iso/debian-13.iso";
  const { volname } = parsed;
  if (volname.split("/").some((segment) => segment === ".." || segment === ".")) {
    return "names a path with `.` or `..` in it; PVE refuses volume names that leave their folder";
  }
  const folder = contentOf(volname);
  if (content !== undefined && folder !== content)
    return `must be in the storage's ${content} folder: ${parsed.storage}:${CONTENT_NAMES[content].shape}`;
  if (folder !== undefined && !CONTENT_NAMES[folder].re.test(volname)) {
    return `is not a volume PVE can read from the ${folder} folder: write ${parsed.storage}:${CONTENT_NAMES[folder].shape}, one file name with no further /`;
  }
  return undefined;
}
