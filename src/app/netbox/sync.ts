// `pvectl netbox sync`: NetBox records with status `planned` -> built VMs -> status `staged`;
// with `select.status` listing `staged`/`active` too, records already built are converged again
// (day 2: the same plan, guard rails and write-back; their status is kept).
// 1. select the records and map each to a VmSpec (a bad record fails alone, nothing written
//    for it but the reason);
// 2. per PVE connection: map each built record's disks to the slots recorded on its guest
//    (disk-identity.ts), plan with the engine (live state, identity by vmid or name), then
//    apply; guests blocked by the preflight fail alone when the problem is theirs;
// 3. per record whose own steps all ran and succeeded: write back vmid, MACs, addresses,
//    then the status. A record whose steps or write-back failed keeps `planned` (or gets
//    `failed`) and a journal entry with the reason; one whose steps were held back by the guard
//    rails keeps its status and gets a journal entry saying what waits. A record edited during
//    the build (a field the build used, its status) keeps the edit and its status, with a journal
//    entry saying what changed (`changed`, writeback.ts, guarded-record.ts). A rerun converges: the
//    guest is found again (by the vmid written back, else by name) and write-back skips what is
//    already there.
import type { PveClient } from "../../api/index.js";
import type { ApplyEvent } from "../../engine/apply.js";
import type { ClusterSnapshot } from "../../engine/cluster.js";
import { isOwned } from "../../engine/identity.js";
import type { GuestReport } from "../../engine/report.js";
import type { NetboxClient } from "../../netbox/client.js";
import { kindOf } from "../../resources/index.js";
import type { GuestPlan, Plan } from "../../plan/types.js";
import { loadGuestAddresses } from "../../sources/netbox/addresses.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import { type MappedVm, mapRecord } from "../../sources/netbox/mapping.js";
import { describeRecord, loadRecords, type NetboxVmRecord, type RecordSelection } from "../../sources/netbox/records.js";
import { describeChange } from "../../sources/netbox/record-inputs.js";
import { recordSelection } from "../../sources/netbox/selection.js";
import { userMessageOf as errorText } from "../../util/errors.js";
import { type ApplyPlanOptions, applyPlan } from "../apply-plan.js";
import { type PlannedSpec, planSpec } from "../plan-spec.js";
import { mapByDiskIdentity, withDiskIdentity } from "./disk-identity.js";
import { AddressRefusal } from "./interface-prefixes.js";
import { isolatePreflight } from "./preflight-per-record.js";
import { bindingProblem } from "./record-binding.js";
import { RecordClaims } from "./record-claims.js";
import { refuseBlankRebuilds } from "./vanished-guests.js";
import { quarantineSpans } from "./quarantine-retention.js";
import { vmidsInQuarantine } from "./vmid-quarantine.js";
import { changedNote } from "./changed-note.js";
import { isBuilt, WriteBack } from "./writeback.js";

const ADOPT_HINT = "set `adopt: true` in the NetBox config to let sync take over guests pvectl did not create";

export type RecordResult = "staged" | "converged" | "changed" | "failed" | "invalid" | "planned" | "held" | "busy";

export interface RecordOutcome {
  id: number;
  name: string;
  cluster?: string;
  connection?: string;
  /**
   * staged: built and written back; converged: a record already built (staged, active: day 2)
   * matches its guest again, its status kept; failed: build or write-back failed; invalid: the record
   * cannot be mapped; planned: plan only (dry run); held: steps of its guest were held back by
   * the guard rails (or wait for a reboot), so the record keeps its status; busy: another
   * pvectl run holds the record's claim (record-claims.ts), so this run left it alone; changed:
   * its guest was built (or converged) from the record as selected, but someone changed a field
   * the build used (or its status) meanwhile, so its status was not written (`changes` says what).
   */
  result: RecordResult;
  /** changed: what changed in the record while its guest was built ("memory 2048 -> 4096"). */
  changes?: string[];
  vmid?: number;
  node?: string;
  macs?: Record<string, string>;
  primaryIp4?: string;
  /** What the engine did (created / changed / unchanged ...). */
  guestResult?: string;
  /** What the record becomes: a VM, or a container when its platform maps to one. */
  guestKind?: "vm" | "container";
  /** What was written to NetBox for this record. */
  wrote: string[];
  errors: string[];
  /** The status the record has after the run. */
  status: string;
}

