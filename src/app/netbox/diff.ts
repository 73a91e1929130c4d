// `pvectl netbox diff`: where NetBox and PVE disagree, per record, both ways, without writing
// anything. A record is mapped to the guest it describes exactly as sync maps it, and planned
// against the live cluster (planning only reads): every step that plan would take is a fact the
// two owners disagree on. This is the seed's "two owners for one fact" made visible; it never
// says which owner is right.
import type { PveClient } from "../../api/index.js";
import type { GuestSummary } from "../../engine/cluster.js";
import type { NetboxClient } from "../../netbox/client.js";
import type { GuestPlan, Step } from "../../plan/types.js";
import { GUEST_KINDS } from "../../resources/index.js";
import { OWNERSHIP_TAG } from "../../resources/ownership.js";
import { loadGuestAddresses } from "../../sources/netbox/addresses.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import { type MappedVm, mapRecord, recordVmid } from "../../sources/netbox/mapping.js";
import { loadRecords, type NetboxVmRecord } from "../../sources/netbox/records.js";
import { recordIdsIn } from "../../sources/netbox/record-tag.js";
import { recordSelection, type SelectionFlags } from "../../sources/netbox/selection.js";
import { userMessageOf as errorText } from "../../util/errors.js";
import { planSpec } from "../plan-spec.js";
import { mapByDiskIdentity, withDiskIdentity } from "./disk-identity.js";

/**
 * in-sync: the guest matches its record; drift: they disagree (see `differences`);
 * guest-missing: the record says the guest exists, PVE has none; not-built: a `planned` record
 * whose guest does not exist yet (not drift); retired: the record is retired and the guest
 * still runs; invalid: the record cannot be mapped, or planning failed.
 */
export type DriftState = "in-sync" | "drift" | "guest-missing" | "not-built" | "retired" | "invalid";

/** One fact the two owners disagree on. */
export interface Difference {
  /** The spec field (`cores`, `net0.macaddr`, `power` ...), or the kind of change. */
  field: string;
  netbox?: string;
  pve?: string;
}

export interface RecordDrift {
  id: number;
  name: string;
  status: string;
  cluster?: string;
  connection?: string;
  vmid?: number;
  node?: string;
  state: DriftState;
  differences: Difference[];
  /** Why a record is invalid, and notes (a guest pvectl did not create). */
  notes: string[];
}

/** A guest of a connection that no record (in any status) describes. */
export interface UnrecordedGuest {
  connection?: string;
  vmid: number;
  name?: string;
  node: string;
  kind: "vm" | "container";
  /** Carries pvectl's ownership tag (built by pvectl). Without it: not pvectl's. */
  ownedByPvectl: boolean;
  /**
   * The ids of the NetBox records its record tags (`netbox-vm-<id>`) say it was built for, none
   * of which exists any more; empty for a guest no record built (a spec file's, or one built
   * before record tags existed).
   */
  goneRecords: number[];
}

/**
 * Whether an unrecorded guest is NetBox's business: a guest built for a record that is gone, or
 * one pvectl did not create. A guest pvectl built from a spec file is listed but is not drift:
 * a spec and NetBox may share a cluster.
 */
export function concernsNetbox(g: UnrecordedGuest): boolean {
  return !g.ownedByPvectl || g.goneRecords.length > 0;
}

export interface NetboxDiffReport {
  records: RecordDrift[];
  unrecorded: UnrecordedGuest[];
  /** No record drifts, no guest is missing, no guest is unrecorded but a spec file's. */
  inSync: boolean;
}

export interface DiffOptions {
  config: NetboxConfig;
  netbox: NetboxClient;
  pveClient: (connection: string | undefined) => PveClient;
  /** Narrow the records (clusters, sites, tags, names); every status is read. */
  selection?: SelectionFlags;
}

/** Statuses that say the guest should not exist (any more). */
function retiredStatuses(config: NetboxConfig): Set<string> {
  return new Set(["offline", config.decommission.status]);
}

/** A step as the facts it changes: NetBox's value (what the plan would write) against PVE's. */
function differencesOf(step: Step): Difference[] {
  if (step.action === "adopt") return [];
  if (step.changes.length === 0) return [{ field: step.action, netbox: step.summary }];
  return step.changes.map((c) => ({
    field: c.field,
    ...(c.after !== undefined ? { netbox: c.after } : {}),
    ...(c.before !== undefined ? { pve: c.before } : {}),
  }));
}

function baseOf(record: NetboxVmRecord, connection: string | undefined): RecordDrift {
  return {
    id: record.vm.id,
    name: record.vm.name,
    status: record.vm.status?.value ?? "",
    ...(record.vm.cluster?.name ? { cluster: record.vm.cluster.name } : {}),
    ...(connection ? { connection } : {}),
    state: "in-sync",
    differences: [],
    notes: [],
  };
}

/**
 * NetBox's status against the guest's power state: an `active` record says the guest runs.
 * (A retired record with a guest is reported as retired; `staged` says built, not running.)
 * Skipped when the plan already has a power step (the mapping manages power itself).
 */
function statusDifference(status: string, power: string | undefined, steps: Step[]): Difference[] {
  if (status !== "active" || power === undefined || power === "running") return [];
  if (steps.some((s) => s.action === "start" || s.action === "stop")) return [];
  return [{ field: "status", netbox: "active", pve: power }];
}

