// Storage listings and content: /storage, /nodes/{node}/storage[/{storage}[/status|/content]].
import { createHash } from "node:crypto";
import type { SimCluster } from "../cluster/model.js";
import type { StorageState, VolumeState } from "../cluster/types.js";
import {
  addVolume,
  findStorage,
  findVolume,
  isFileStorage,
  lvmVolumeGroup,
  removeVolume,
  storageOnNode,
  storageUsed,
  volumeOwner,
  volumesOn,
} from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { flag, nodeParam, num, sim, startGuestTask, str } from "./context.js";
import { simulatedUrlSize } from "./url-metadata.js";

type Entry = Record<string, string | number>;

function canSee(ctx: HandlerContext, storage: string): boolean {
  return ctx.hasPermission(`/storage/${storage}`, ["Datastore.Audit", "Datastore.AllocateSpace"], true);
}

function storageDigest(model: SimCluster): string {
  return createHash("sha1").update(JSON.stringify(model.state.storages)).digest("hex");
}

function storageConfig(model: SimCluster, s: StorageState): Entry {
  const entry: Entry = { storage: s.id, type: s.type, content: [...s.content].sort().join(","), digest: storageDigest(model) };
  if (s.shared) entry.shared = 1;
  if (s.nodes) entry.nodes = s.nodes.join(",");
  if (s.path) entry.path = s.path;
  if (s.type === "lvmthin") {
    entry.thinpool = "data";
    entry.vgname = "pve";
  }
  if (s.type === "lvm") entry.vgname = lvmVolumeGroup(s);
  if (s.type === "nfs") {
    entry.server = "10.10.10.5";
    entry.export = `/export/${s.id}`;
    entry.options = "vers=4.2";
  }
  if (s.content.includes("backup")) entry["prune-backups"] = s.pruneBackups ?? "keep-all=1";
  return entry;
}

function requireStorageConfig(model: SimCluster, id: string): StorageState {
  const s = findStorage(model.state, id);
  if (!s) throw new PveApiError(500, `storage '${id}' does not exist`);
  return s;
}

function listStorageConfig(ctx: HandlerContext): Entry[] {
  const model = sim(ctx);
  const type = str(ctx, "type");
  return model.state.storages
    .filter((s) => (type === undefined || s.type === type) && canSee(ctx, s.id))
    .map((s) => storageConfig(model, s));
}

function getStorageConfig(ctx: HandlerContext): Entry {
  const model = sim(ctx);
  return storageConfig(model, requireStorageConfig(model, str(ctx, "storage") ?? ""));
}

function nodeStorageStatus(model: SimCluster, s: StorageState, node: string): Entry {
  const used = storageUsed(model.state, s.id, node);
  return {
    storage: s.id,
    type: s.type,
    content: [...s.content].sort().join(","),
    shared: s.shared ? 1 : 0,
    enabled: 1,
    active: 1,
    total: s.total,
    used,
    avail: s.total - used,
    used_fraction: used / s.total,
  };
}

/** The storage of a /nodes/{node}/storage/{storage} path, or PVE's error. */
function pathStorage(ctx: HandlerContext): { model: SimCluster; storage: StorageState; node: string } {
  const model = sim(ctx);
  const node = nodeParam(ctx);
  model.requireNode(node);
  const id = str(ctx, "storage") ?? "";
  const storage = requireStorageConfig(model, id);
  if (!storageOnNode(storage, node)) throw new PveApiError(500, `storage '${id}' is not available on node '${node}'`);
  return { model, storage, node };
}

function listNodeStorage(ctx: HandlerContext): Entry[] {
  const model = sim(ctx);
  const node = nodeParam(ctx);
  model.requireNode(node);
  const content = str(ctx, "content")?.split(",");
  const only = str(ctx, "storage");
  return model.state.storages
    .filter((s) => storageOnNode(s, node) && canSee(ctx, s.id))
    .filter((s) => only === undefined || s.id === only)
    .filter((s) => !content || content.some((c) => s.content.includes(c)))
    .map((s) => nodeStorageStatus(model, s, node));
}