export interface SyncReport {
  records: RecordOutcome[];
  /** One plan per PVE connection ("" = the PROXMOX_* environment), and per vmid range within one: "lab (vmids 1000-1999)". */
  plans: Record<string, Plan>;
  ok: boolean;
  /** What the operator should know that is no record's (a vmid quarantine shorter than the backup retention). */
  warnings?: string[];
}

export interface SyncOptions {
  config: NetboxConfig;
  netbox: NetboxClient;
  /** The PVE client for a connection name (undefined: the PROXMOX_* environment). */
  pveClient: (connection: string | undefined) => PveClient;
  /**
   * Narrow the configured selection (CLI flags, serve's ids; see recordSelection). `status`, no
   * CLI flag, replaces select.status for a program that converges other statuses.
   */
  selection?: Partial<RecordSelection>;
  /** Plan only: nothing is applied and nothing is written to NetBox. */
  planOnly?: boolean;
  /** Called with each connection's plan before it is applied (to show it). */
  onPlan?: (connection: string, plan: Plan) => void;
  onEvent?: ApplyPlanOptions["onEvent"];
  onRecord?: (outcome: RecordOutcome) => void;
  /**
   * Names of built records (staged, active) whose guest is gone that may be built again, blank
   * (vanished-guests.ts); any other such record is a plan error.
   */
  rebuild?: readonly string[];
  apply?: Pick<
    ApplyPlanOptions,
    "perNodeConcurrency" | "retry" | "taskPoll" | "allowRestart" | "allowDataLoss" | "deferRestart" | "lockWaitMs"
  >;
}

/** Whether the record's platform puts addresses into the guest (cloud-init on a VM, by `cloudInit:` or its template's; a container's NICs). */
function takesAddresses(record: NetboxVmRecord, config: NetboxConfig): boolean {
  const platform = config.platforms[record.vm.platform?.slug ?? config.defaults.platform ?? ""];
  return platform?.cloudInit !== undefined || platform?.template?.cloudInit !== undefined || platform?.container !== undefined;
}

/**
 * Addresses come first, record by record, so a plan and the run hand out the same ones: the
 * interfaces without an address get one from their VLAN's prefix, held for the rest of the
 * run (interface-addresses.ts). Plan only notes them on the record (they show in the plan;
 * nothing is written). A record whose platform puts addresses into the guest gets them
 * created now, so its guest is built with them; the others get theirs at write-back.
 */
async function addressesBeforeBuild(
  record: NetboxVmRecord,
  config: NetboxConfig,
  writeBack: WriteBack,
  planOnly: boolean,
  early: Map<number, string[]>,
): Promise<void> {
  if (!config.writeBack.primaryIp4 || record.interfaces.length === 0) return;
  const planned = await writeBack.addresses.plan(record);
  if (planOnly) {
    record.pendingIp4 = Object.fromEntries(planned.map((p) => [p.interfaceId, p.address]));
    return;
  }
  if (!takesAddresses(record, config)) return;
  const wrote: string[] = [];
  await writeBack.addresses.assign(record, wrote, true);
  early.set(record.vm.id, wrote);
}

/** Plan only: the primary IPv4 the record would get (the first address planned, when it has none). */
function plannedPrimary(record: NetboxVmRecord): { primaryIp4?: string } {
  if (record.vm.primary_ip4) return {};
  const first = record.interfaces.map((i) => record.pendingIp4?.[i.id]).find((a) => a !== undefined);
  return first === undefined ? {} : { primaryIp4: first };
}

/** Records planned and applied together: one PVE connection, one source of new vmids. */
interface ApplyGroup {
  connection: string;
  range?: readonly [number, number];
  members: MappedVm[];
}

function outcomeOf(record: NetboxVmRecord, result: RecordResult, extra: Partial<RecordOutcome> = {}): RecordOutcome {
  return {
    id: record.vm.id,
    name: record.vm.name,
    ...(record.vm.cluster?.name ? { cluster: record.vm.cluster.name } : {}),
    result,
    wrote: [],
    errors: [],
    status: record.vm.status?.value ?? "",
    ...extra,
  };
}

/**
 * Guests the plan found that belong to another NetBox record (record-binding.ts) lose their
 * steps and carry the reason, so nothing is sent for them and their record fails alone.
 */
