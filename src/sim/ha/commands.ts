// crm commands (`ha-manager migrate|relocate <sid> <node>`) and what PVE reports about a move
// before it happens (PVE::HA::Config::get_resource_motion_info): resources in positive affinity
// move along, a resource in negative affinity on the target blocks the move.
import type { SimCluster } from "../cluster/model.js";
import type { TaskManager } from "../contract.js";
import { compiledRules, runHaManager, serviceOf } from "./manager.js";
import { guestOfSid, haManaged } from "./sid.js";

export interface BlockingResource {
  sid: string;
  cause: "resource-affinity";
}

export interface MotionInfo {
  comigrated: string[];
  blockingByNode: Record<string, BlockingResource[]>;
}

/** Resources the manager tracks (configured, not ignored), with their status entry. */
function tracked(model: SimCluster, sid: string) {
  const guest = guestOfSid(model, sid);
  return guest && haManaged(guest) ? { guest, ss: serviceOf(guest) } : undefined;
}

export function motionInfo(model: SimCluster, sid: string): MotionInfo {
  const info: MotionInfo = { comigrated: [], blockingByNode: {} };
  const self = guestOfSid(model, sid);
  if (!self || !haManaged(self)) return info;
  const rules = compiledRules(model);
  for (const csid of [...(rules.together.get(sid) ?? [])].sort()) if (tracked(model, csid)) info.comigrated.push(csid);
  for (const node of model.nodeNames().filter((n) => model.isNodeOnline(n))) {
    for (const csid of [...(rules.apart.get(sid) ?? [])].sort()) {
      const other = tracked(model, csid);
      if (!other) continue;
      if (other.guest.node !== node || (other.ss.target && other.ss.target !== node)) continue;
      info.blockingByNode[node] = [...(info.blockingByNode[node] ?? []), { sid: csid, cause: "resource-affinity" }];
    }
  }
  return info;
}

/**
 * The CRM reading `migrate|relocate <sid> <node>` (update_crm_commands, queue_resource_motion):
 * ignored when the node is offline or already the resource's, or when a resource in negative
 * affinity is there; resources in positive affinity get the same command. Then the manager runs.
 */
export function queueHaMotion(model: SimCluster, tasks: TaskManager, sid: string, task: "migrate" | "relocate", target: string): void {
  const self = tracked(model, sid);
  if (self && model.isNodeOnline(target) && self.guest.node !== target) {
    const rules = compiledRules(model);
    const blocked = [...(rules.apart.get(sid) ?? [])].some((csid) => {
      const other = tracked(model, csid);
      return other !== undefined && other.guest.node === target && (!other.ss.target || other.ss.target === target);
    });
    if (!blocked) {
      self.ss.cmd = [task, target];
      for (const csid of rules.together.get(sid) ?? []) {
        const other = tracked(model, csid);
        if (!other || other.guest.node === target || other.ss.target === target) continue;
        other.ss.cmd = [task, target];
      }
    }
  }
  runHaManager(model, tasks);
}