function storageStatus(ctx: HandlerContext): Entry {
  const { model, storage, node } = pathStorage(ctx);
  return nodeStorageStatus(model, storage, node);
}

function contentEntry(v: VolumeState): Entry {
  const entry: Entry = { volid: v.volid, content: v.content, format: v.format, size: v.size, ctime: v.ctime };
  if (v.vmid !== undefined) entry.vmid = v.vmid;
  if (v.content === "images" || v.content === "rootdir") entry.used = v.format === "qcow2" ? Math.round(v.size * 0.1) : v.size;
  if (v.parent) entry.parent = v.parent;
  if (v.notes !== undefined) entry.notes = v.notes;
  if (v.protected) entry.protected = 1;
  if (v.subtype) entry.subtype = v.subtype;
  return entry;
}

function listContent(ctx: HandlerContext): Entry[] {
  const { model, storage, node } = pathStorage(ctx);
  const content = str(ctx, "content");
  const vmid = num(ctx, "vmid");
  return volumesOn(model.state, storage.id, node)
    .filter((v) => content === undefined || v.content === content)
    .filter((v) => vmid === undefined || v.vmid === vmid)
    .filter((v) => v.vmid === undefined || ctx.hasPermission(`/vms/${v.vmid}`, ["VM.Audit"]) || canSee(ctx, storage.id))
    .sort((a, b) => a.volid.localeCompare(b.volid))
    .map(contentEntry);
}

function volidOf(storage: string, volume: string): string {
  return volume.startsWith(`${storage}:`) ? volume : `${storage}:${volume}`;
}

function pathVolume(ctx: HandlerContext): { model: SimCluster; volume: VolumeState; node: string } {
  const { model, storage, node } = pathStorage(ctx);
  const volid = volidOf(storage.id, str(ctx, "volume") ?? "");
  const volume = findVolume(model.state, volid, node);
  if (!volume) throw new PveApiError(500, `volume '${volid}' does not exist`);
  return { model, volume, node };
}

function getVolume(ctx: HandlerContext): Entry {
  const { volume } = pathVolume(ctx);
  const entry: Entry = { path: `/dev/pve/${volume.volid.split(":")[1]}`, size: volume.size, used: volume.size, format: volume.format };
  if (volume.notes !== undefined) entry.notes = volume.notes;
  entry.protected = volume.protected ? 1 : 0;
  return entry;
}

function deleteVolume(ctx: HandlerContext): string {
  const { model, volume, node } = pathVolume(ctx);
  const owner = volume.vmid ?? volumeOwner(volume.volid);
  const volname = volume.volid.slice(volume.storage.length + 1);
  // the answer is a task either way: refusals (protected backup, base in use) fail the task
  return startGuestTask(ctx, {
    type: "imgdel",
    vmid: owner !== undefined ? `${owner}@${volume.storage}` : volume.storage,
    kind: "config",
    work: (task) => {
      if (model.state.volumes.some((v) => v.parent === volume.volid)) {
        throw new Error(`base volume '${volname}' is still in use by linked clones`);
      }
      if (volume.protected) throw new Error(`cannot remove protected volume '${volname}' on '${volume.storage}'`);
      if (!removeVolume(model.state, volume.volid, node)) throw new Error(`volume '${volume.volid}' does not exist`);
      task.log(`Removed volume '${volume.volid}'`);
    },
  });
}