async function refuseOtherRecordsGuests(
  plan: Plan,
  cluster: ClusterSnapshot,
  byKey: Map<string, MappedVm>,
  netbox: NetboxClient,
  config: NetboxConfig,
): Promise<Plan> {
  const guests: GuestPlan[] = [];
  for (const g of plan.guests) {
    const m = byKey.get(g.key);
    const type = kindOf(g).type;
    const live = g.exists ? cluster.guests.find((c) => c.vmid === g.vmid && c.type === type) : undefined;
    // A guest pvectl did not create is the adoption rule's (refused unless `adopt: true`).
    const refusedAdoption = live !== undefined && !isOwned(live) && g.errors.length > 0;
    const problem = m && live && !refusedAdoption ? await bindingProblem(netbox, config, m.record, live) : undefined;
    // Another record's guest: what this record would change in it does not matter, only whose it is.
    guests.push(problem === undefined ? g : { ...g, steps: [], errors: [problem] });
  }
  return { ...plan, guests };
}

export async function syncNetbox(options: SyncOptions): Promise<SyncReport> {
  const { config, netbox } = options;
  const selection = recordSelection(config, options.selection, options.selection?.status ?? config.select.status);
  const selected = await loadRecords(netbox, selection);
  // Plan only writes nothing, not even a claim: it changes nothing another run could trip on.
  if (options.planOnly || selected.length === 0) return syncRecords(options, selected);
  const claims = new RecordClaims(netbox, config.claimExpiryMs);
  try {
    const busy = await claims.claim(selected.map((r) => r.vm.id));
    const busyOutcomes = selected.filter((r) => busy.has(r.vm.id)).map((r) => outcomeOf(r, "busy", { errors: [busy.get(r.vm.id)!] }));
    for (const o of busyOutcomes) options.onRecord?.(o);
    // Read again now that they are this run's: a run that held them before may have built
    // them (they left the selection) or allocated their address.
    const ours = selected.filter((r) => !busy.has(r.vm.id)).map((r) => r.vm.id);
    const records = ours.length === 0 ? [] : await loadRecords(netbox, { ...selection, ids: ours });
    const report = await syncRecords(options, records);
    const order = new Map(selected.map((r, i) => [r.vm.id, i]));
    const all = [...report.records, ...busyOutcomes].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    return { ...report, records: all };
  } finally {
    await claims.release();
  }
}

