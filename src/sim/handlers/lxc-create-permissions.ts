// What pve-container's create_vm checks before it forks (API2/LXC.pm): the pool first
// (check_perm_modify on /pool/<pool>), VM.Allocate on the guest or its pool, then
// check_ct_modify_config_perm for every option the request sets, each on /vms/<vmid> or the
// pool (check_vm_perm with the pool), a NIC's bridge included (check_bridge_access: SDN.Use).
import { nicBridge } from "../cluster/nics.js";
import { bridgeZone } from "../cluster/sdn.js";
import type { GuestConfig } from "../cluster/types.js";
import { type HandlerContext, PveApiError } from "../contract.js";
import { sim } from "./context.js";
import { withCreatePool } from "./pool-checks.js";

function rootOnly(what: string): PveApiError {
  return new PveApiError(403, `Permission check failed (${what})`);
}

/** The mount point's type as pve-container parses it: a path is a bind mount (or a device under /dev). */
function mountType(value: string): "volume" | "bind" | "device" {
  const first = value.split(",")[0] ?? "";
  const volume = first.startsWith("volume=") ? first.slice("volume=".length) : first;
  if (!volume.startsWith("/")) return "volume";
  return volume.startsWith("/dev/") ? "device" : "bind";
}

/** `features` on create: an unprivileged container may ask for nesting alone (VM.Allocate); anything else is root@pam's. */
function checkFeatures(check: (privs: string[]) => void, value: string, unprivileged: boolean): void {
  if (!unprivileged) throw rootOnly("changing feature flags for privileged container is only allowed for root@pam");
  // A new container has no old features: every flag written counts, even one set to 0.
  const flags = value
    .split(",")
    .map((part) => part.split("="))
    .filter(([name]) => name !== "");
  const nestingOnly = flags.length === 1 && flags[0]?.[0] === "nesting" && flags[0][1] !== "0";
  if (flags.length > 0 && !nestingOnly) throw rootOnly("changing feature flags (except nesting) is only allowed for root@pam");
  if (nestingOnly) check(["VM.Allocate"]);
}

function checkOption(ctx: HandlerContext, check: (privs: string[]) => void, key: string, value: string, unprivileged: boolean): void {
  if (key === "cores" || key === "cpuunits" || key === "cpulimit") check(["VM.Config.CPU"]);
  else if (key === "rootfs" || /^mp\d+$/.test(key)) {
    check(["VM.Config.Disk"]);
    const type = mountType(value);
    if (type !== "volume") throw rootOnly(`mount point type ${type} is only allowed for root@pam`);
  } else if (key === "memory" || key === "swap") check(["VM.Config.Memory"]);
  else if (/^net\d+$/.test(key)) {
    check(["VM.Config.Network"]);
    const bridge = nicBridge("lxc", key, value);
    if (bridge) ctx.checkPermission(`/sdn/zones/${bridgeZone(sim(ctx).state, bridge)}/${bridge}`, ["SDN.Use"]);
  } else if (/^dev\d+$/.test(key)) throw rootOnly("configuring device passthrough is only allowed for root@pam");
  else if (key === "nameserver" || key === "searchdomain" || key === "hostname") check(["VM.Config.Network"]);
  else if (key === "features") checkFeatures(check, value, unprivileged);
  else if (key === "hookscript") throw rootOnly("changing the hookscript is only allowed for root@pam");
  else check(["VM.Config.Options"]);
}

/**
 * The privilege checks of a container create, in create_vm's order, for the options of
 * `requested` (the request without its control parameters). root@pam passes them all.
 */
export function checkLxcCreatePermissions(
  ctx: HandlerContext,
  vmid: number,
  pool: string | undefined,
  requested: GuestConfig,
  unprivileged: boolean,
): void {
  if (ctx.auth.userid === "root@pam" && ctx.auth.tokenid === undefined) return;
  // check_perm_modify on the pool: Permissions.Modify there, or the pool's own Pool.Allocate.
  if (pool !== undefined) ctx.checkPermission(`/pool/${pool}`, ["Permissions.Modify", "Pool.Allocate"], true);
  // pve-container raises a bare "Permission check failed" here (no path, unlike qemu-server's check_vm_perm).
  const allocate =
    ctx.hasPermission(`/vms/${vmid}`, ["VM.Allocate"]) || (pool !== undefined && ctx.hasPermission(`/pool/${pool}`, ["VM.Allocate"]));
  if (!allocate) throw new PveApiError(403, "Permission check failed");
  const inPool = withCreatePool(ctx, vmid, pool);
  const check = (privs: string[]) => inPool.checkPermission(`/vms/${vmid}`, privs);
  for (const key of Object.keys(requested).sort()) checkOption(ctx, check, key, String(requested[key]), unprivileged);
}
