// The simulated cluster: nodes, storages, volumes, guests, pools and backup jobs, plus the
// lookups every handler needs (with PVE's error messages).
import { type ClusterModel, PveApiError, type Random, type TaskManager } from "../contract.js";
import { runHaManager } from "../ha/manager.js";
import { configDigest } from "./config-text.js";
import { generateMac, generateUuid } from "./ids.js";
import type { ClusterState, GuestState, GuestType, NodeState, PoolState } from "./types.js";

export interface ModelDeps {
  random: Random;
  now: () => number;
}

export function configPath(guest: { type: GuestType; node: string; vmid: number }): string {
  return guest.type === "qemu" ? `nodes/${guest.node}/qemu-server/${guest.vmid}.conf` : `nodes/${guest.node}/lxc/${guest.vmid}.conf`;
}

export class SimCluster implements ClusterModel {
  constructor(
    readonly state: ClusterState,
    readonly deps: ModelDeps,
  ) {}

  // --- ClusterModel (platform seam) ---
  nodeNames(): string[] {
    return this.state.nodes.map((n) => n.name);
  }
  isNodeOnline(node: string): boolean {
    return this.state.nodes.find((n) => n.name === node)?.online ?? false;
  }
  setNodeOnline(node: string, online: boolean): void {
    const n = this.state.nodes.find((x) => x.name === node);
    if (!n) return;
    if (!n.online && online) n.bootTime = this.now();
    n.online = online;
    if (!online) {
      // A node that goes away takes its running guests with it.
      for (const g of this.state.guests) {
        if (g.node === node && g.status === "running") this.markStopped(g);
      }
    }
  }
  /** The HA manager recovers a failed node's resources and fails back to a returning one. */
  nodeLivenessChanged(tasks: TaskManager): void {
    runHaManager(this, tasks);
  }
  setGuestLock(vmid: number, lock: string | undefined): boolean {
    const guest = this.guest(vmid);
    if (!guest) return false;
    if (lock === undefined) delete guest.config.lock;
    else guest.config.lock = lock;
    return true;
  }
  toJSON(): unknown {
    return this.state;
  }
  poolOfGuest(vmid: number): string | undefined {
    return this.poolOf(vmid);
  }
  /** Every pool's guests and storages: GET /access/permissions lists their paths (get_effective_permissions). */
  poolMembers(): Array<{ poolid: string; vmids: number[]; storages: string[] }> {
    return this.state.pools.map((p) => ({ poolid: p.poolid, vmids: [...p.vmids], storages: [...p.storages] }));
  }
  poolOfStorage(storage: string): string | undefined {
    return this.state.pools.find((p) => p.storages.includes(storage))?.poolid;
  }
  clusterName(): string {
    return this.state.clusterName;
  }

  // --- shared helpers ---
  now(): number {
    return Math.floor(this.deps.now());
  }
  newMac(): string {
    return generateMac(this.deps.random, this.state.macPrefix);
  }
  newUuid(): string {
    return generateUuid(this.deps.random);
  }

  node(name: string): NodeState | undefined {
    return this.state.nodes.find((n) => n.name === name);
  }

  /** The node of a request path, or PVE's error for an unknown host name. */
  requireNode(name: string): NodeState {
    const node = this.node(name);
    if (!node) {
      throw new PveApiError(500, `hostname lookup '${name}' failed - failed to get address info for: ${name}: Name or service not known`);
    }
    return node;
  }

  guest(vmid: number): GuestState | undefined {
    return this.state.guests.find((g) => g.vmid === vmid);
  }

  /** The guest of a request path: exists, is of this type and lives on this node. */
  requireGuest(node: string, vmid: number, type: GuestType): GuestState {
    this.requireNode(node);
    const guest = this.guest(vmid);
    if (!guest || guest.type !== type || guest.node !== node) {
      throw new PveApiError(500, `Configuration file '${configPath({ type, node, vmid })}' does not exist`);
    }
    return guest;
  }

  digest(guest: GuestState): string {
    return configDigest(guest);
  }

  /** PVE's collision check before any create/clone/restore. */
  assertVmidFree(vmid: number, label: "VM" | "CT"): void {
    const existing = this.guest(vmid);
    if (existing) {
      const what = existing.type === "qemu" ? "VM" : "CT";
      throw new PveApiError(500, `unable to create ${label} ${vmid} - ${what} ${vmid} already exists on node '${existing.node}'`);
    }
  }

  pool(poolid: string): PoolState | undefined {
    return this.state.pools.find((p) => p.poolid === poolid);
  }

  poolOf(vmid: number): string | undefined {
    return this.state.pools.find((p) => p.vmids.includes(vmid))?.poolid;
  }

  addToPool(poolid: string, vmid: number): void {
    const pool = this.pool(poolid);
    if (pool && !pool.vmids.includes(vmid)) pool.vmids.push(vmid);
  }

  removeFromPools(vmid: number): void {
    for (const pool of this.state.pools) pool.vmids = pool.vmids.filter((v) => v !== vmid);
  }

  markStopped(guest: GuestState): void {
    guest.status = "stopped";
    guest.qmpstatus = "stopped";
    delete guest.startedAt;
  }

  markRunning(guest: GuestState): void {
    guest.status = "running";
    guest.qmpstatus = "running";
    guest.startedAt = this.now();
  }

  /** Seconds the guest has been running (0 when stopped). */
  uptime(guest: GuestState, now = this.now()): number {
    return guest.status === "running" && guest.startedAt !== undefined ? Math.max(0, now - guest.startedAt) : 0;
  }
}
