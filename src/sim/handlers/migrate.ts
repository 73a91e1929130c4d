// POST /nodes/{node}/{qemu|lxc}/{vmid}/migrate (qemu-server's / pve-container's migrate_vm):
// what the API refuses answers the request; then either the migration task runs
// (migrate-task.ts) or, for a guest HA manages, an `hamigrate` task hands the move to the HA
// manager as `ha-manager migrate` does.
import { splitList } from "../../pve/index.js";
import { driveVolume, isVolumeKey } from "../cluster/drives.js";
import { checkLock } from "../cluster/guest-config.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState, GuestType } from "../cluster/types.js";
import { findStorage, storageOnNode } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { queueHaMotion } from "../ha/commands.js";
import { haManaged, sidOf } from "../ha/sid.js";
import { flag, guestLabel, pathGuest, sim, str } from "./context.js";
import { type StorageMap, startMigration, unavailableOn } from "./migrate-task.js";

/** PVE::JSONSchema::parse_idmap for storage ids, with its messages. */
export function parseStorageMap(text: string): StorageMap {
  const map: StorageMap = { entries: {} };
  const idOk = (id: string) => /^[a-z][a-z0-9\-_.]*[a-z0-9]$/i.test(id);
  for (const entry of splitList(text)) {
    const pair = /^([^:]+):([^:]+)$/.exec(entry);
    if (entry === "1") {
      map.identity = true;
    } else if (pair) {
      const [source, target] = [pair[1] as string, pair[2] as string];
      const bad = [source, target].find((id) => !idOk(id));
      if (bad) throw new Error(`entry '${entry}' contains invalid ID - storage ID '${bad}' contains illegal characters\n`);
      if (map.entries[source] !== undefined) throw new Error(`duplicate mapping for source '${source}'\n`);
      map.entries[source] = target;
    } else {
      if (!idOk(entry)) throw new Error(`entry '${entry}' contains invalid ID - storage ID '${entry}' contains illegal characters\n`);
      if (map.default !== undefined) throw new Error("default target ID can only be provided once\n");
      map.default = entry;
    }
  }
  if (map.identity && (map.default !== undefined || Object.keys(map.entries).length > 0)) {
    throw new Error("identity mapping cannot be combined with other mappings\n");
  }
  return map;
}

/** check_storage_access_migrate: the target storage enabled on the node, the right to allocate, the content. */
function checkTargetStorage(ctx: HandlerContext, model: SimCluster, type: GuestType, id: string, node: string): void {
  const storage = findStorage(model.state, id);
  if (!storage) throw new PveApiError(500, `storage '${id}' does not exist`);
  if (!storage.enabled) throw new PveApiError(500, `storage '${id}' is disabled`);
  if (!storageOnNode(storage, node)) throw new PveApiError(500, `storage '${id}' is not available on node '${node}'`);
  ctx.checkPermission(`/storage/${id}`, ["Datastore.AllocateSpace"]);
  const content = type === "qemu" ? "images" : "rootdir";
  if (!storage.content.includes(content)) {
    throw new PveApiError(
      500,
      type === "qemu" ? `storage '${id}' does not support vm images` : `storage '${id}' does not support CT rootdirs`,
    );
  }
}

/** The storage map parameter (`targetstorage` / `target-storage`), checked as the API does. */
function storageMapParam(ctx: HandlerContext, model: SimCluster, guest: GuestState, target: string): StorageMap | undefined {
  const name = guest.type === "qemu" ? "targetstorage" : "target-storage";
  const text = str(ctx, name);
  if (!text) return undefined;
  let map: StorageMap;
  try {
    map = parseStorageMap(text);
  } catch (err) {
    throw new PveApiError(400, "Parameter verification failed.", { [name]: `failed to parse storage map: ${(err as Error).message}` });
  }
  if (!map.identity) ctx.checkPermission(`/vms/${guest.vmid}`, ["VM.Config.Disk"]);
  for (const id of Object.values(map.entries)) checkTargetStorage(ctx, model, guest.type, id, target);
  if (map.default !== undefined) checkTargetStorage(ctx, model, guest.type, map.default, target);
  return map;
}

/** check_storage_availability: every volume of the VM's current config has its storage on the target. */
function checkVmStorages(model: SimCluster, guest: GuestState, target: string): void {
  for (const [key, value] of Object.entries(guest.config)) {
    if (!isVolumeKey("qemu", key) || /^unused\d+$/.test(key)) continue;
    const volid = driveVolume(String(value));
    const problem = volid === undefined ? undefined : unavailableOn(model, volid, target);
    if (problem) throw new PveApiError(500, problem);
  }
}

/**
 * The checks the API makes before it forks (errors answer the request). qemu-server's
 * migrate_vm also checks the lock and, unless a storage map says otherwise, that every volume
 * of the current config has its storage on the target; pve-container's leaves both to the task.
 */
function checkRequest(ctx: HandlerContext, model: SimCluster, guest: GuestState, target: string): StorageMap | undefined {
  if (target === guest.node) throw new PveApiError(400, "Parameter verification failed.", { target: "target is local node." });
  if (!model.node(target)) throw new PveApiError(500, `no such cluster node '${target}'`);
  const running = guest.status === "running";
  if (guest.type === "lxc") {
    if (running && !flag(ctx, "online") && !flag(ctx, "restart")) {
      throw new PveApiError(500, "can't migrate running container without --online or --restart");
    }
    return storageMapParam(ctx, model, guest, target);
  }
  for (const name of ["force", "migration_type", "migration_network"]) {
    const set = name === "force" ? flag(ctx, name) : Boolean(str(ctx, name));
    if (set && ctx.auth.userid !== "root@pam") {
      throw new PveApiError(400, "Parameter verification failed.", { [name]: "Only root may use this option." });
    }
  }
  checkLock(guest);
  if (running && !flag(ctx, "online")) throw new PveApiError(500, "can't migrate running VM without --online");
  const map = storageMapParam(ctx, model, guest, target);
  if (!map || map.identity) checkVmStorages(model, guest, target);
  return map;
}

/** The `hamigrate` task: the request becomes a crm command for the HA manager. */
function haMigrateTask(ctx: HandlerContext, model: SimCluster, guest: GuestState, target: string): string {
  return ctx.tasks.start({
    node: guest.node,
    type: "hamigrate",
    id: String(guest.vmid),
    kind: "config",
    work: (task) => {
      task.log(`Requesting HA migration for ${guestLabel(guest)} ${guest.vmid} to node ${target}`);
      queueHaMotion(model, ctx.tasks, sidOf(guest), "migrate", target);
    },
  });
}

function migrate(type: GuestType) {
  return (ctx: HandlerContext): string => {
    const guest = pathGuest(ctx, type);
    const model = sim(ctx);
    const target = str(ctx, "target") ?? "";
    const storageMap = checkRequest(ctx, model, guest, target);
    if (haManaged(guest)) return haMigrateTask(ctx, model, guest, target);
    const online = flag(ctx, "online") && guest.status === "running";
    return startMigration(model, ctx.tasks, guest, {
      target,
      online: type === "qemu" ? online : flag(ctx, "online"),
      restart: type === "lxc" && flag(ctx, "restart"),
      withLocalDisks: flag(ctx, "with-local-disks"),
      force: flag(ctx, "force"),
      ...(storageMap ? { storageMap } : {}),
    });
  };
}

export function registerMigrateHandlers(router: Router): void {
  router.add("POST", "/nodes/{node}/qemu/{vmid}/migrate", migrate("qemu"));
  router.add("POST", "/nodes/{node}/lxc/{vmid}/migrate", migrate("lxc"));
}
