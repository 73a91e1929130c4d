// PUT /nodes/{node}/lxc/{vmid}/resize as pve-container does it: every check runs before the
// task is started (so a shrink or a same-size request is a 500, not a failed task), then again
// inside the `resize` task, which grows the volume and writes the new `size=`.
import { formatSize, tryParseSize } from "../../pve/index.js";
import { withVolume } from "../cluster/drives.js";
import { checkLock } from "../cluster/guest-config.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState, VolumeState } from "../cluster/types.js";
import { findVolume, volumeOwner } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { pathGuest, sim, startGuestTask, str } from "./context.js";
import { assertUnmodified, mountPoint } from "./lxc-mountpoint.js";

interface ResizePlan {
  volume: VolumeState;
  newSize: number;
}

/** load_and_check of resize_vm: the checks PVE makes before and again inside the task. */
function checkResize(ctx: HandlerContext, model: SimCluster, guest: GuestState, disk: string, sizeText: string): ResizePlan {
  checkLock(guest);
  assertUnmodified(model, guest, str(ctx, "digest"));
  const mp = mountPoint(guest, disk);
  if (mp.volid === undefined) throw new PveApiError(500, `unable to parse volume ID '${mp.text.split(",")[0]}'`);
  const owner = volumeOwner(mp.volid);
  if (owner !== guest.vmid) throw new PveApiError(500, `can't resize mount point owned by another container (${owner ?? ""})`);
  ctx.checkPermission(`/storage/${mp.volid.split(":")[0]}`, ["Datastore.AllocateSpace"]);
  const volume = findVolume(model.state, mp.volid, guest.node);
  if (!volume) throw new PveApiError(500, `Could not determine current size of volume '${mp.volid}'`);
  const relative = sizeText.startsWith("+");
  const requested = tryParseSize(relative ? sizeText.slice(1) : sizeText);
  if (requested === undefined) throw new PveApiError(500, "invalid size string");
  const newSize = Math.floor(relative ? volume.size + requested : requested);
  if (newSize < volume.size) throw new PveApiError(500, "unable to shrink disk size");
  if (newSize === volume.size) throw new PveApiError(500, "disk is already at specified size");
  return { volume, newSize };
}

function resizeCt(ctx: HandlerContext): string {
  const guest = pathGuest(ctx, "lxc");
  const model = sim(ctx);
  const disk = str(ctx, "disk") ?? "";
  const size = str(ctx, "size") ?? "";
  checkResize(ctx, model, guest, disk, size);
  return startGuestTask(ctx, {
    type: "resize",
    vmid: guest.vmid,
    kind: "resize",
    work: (task) => {
      const { volume, newSize } = checkResize(ctx, model, guest, disk, size);
      const old = volume.size;
      volume.size = newSize;
      guest.config[disk] = withVolume("lxc", disk, String(guest.config[disk]), volume.volid, newSize);
      task.log(`  Size of volume ${volume.volid} changed from ${formatSize(old)} to ${formatSize(newSize)}.`);
      if (volume.format === "raw") task.log(`resize2fs: the filesystem on ${volume.volid} is now ${newSize / 4096} (4k) blocks long.`);
    },
  });
}

export function registerLxcResize(router: Router): void {
  router.add("PUT", "/nodes/{node}/lxc/{vmid}/resize", resizeCt);
}
