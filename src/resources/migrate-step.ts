// The migration step every kind plans the same way (POST …/migrate), and the step that records
// where pvectl placed a guest. How PVE moves a guest depends on its state and kind: a running VM
// live (`online`, copying node-local disks with `with-local-disks`), a running container by a
// restart on the target (PVE cannot live-migrate containers: the guest is down meanwhile), a
// stopped guest offline. The summary says from where to where, how, and what PVE copies.
import type { MigrateIntent, MigrationMode } from "../plan/intent.js";
import type { ApiCall, ParamValue, StepDraft } from "../plan/types.js";
import { humanSize, printTags } from "./formats.js";
import { placementTag, withPlacementRecord } from "./placement-record.js";

/** A volume of the guest as a migration sees it. */
export interface MigratingVolume {
  slot: string;
  volume: string;
  storage: string;
  sizeBytes?: number;
  /** A CD-ROM's image: PVE does not copy it (a node-local one stops the migration). */
  cdrom?: boolean;
}

/** What a kind tells about a live guest for moving it (its qemu/lxc `migration.ts`). */
export interface MigrationFacts {
  volumes: MigratingVolume[];
  bridges: string[];
  /** The memory the guest is given (MiB in its config, here in bytes). */
  memoryBytes: number;
  /** PVE moves a running guest of this kind live (VMs) rather than by a restart (containers). */
  live: boolean;
  /** Why PVE cannot move it to any node (host devices, the host's CD-ROM drive, a bind mount). */
  blockers: string[];
}

/** The kind's migrate call (the path names the node the guest is on). */
export type MigrateCall = (
  node: string,
  vmid: number,
  body: Record<string, ParamValue>,
  intent: Omit<MigrateIntent, "kind" | "op">,
) => ApiCall;

interface MovingGuest {
  vmid: number;
  node: string;
  name?: string;
  status: "running" | "stopped";
  tags: string[];
}

function modeOf(guest: MovingGuest, facts: MigrationFacts): MigrationMode {
  if (guest.status !== "running") return "offline";
  return facts.live ? "online" : "restart";
}

function copies(local: MigratingVolume[]): string {
  if (local.length === 0) return "nothing to copy: its volumes are on shared storage";
  const each = local.map((v) => `${v.slot}${v.sizeBytes !== undefined ? ` ${humanSize(v.sizeBytes)}` : ""} on ${v.storage}`);
  return `copies ${each.join(", ")}`;
}

function how(mode: MigrationMode, from: string, target: string): string {
  if (mode === "online") return "online: paused only briefly at the switch-over";
  if (mode === "restart") return `restart: stopped on ${from}, started on ${target}; down meanwhile`;
  return "offline";
}

/**
 * The migration of `guest` to `target`. `isShared`: whether a storage is shared (its volumes stay
 * where they are); every other volume is copied to the same storage id on the target.
 */
export function migrateStep(
  call: MigrateCall,
  guest: MovingGuest,
  target: string,
  facts: MigrationFacts,
  isShared: (storage: string) => boolean,
): StepDraft {
  const mode = modeOf(guest, facts);
  const local = facts.volumes.filter((v) => !v.cdrom && !isShared(v.storage));
  const body: Record<string, ParamValue> = { target };
  if (mode === "online") body.online = 1;
  if (mode === "online" && local.length > 0) body["with-local-disks"] = 1;
  if (mode === "restart") body.restart = 1;
  const intent: Omit<MigrateIntent, "kind" | "op"> = {
    from: guest.node,
    target,
    mode,
    localVolumes: local.map(({ slot, volume, storage, sizeBytes }) => ({
      slot,
      volume,
      storage,
      ...(sizeBytes !== undefined ? { sizeBytes } : {}),
    })),
    storages: [...new Set(facts.volumes.map((v) => v.storage))].sort(),
    bridges: [...new Set(facts.bridges)].sort(),
    ...(guest.status === "running" ? { memoryBytes: facts.memoryBytes } : {}),
  };
  return {
    action: "migrate",
    severity: mode === "restart" ? "service-impact" : "configuration",
    summary: `migrate ${guest.name ?? guest.vmid} ${guest.node} → ${target} (${how(mode, guest.node, target)}; ${copies(local)})`,
    changes: [{ field: "node", before: guest.node, after: target }],
    calls: [call(guest.node, guest.vmid, body, intent)],
  };
}

/** The tags rewrite that records `node` as where pvectl placed the guest (after a migration, or a move the spec followed). */
export function recordPlacementStep(
  config: (node: string, vmid: number, params: Record<string, ParamValue>) => ApiCall,
  guest: { vmid: number; tags: string[] },
  node: string,
): { step: StepDraft; tags: string[] } {
  const tags = withPlacementRecord(guest.tags, node);
  const before = printTags(guest.tags);
  const after = printTags(tags);
  return {
    tags,
    step: {
      action: "record-placement",
      severity: "configuration",
      summary: `record placement: tag ${placementTag(node)} (the node pvectl placed it on)`,
      changes: [{ field: "tags", ...(before !== "" ? { before } : {}), after }],
      calls: [config(node, guest.vmid, { tags: after })],
    },
  };
}