/** A planned guest compared with its record's status. */
function driftOf(base: RecordDrift, guest: GuestPlan, retired: Set<string>, power: string | undefined): RecordDrift {
  const located = { ...base, node: guest.node, ...(guest.vmid !== undefined ? { vmid: guest.vmid } : {}) };
  if (guest.errors.length > 0) return { ...located, state: "invalid", notes: guest.errors };
  if (!guest.exists) {
    if (retired.has(base.status)) return { ...base, state: "in-sync" };
    return { ...base, state: base.status === "planned" ? "not-built" : "guest-missing" };
  }
  if (retired.has(base.status))
    return { ...located, state: "retired", differences: [{ field: "status", netbox: base.status, pve: "exists" }] };
  const differences = [...guest.steps.flatMap(differencesOf), ...statusDifference(base.status, power, guest.steps)];
  const notes = guest.steps.some((s) => s.action === "adopt")
    ? ["the guest was not created by pvectl (no ownership tag); sync leaves it alone unless the config says `adopt: true`"]
    : [];
  return { ...located, state: differences.length > 0 ? "drift" : "in-sync", differences, notes };
}

/** Guests of a connection that no record names (by the vmid written back, else by name). */
function unrecordedOf(
  guests: GuestSummary[],
  records: NetboxVmRecord[],
  config: NetboxConfig,
  connection: string | undefined,
): UnrecordedGuest[] {
  const vmids = new Set(records.map((r) => recordVmid(r, config)).filter((v): v is number => typeof v === "number"));
  const names = new Set(records.map((r) => r.vm.name));
  return guests
    .filter((g) => !g.template && !vmids.has(g.vmid) && !(g.name !== undefined && names.has(g.name)))
    .map((g) => ({
      ...(connection ? { connection } : {}),
      vmid: g.vmid,
      ...(g.name !== undefined ? { name: g.name } : {}),
      node: g.node,
      kind: GUEST_KINDS[g.type].specKind as "vm" | "container",
      ownedByPvectl: g.tags.includes(OWNERSHIP_TAG),
      goneRecords: recordIdsIn(g.tags),
    }));
}

/** The records of one connection, planned read-only and compared. */
async function diffConnection(
  pve: PveClient,
  connection: string | undefined,
  mapped: MappedVm[],
  all: NetboxVmRecord[],
  config: NetboxConfig,
  netbox: NetboxClient,
): Promise<{ records: RecordDrift[]; unrecorded: UnrecordedGuest[] }> {
  // Disks compared in the slots their guests record for them, as sync maps them (disk-identity.ts).
  const placed = await mapByDiskIdentity(pve, netbox, config, mapped);
  const specs = placed.map((m) => m.spec);
  const guests = { vms: specs.filter((s) => s.kind === "vm"), containers: specs.filter((s) => s.kind === "container") };
  // adopt: a guest the record names is compared even when pvectl did not create it (the adopt
  // step itself is not a difference; a note says sync would leave it alone).
  const planned = await planSpec(pve, guests, { adopt: true, skipPreflight: true });
  const { context } = planned;
  const plan = withDiskIdentity(planned.plan, new Map(placed.map((m) => [m.spec.name, m])));
  const byKey = new Map(plan.guests.map((g) => [g.key, g]));
  const power = new Map(context.cluster.guests.map((g) => [g.vmid, g.status]));
  const retired = retiredStatuses(config);
  const records = placed.map((m) => {
    const guest = byKey.get(m.spec.name);
    const base = baseOf(m.record, connection);
    return guest
      ? driftOf(base, guest, retired, guest.vmid === undefined ? undefined : power.get(guest.vmid))
      : { ...base, state: "invalid" as const, notes: ["the plan has no entry for this record"] };
  });
  return { records, unrecorded: unrecordedOf(context.cluster.guests, all, config, connection) };
}

export async function diffNetbox(options: DiffOptions): Promise<NetboxDiffReport> {
  const { config, netbox } = options;
  const all = await loadRecords(netbox, recordSelection(config, options.selection, undefined));
  // The addresses and gateways go into cloud-init's ipconfigN as sync maps them; a record mapped
  // without them asks for no gateway, and every guest sync built with one would show drift.
  await loadGuestAddresses(netbox, all, config.customFields.gateway);
  const records: RecordDrift[] = [];
  const unrecorded: UnrecordedGuest[] = [];
  const byConnection = new Map<string, MappedVm[]>();
  for (const record of all) {
    const mapped = mapRecord(record, config);
    if (!mapped.ok) {
      records.push({ ...baseOf(record, undefined), state: "invalid", notes: mapped.errors });
      continue;
    }
    const key = mapped.spec.connection ?? "";
    byConnection.set(key, [...(byConnection.get(key) ?? []), mapped]);
  }
  for (const [key, mapped] of byConnection) {
    const connection = key === "" ? undefined : key;
    try {
      const found = await diffConnection(options.pveClient(connection), connection, mapped, all, config, netbox);
      records.push(...found.records);
      unrecorded.push(...found.unrecorded);
    } catch (err) {
      for (const m of mapped)
        records.push({ ...baseOf(m.record, connection), state: "invalid", notes: [`reading the cluster failed: ${errorText(err)}`] });
    }
  }
  const order = new Map(all.map((r, i) => [r.vm.id, i]));
  records.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const drifting = records.some(
    (r) => r.state === "drift" || r.state === "guest-missing" || r.state === "retired" || r.state === "invalid",
  );
  return { records, unrecorded, inSync: !drifting && !unrecorded.some(concernsNetbox) };
}
