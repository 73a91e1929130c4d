// GET /nodes/{node}/vzdump/extractconfig as pve-manager's API2/VZDump.pm answers it: the guest
// config a vzdump archive holds, as its config file's text. The caller needs access to the
// backup volume (Datastore.AllocateSpace on its storage) and VM.Backup on the guest it was made of.
import { printConfigFile } from "../../pve/index.js";
import { findVolume } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { nodeParam, sim, str } from "./context.js";

function extractConfig(ctx: HandlerContext): string {
  const model = sim(ctx);
  const node = nodeParam(ctx);
  model.requireNode(node);
  const volid = str(ctx, "volume") ?? "";
  const storage = volid.split(":")[0] ?? "";
  ctx.checkPermission(`/storage/${storage}`, ["Datastore.AllocateSpace"]);
  const volume = findVolume(model.state, volid, node);
  if (volume?.content !== "backup" || volume.backup === undefined) throw new PveApiError(500, `volume '${volid}' does not exist`);
  const owner = /vzdump-(?:qemu|lxc)-(\d+)-/.exec(volid)?.[1];
  if (owner !== undefined) ctx.checkPermission(`/vms/${owner}`, ["VM.Backup"]);
  return printConfigFile({
    kind: volume.backup.type,
    current: Object.fromEntries(Object.entries(volume.backup.config).map(([k, v]) => [k, String(v)])),
  });
}

export function registerExtractConfigHandler(router: Router): void {
  router.add("GET", "/nodes/{node}/vzdump/extractconfig", extractConfig);
}
