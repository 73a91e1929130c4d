// How PVE 9 checks a container's `ostemplate` before the create task: check_volume_access with
// the content type `vztmpl` (`backup` for a restore). It parses the volume name with the
// storage's plugin and compares the content type; it does not look for the file, nor at the
// storage's `content` setting. A file that is not there fails the task (abs_filesystem_path's
// `can't find file`).
import type { StorageState } from "../cluster/types.js";
import { findStorage } from "../cluster/volumes.js";
import { PveApiError } from "../contract.js";
import type { SimCluster } from "../cluster/model.js";

// pve-storage Plugin.pm parse_volname for storages with a path (dir, nfs, cifs)
const DIR_VOLNAMES: Array<[RegExp, string]> = [
  [/^vztmpl\/[^/]+\.tar(\.(gz|xz|zst|bz2))?$/, "vztmpl"],
  [/^iso\/[^/]+\.(iso|img)$/i, "iso"],
  [/^backup\/[^/]+$/, "backup"],
  [/^snippets\/[^/]+$/, "snippets"],
  [/^import\/[^/]+$/, "import"],
  [/^rootdir\/\d+$/, "rootdir"],
  [/^\d+\/[^/]+$/, "images"],
  [/^[^/]+\/\d+\/[^/]+$/, "images"],
];

/** The plugin's name for its volume-name errors. */
function pluginName(storage: StorageState): string {
  if (storage.type === "lvm" || storage.type === "lvmthin") return "lvm";
  if (storage.type === "zfspool") return "zfs";
  return storage.type;
}

function contentTypeOf(storage: StorageState, volname: string): string {
  if (["dir", "btrfs", "nfs", "cifs"].includes(storage.type)) {
    const hit = DIR_VOLNAMES.find(([re]) => re.test(volname));
    if (!hit) throw new PveApiError(500, `unable to parse directory volume name '${volname}'`);
    return hit[1];
  }
  if (/^(vm|base|subvol|basevol)-\d+-/.test(volname.split("/").pop() ?? "")) return "images";
  throw new PveApiError(500, `unable to parse ${pluginName(storage)} volume name '${volname}'`);
}

/** check_volume_access for a create (`vztmpl`) or restore (`backup`); a host path is root's only. */
export function checkTemplateAccess(model: SimCluster, volid: string, type: "vztmpl" | "backup", isRoot: boolean): void {
  const m = /^([a-zA-Z][a-zA-Z0-9\-_.]*[a-zA-Z0-9]):(.+)$/.exec(volid);
  if (!m) {
    if (!isRoot) throw new PveApiError(500, "Only root can pass arbitrary filesystem paths.");
    return;
  }
  const storage = findStorage(model.state, m[1] ?? "");
  if (!storage) throw new PveApiError(500, `storage '${m[1]}' does not exist`);
  const vtype = contentTypeOf(storage, m[2] ?? "");
  if (vtype !== type) throw new PveApiError(500, `unable to use volume ${volid} - content type needs to be '${type}'`);
}