/** The sync of records this run holds (or of a plan only): map, plan, apply, write back. */
async function syncRecords(options: SyncOptions, records: NetboxVmRecord[]): Promise<SyncReport> {
  const { config, netbox } = options;
  const selectedStatuses = [options.selection?.status ?? config.select.status].flat();
  const writeBack = new WriteBack(netbox, config);
  const outcomes: RecordOutcome[] = [];
  // What was written for a record before its guest was built (its primary IPv4), reported with its outcome.
  const early = new Map<number, string[]>();
  const done = (o: RecordOutcome) => {
    o.wrote = [...(early.get(o.id) ?? []), ...o.wrote];
    outcomes.push(o);
    options.onRecord?.(o);
  };

  const fail = async (record: NetboxVmRecord, errors: string[], result: RecordResult, extra: Partial<RecordOutcome> = {}) => {
    const outcome = outcomeOf(record, result, { ...extra, errors });
    if (!options.planOnly) {
      // Recording the reason must not hide it: a failure here is added, not thrown.
      try {
        await writeBack.journal(record, "danger", `pvectl netbox sync: ${errors.join("; ")}`);
        // Not over a status someone set meanwhile (writeback.ts): the record says what it has.
        if (config.writeBack.onFailure === "failed") outcome.status = await writeBack.statusUnlessChanged(record, "failed", outcome.wrote);
      } catch (err) {
        outcome.errors.push(`could not record the failure in NetBox: ${errorText(err)}`);
      }
    }
    done(outcome);
  };

  const hold = async (record: NetboxVmRecord, waits: string[], extra: Partial<RecordOutcome>) => {
    const outcome = outcomeOf(record, "held", { ...extra, errors: waits });
    try {
      const what = isBuilt(record, config) ? "changes wait" : `not ${config.writeBack.onSuccess} yet`;
      await writeBack.journal(record, "warning", `pvectl netbox sync: ${what}, ${waits.join("; ")}`);
    } catch (err) {
      outcome.errors.push(`could not record what waits in NetBox: ${errorText(err)}`);
    }
    done(outcome);
  };

  // 0. addresses: every record's interfaces without one get theirs from their VLAN's prefix (plan
  //    only: the ones sync would take; records of platforms without addresses in the guest: at
  //    write-back), then every record's addresses and gateways are read for the mapping
  const addressed: NetboxVmRecord[] = [];
  for (const record of records) {
    try {
      await addressesBeforeBuild(record, config, writeBack, options.planOnly === true, early);
      addressed.push(record);
    } catch (err) {
      if (err instanceof AddressRefusal) await fail(record, [err.message], "invalid");
      else
        await fail(record, [`${options.planOnly ? "choosing" : "assigning"} its addresses in NetBox failed: ${errorText(err)}`], "failed");
    }
  }
  await loadGuestAddresses(netbox, addressed, config.customFields.gateway);

  // 1. map, grouped by PVE connection and, within one, by the vmid range new guests take ids from
  const groups = new Map<string, ApplyGroup>();
  const names = new Map<string, MappedVm>();
  for (const record of addressed) {
    const mapped = mapRecord(record, config);
    if (!mapped.ok) {
      await fail(record, mapped.errors, "invalid");
      continue;
    }
    const connection = mapped.spec.connection ?? "";
    const clash = names.get(`${connection}\u0000${mapped.spec.name}`);
    if (clash) {
      const message = `another record (${describeRecord(clash.record.vm)}) has the same name on the same Proxmox connection; names must be unique per cluster`;
      await fail(record, [message], "invalid");
      continue;
    }
    names.set(`${connection}\u0000${mapped.spec.name}`, mapped);
    const range = config.clusters[record.vm.cluster?.name ?? ""]?.vmidRange;
    const key = `${connection}\u0000${range?.join("-") ?? ""}`;
    const group = groups.get(key) ?? { connection, ...(range ? { range } : {}), members: [] };
    group.members.push(mapped);
    groups.set(key, group);
  }
  // The quarantine follows the backup retention unless the config sets it (quarantine-retention.ts).
  const quarantine =
    groups.size > 0
      ? await quarantineSpans(config, [...new Set([...groups.values()].map((g) => g.connection))], options.pveClient)
      : { spans: new Map<string, number>(), warnings: [] };
  const quarantined =
    !options.planOnly && groups.size > 0
      ? await vmidsInQuarantine(netbox, config, Date.now(), quarantine.spans)
      : new Map<string, number[]>();

  // 2. plan + apply per group, 3. write back per record
  const plans: Record<string, Plan> = {};
  for (const { connection, range, members } of groups.values()) {
    const label = connection === "" ? undefined : connection;
    let pve: PveClient;
    let planned: Required<PlannedSpec>;
    let group = members;
    try {
      pve = options.pveClient(label);
      // Each virtual disk keeps the slot recorded on its guest (disk-identity.ts), never the one its position gives.
      group = await mapByDiskIdentity(pve, netbox, config, members);
      // A record's vmid never takes over a guest pvectl did not create unless the config says `adopt: true`.
      const specs = group.map((m) => m.spec);
      const guests = { vms: specs.filter((s) => s.kind === "vm"), containers: specs.filter((s) => s.kind === "container") };
      planned = await planSpec(pve, guests, { adopt: config.adopt, adoptHint: ADOPT_HINT });
    } catch (err) {
      for (const m of group)
        await fail(m.record, [`planning failed: ${errorText(err)}`], "failed", { ...(label ? { connection: label } : {}) });
      continue;
    }
    const byKey = new Map(group.map((m) => [m.spec.name, m]));
    const isolated = isolatePreflight(planned.plan);
    const { blockedAll } = isolated;
    let plan: Plan;
    try {
      plan = await refuseOtherRecordsGuests(withDiskIdentity(isolated.plan, byKey), planned.context.cluster, byKey, netbox, config);
      plan = refuseBlankRebuilds(plan, byKey, config, options.rebuild ?? []);
    } catch (err) {
      for (const m of group)
        await fail(m.record, [`checking which record owns each guest failed: ${errorText(err)}`], "failed", {
          ...(label ? { connection: label } : {}),
        });
      continue;
    }
    const planKey = range ? `${connection === "" ? "PROXMOX_*" : connection} (vmids ${range[0]}-${range[1]})` : connection;
    plans[planKey] = plan;
    options.onPlan?.(planKey, plan);
    if (options.planOnly || blockedAll.length > 0) {
      for (const guest of plan.guests) {
        const m = byKey.get(guest.key);
        if (!m) continue;
        const errors = [...guest.errors, ...blockedAll];
        const extra = {
          ...(label ? { connection: label } : {}),
          node: guest.node,
          ...(guest.vmid !== undefined ? { vmid: guest.vmid } : {}),
          guestKind: m.spec.kind,
        };
        if (errors.length > 0) await fail(m.record, errors, "failed", extra);
        else done(outcomeOf(m.record, "planned", { ...extra, ...plannedPrimary(m.record) }));
      }
      continue;
    }
    let reports: GuestReport[];
    try {
      // The plan with the preflight problems moved onto their guests, and what planning read.
      const report = await applyPlan(
        pve,
        { ...planned, plan },
        {
          ...options.apply,
          vmids: { ...(range ? { range } : {}), reserved: quarantined.get(connection) ?? [] },
          ...(options.onEvent ? { onEvent: options.onEvent } : {}),
        },
      );
      // The engine grows a disk imported from an image to the size asked for in the same apply,
      // so one pass converges and the record can move on.
      reports = report.guests;
    } catch (err) {
      for (const m of group)
        await fail(m.record, [`apply failed: ${errorText(err)}`], "failed", { ...(label ? { connection: label } : {}) });
      continue;
    }
    for (const report of reports) {
      const m = byKey.get(report.key);
      if (!m) continue;
      const extra: Partial<RecordOutcome> = {
        ...(label ? { connection: label } : {}),
        guestKind: m.spec.kind,
        node: report.node,
        ...(report.vmid !== undefined ? { vmid: report.vmid } : {}),
        macs: report.macs,
        guestResult: report.result,
      };
      const failed = report.error !== undefined || report.result === "failed" || report.result === "partial";
      if (failed || report.vmid === undefined) {
        await fail(m.record, [report.error ?? `the guest ended ${report.result}`], "failed", extra);
        continue;
      }
      // Staged means built as asked: a step the guard rails held back (or a reboot that is
      // still owed) leaves the record where it is, with a note saying what waits.
      const waits = whatWaits(report);
      if (waits.length > 0) {
        await hold(m.record, waits, extra);
        continue;
      }
      try {
        const built = isBuilt(m.record, config);
        const result = await writeBack.succeed({ record: m.record, vmid: report.vmid, node: report.node, macs: report.macs, nics: m.nics });
        const written = {
          ...extra,
          wrote: result.wrote,
          status: result.status,
          ...(result.primaryIp4 ? { primaryIp4: result.primaryIp4 } : {}),
        };
        if (result.changes.length > 0) {
          const outcome = outcomeOf(m.record, "changed", { ...written, changes: result.changes.map(describeChange) });
          try {
            await writeBack.journal(
              m.record,
              "warning",
              changedNote({ config, selected: selectedStatuses, built, kind: m.spec.kind, report, result }),
            );
          } catch (err) {
            outcome.errors.push(`could not record what changed in NetBox: ${errorText(err)}`);
          }
          done(outcome);
          continue;
        }
        const outcome = outcomeOf(m.record, built ? "converged" : "staged", written);
        // A day-2 run that found nothing to do leaves no note: the journal stays a history of changes.
        if (!built || report.result !== "unchanged" || result.wrote.length > 0) {
          const verb = built ? "converged" : "built";
          try {
            await writeBack.journal(
              m.record,
              "success",
              `pvectl ${verb} ${m.spec.kind === "vm" ? "vm" : "container"} ${report.vmid} on ${report.node} (${report.result}); wrote ${result.wrote.join(", ") || "nothing new"}`,
            );
          } catch {
            // The record has moved on; a missing success note is not a failure.
          }
        }
        done(outcome);
      } catch (err) {
        await fail(m.record, [`write-back to NetBox failed: ${errorText(err)}`], "failed", extra);
      }
    }
  }
  const order = new Map(records.map((r, i) => [r.vm.id, i]));
  outcomes.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return {
    records: outcomes,
    plans,
    ok: outcomes.every((o) => o.result !== "failed" && o.result !== "invalid"),
    ...(quarantine.warnings.length > 0 ? { warnings: quarantine.warnings } : {}),
  };
}

/** What keeps a guest that ran without errors from counting as built: held-back steps, a reboot owed. */
export function whatWaits(report: GuestReport): string[] {
  const waits = report.pending.map((p) => `held back: ${p}`);
  if (report.pendingReboot?.length) waits.push(`waiting for a reboot to apply ${report.pendingReboot.join(", ")}`);
  return waits;
}

export type { ApplyEvent };