/** POST …/content: allocate a volume (`filename` vm-<vmid>-*, `size` in KiB or with M/G). */
function allocate(ctx: HandlerContext): string {
  const { model, storage, node } = pathStorage(ctx);
  const vmid = num(ctx, "vmid") ?? 0;
  const filename = str(ctx, "filename") ?? "";
  const sizeText = str(ctx, "size") ?? "";
  const m = /^(\d+)([MG])?$/.exec(sizeText);
  if (!m) throw new PveApiError(400, "Parameter verification failed.", { size: "value does not match the regex pattern" });
  const factor = m[2] === "G" ? 1024 ** 3 : m[2] === "M" ? 1024 ** 2 : 1024;
  const size = Number(m[1]) * factor;
  if (!new RegExp(`^(vm|base|subvol)-${vmid}-`).test(filename)) {
    throw new PveApiError(500, `illegal name '${filename}' - should be 'vm-${vmid}-*'`);
  }
  if (!storage.content.includes("images") && !storage.content.includes("rootdir")) {
    throw new PveApiError(500, `storage '${storage.id}' does not support vm images`);
  }
  const extension = /\.(raw|qcow2|vmdk)$/.exec(filename)?.[1];
  const format = str(ctx, "format") ?? extension ?? (isFileStorage(storage) ? "raw" : "raw");
  const base = filename.replace(/\.(raw|qcow2|vmdk)$/, "");
  const volname = isFileStorage(storage) ? `${vmid}/${base}.${format}` : base;
  const volid = `${storage.id}:${volname}`;
  if (findVolume(model.state, volid, node)) throw new PveApiError(500, `volume '${volid}' already exists`);
  addVolume(model.state, {
    volid,
    storage: storage.id,
    content: "images",
    format,
    size,
    ctime: model.now(),
    vmid,
    ...(storage.shared ? {} : { node }),
  });
  return volid;
}

const DOWNLOAD_DIRS: Record<string, string> = { iso: "iso", vztmpl: "vztmpl", import: "import" };

/** POST …/download-url: "downloads" a file into iso/vztmpl/import content (no network access). */
function downloadUrl(ctx: HandlerContext): string {
  const { model, storage, node } = pathStorage(ctx);
  const content = str(ctx, "content") ?? "";
  const filename = str(ctx, "filename") ?? "";
  const dir = DOWNLOAD_DIRS[content];
  if (!dir)
    throw new PveApiError(400, "Parameter verification failed.", {
      content: `value '${content}' does not have a value in the enumeration 'iso, vztmpl, import'`,
    });
  if (!storage.content.includes(content)) {
    throw new PveApiError(500, `storage '${storage.id}' is not configured for content-type '${content}'`);
  }
  const volid = `${storage.id}:${dir}/${filename}`;
  if (findVolume(model.state, volid, node)) throw new PveApiError(500, `refusing to override existing file '${filename}'`);
  const url = str(ctx, "url") ?? "";
  const size = simulatedUrlSize(url);
  return startGuestTask(ctx, {
    type: "download",
    vmid: filename,
    kind: "backup",
    bytes: size,
    work: (task) => {
      task.log(`downloading ${url} to /var/lib/vz/template/${dir}/${filename}`);
      const format =
        content === "iso"
          ? "iso"
          : content === "vztmpl"
            ? filename.endsWith(".tar.zst")
              ? "tzst"
              : "tgz"
            : (filename.split(".").pop() ?? "raw");
      addVolume(model.state, {
        volid,
        storage: storage.id,
        ...(storage.shared ? {} : { node }),
        content,
        format,
        size,
        ctime: model.now(),
      });
      task.log("download of file finished");
    },
  });
}

function updateVolume(ctx: HandlerContext): null {
  const { volume } = pathVolume(ctx);
  const notes = str(ctx, "notes");
  if (notes !== undefined) volume.notes = notes;
  if (ctx.params.protected !== undefined) volume.protected = flag(ctx, "protected");
  return null;
}

export function registerStorageHandlers(router: Router): void {
  router.add("GET", "/storage", listStorageConfig);
  router.add("GET", "/storage/{storage}", getStorageConfig);
  router.add("GET", "/nodes/{node}/storage", listNodeStorage);
  router.add("GET", "/nodes/{node}/storage/{storage}/status", storageStatus);
  router.add("GET", "/nodes/{node}/storage/{storage}/content", listContent);
  router.add("POST", "/nodes/{node}/storage/{storage}/content", allocate);
  router.add("GET", "/nodes/{node}/storage/{storage}/content/{volume}", getVolume);
  router.add("PUT", "/nodes/{node}/storage/{storage}/content/{volume}", updateVolume);
  router.add("DELETE", "/nodes/{node}/storage/{storage}/content/{volume}", deleteVolume);
  router.add("POST", "/nodes/{node}/storage/{storage}/download-url", downloadUrl);
}
