// POST /nodes/{node}/migrateall (pve-manager's migrateall): one `migrateall` task that migrates
// every guest of the node (or those in `vms`), in PVE's order (VMIDs sorted as strings), at
// most `max-workers` migrations at once. Containers migrate in restart mode when running; a VM
// is checked first as PVE does (local disks of a running VM without with-local-disks, local
// resources, storages or mapped resources missing on the target) and skipped with a warning.
// An HA-managed guest gets an `hamigrate` task (the HA manager moves it).
import { splitList } from "../../pve/index.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router, type TaskHandle } from "../contract.js";
import { queueHaMotion } from "../ha/commands.js";
import { haManaged, sidOf } from "../ha/sid.js";
import { nodeParam, num, sim, str } from "./context.js";
import { startMigration } from "./migrate-task.js";
import { vmPreconditions } from "./migrate-preconditions.js";

type Row = Record<string, unknown>;

function checkPermissions(ctx: HandlerContext): void {
  if (ctx.hasPermission("/", ["VM.Migrate"])) return;
  const vms = splitList(str(ctx, "vms") ?? "");
  if (vms.length === 0) throw new PveApiError(403, "Permission check failed (/, VM.Migrate)");
  for (const vmid of vms) ctx.checkPermission(`/vms/${vmid}`, ["VM.Migrate"]);
}

function maxWorkers(ctx: HandlerContext, model: SimCluster): number {
  const configured = Number(model.state.datacenterOptions?.max_workers ?? 0);
  const value = num(ctx, "max-workers") || num(ctx, "maxworkers") || configured;
  if (!value) throw new PveApiError(500, "either 'max-workers' parameter or max_workers in datacenter.cfg must be set!");
  return value;
}

/** create_migrate_worker's precondition check of a VM: why it is skipped, if so. */
function vmBlockers(model: SimCluster, guest: GuestState, target: string, withLocalDisks: boolean): string {
  const pre = vmPreconditions(model, guest);
  const disks = pre.local_disks as Row[];
  const resources = pre.local_resources as string[];
  const reasons = ((pre.not_allowed_nodes as Record<string, Row>)[target] ?? {}) as Row;
  let out = "";
  if (pre.running === 1 && !withLocalDisks && disks.length > 0) out += `\n  Has local disks: ${disks.map((d) => d.volid).join(", ")}`;
  if (resources.length > 0) out += `\n  Has local resources: ${resources.join(", ")}`;
  const storages = reasons.unavailable_storages as string[] | undefined;
  if (storages) out += `\n  Has unavailable storages: ${storages.join(", ")}`;
  const mapped = reasons["unavailable-resources"] as string[] | undefined;
  if (mapped) out += `\n  Has unavailable resources: ${mapped.join(", ")}`;
  return out;
}

/** Starts one guest's migration; resolves when it has ended (at once for an HA request). */
function migrateOne(
  ctx: HandlerContext,
  model: SimCluster,
  guest: GuestState,
  target: string,
  withLocalDisks: boolean,
  task: TaskHandle,
): Promise<void> | undefined {
  const running = guest.status === "running";
  if (guest.type === "qemu") {
    task.log(`Check VM ${guest.vmid}: `);
    const blockers = vmBlockers(model, guest, target, withLocalDisks);
    if (blockers) {
      task.log(`skip VM ${guest.vmid} - precondition check failed:`);
      task.warn(blockers.replace(/^\n/, ""));
      return undefined;
    }
    task.log("precondition check passed");
  }
  task.log(`Migrating ${guest.type === "qemu" ? "VM" : "CT"} ${guest.vmid}`);
  if (haManaged(guest)) {
    return new Promise((resolve) => {
      ctx.tasks.start({
        node: guest.node,
        type: "hamigrate",
        id: String(guest.vmid),
        kind: "config",
        onFailure: () => resolve(),
        work: (t) => {
          t.log(`Requesting HA migration for ${guest.type === "qemu" ? "VM" : "CT"} ${guest.vmid} to node ${target}`);
          queueHaMotion(model, ctx.tasks, sidOf(guest), "migrate", target);
          resolve();
        },
      });
    });
  }
  return new Promise((resolve) => {
    startMigration(model, ctx.tasks, guest, {
      target,
      online: guest.type === "qemu" && running,
      restart: guest.type === "lxc" && running,
      withLocalDisks,
      onDone: () => resolve(),
    });
  });
}

function migrateAll(ctx: HandlerContext): string {
  checkPermissions(ctx);
  const model = sim(ctx);
  const node = nodeParam(ctx);
  const target = str(ctx, "target") ?? "";
  if (target === node) throw new PveApiError(400, "Parameter verification failed.", { target: "target is local node." });
  if (!model.node(target)) throw new PveApiError(500, `no such cluster node '${target}'`);
  const workers = maxWorkers(ctx, model);
  const filter = str(ctx, "vms") === undefined ? undefined : new Set(splitList(str(ctx, "vms") ?? ""));
  const withLocalDisks = ctx.params["with-local-disks"] !== undefined && Number(ctx.params["with-local-disks"]) === 1;
  return ctx.tasks.start({
    node,
    type: "migrateall",
    id: "",
    kind: "config",
    supervisor: true,
    work: async (task) => {
      const guests = model.state.guests
        .filter((g) => g.node === node && (!filter || filter.has(String(g.vmid))))
        .sort((a, b) => String(a.vmid).localeCompare(String(b.vmid)));
      if (guests.length === 0) {
        task.warn("no virtual guests matched, nothing to do..");
        return;
      }
      const running = new Set<Promise<void>>();
      let started = 0;
      for (const guest of guests) {
        let job: Promise<void> | undefined;
        try {
          job = migrateOne(ctx, model, guest, target, withLocalDisks, task);
        } catch (err) {
          task.warn((err as Error).message);
        }
        if (!job) continue;
        started++;
        const tracked: Promise<void> = job.then(() => {
          running.delete(tracked);
        });
        running.add(tracked);
        while (running.size >= workers) await Promise.race(running);
      }
      await Promise.all(running);
      if (started <= 0) throw new Error("no migrations worker started...");
      task.log(`All jobs finished, used ${started} workers in total.`);
    },
  });
}

export function registerMigrateAllHandlers(router: Router): void {
  router.add("POST", "/nodes/{node}/migrateall", migrateAll);
}
