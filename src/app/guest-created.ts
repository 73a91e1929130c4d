// When a guest was created, to tell its backup archives from those a previous guest with the
// same vmid left behind (a vmid is reused once its guest is destroyed; vzdump archives stay).
// PVE records it for VMs only: qemu-server writes `meta: creation-qemu=...,ctime=<epoch>` when
// it creates a VM; a restore keeps the archive's `meta` (so a restored guest still owns its
// older archives) and a clone copies its source's (an older time: its archives count as its
// own, as before). pve-container records no creation time: for containers it stays unknown and
// every archive of the vmid counts as the guest's.
import type { PveClient } from "../api/index.js";
import type { GuestType } from "../plan/intent.js";
import { GUEST_KINDS } from "../resources/index.js";

export interface GuestRef {
  type: GuestType;
  node: string;
  vmid: number;
}

/** The guest's creation time (seconds since the epoch) when PVE records it, else undefined. */
export async function guestCreatedAt(client: PveClient, guest: GuestRef): Promise<number | undefined> {
  if (!GUEST_KINDS[guest.type].rules.recordsCreationTime) return undefined;
  const config = (await client.request("GET", `/nodes/${guest.node}/${guest.type}/${guest.vmid}/config`)) as { meta?: unknown };
  const ctime = typeof config.meta === "string" ? /(?:^|,)ctime=(\d+)(?:,|$)/.exec(config.meta)?.[1] : undefined;
  return ctime === undefined ? undefined : Number(ctime);
}

/** Whether an archive made at `ctime` predates the guest: a previous guest's with the same vmid. */
export function madeBeforeGuest(ctime: number | undefined, createdAt: number | undefined): boolean {
  return ctime !== undefined && createdAt !== undefined && ctime < createdAt;
}
