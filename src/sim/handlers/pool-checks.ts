// qemu-server and pve-container check a guest's privileges with `check_vm_perm(user, vmid,
// pool, privs)` while creating it: on /pool/<pool> first when the create names a pool, then on
// /vms/<vmid>. The new guest is not a pool member yet, so the pool's ACL cannot reach it
// through membership: the checks are redirected here instead.
import type { HandlerContext } from "../contract.js";

/** `ctx` whose checks on `/vms/<vmid>` also pass with the privileges held on `/pool/<pool>`. */
export function withCreatePool(ctx: HandlerContext, vmid: number, pool: string | undefined): HandlerContext {
  if (pool === undefined) return ctx;
  const guest = `/vms/${vmid}`;
  const hasPermission = (path: string, privs: string[], any?: boolean): boolean =>
    (path === guest && ctx.hasPermission(`/pool/${pool}`, privs, any)) || ctx.hasPermission(path, privs, any);
  return Object.assign(Object.create(ctx) as HandlerContext, {
    hasPermission,
    checkPermission: (path: string, privs: string[], any?: boolean): void => {
      if (!hasPermission(path, privs, any)) ctx.checkPermission(path, privs, any);
    },
  });
}
