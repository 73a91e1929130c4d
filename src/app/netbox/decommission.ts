// `pvectl netbox decommission`: NetBox records with status `decommissioning` -> the guest is
// stopped (graceful shutdown with a timeout, then forced) and destroyed under the usual
// --allow-data-loss guard -> what pvectl wrote to NetBox is released (the IPs it allocated,
// the MAC objects, optionally the interfaces, the vmid custom field) -> the record is set
// `offline` or deleted. Each record moves on only when its own steps succeeded. A rerun after
// a crash converges: a guest already gone counts as destroyed, and release reads what is left.
import type { PveClient } from "../../api/index.js";
import { type GuestSummary, readCluster } from "../../engine/cluster.js";
import { buildDestroyPlan } from "../../engine/plan.js";
import type { GuestReport } from "../../engine/report.js";
import type { NetboxClient } from "../../netbox/client.js";
import type { IPAddress } from "../../netbox/generated/types.js";
import { hostOf } from "../../netbox/ip.js";
import type { Plan } from "../../plan/types.js";
import { type DesiredGuest, kindOf, kindOfSpec } from "../../resources/index.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import { recordVmid } from "../../sources/netbox/mapping.js";
import { describeRecord, loadRecords, type NetboxVmRecord } from "../../sources/netbox/records.js";
import { recordSelection, type SelectionFlags } from "../../sources/netbox/selection.js";
import { userMessageOf as text } from "../../util/errors.js";
import { type ApplyPlanOptions, applyPlan } from "../apply-plan.js";
import { noteDestroyEffects } from "../destroy-effects.js";
import { removeFromKnownHostsFile } from "./known-hosts.js";
import { isolatePreflight } from "./preflight-per-record.js";
import { releaseMacs } from "./mac-release.js";
import { bindingProblem } from "./record-binding.js";
import { whatWaits } from "./sync.js";
import { recordFreedVmid } from "./vmid-quarantine.js";
import { dnsNameOf, WriteBack } from "./writeback.js";

export interface DecommissionOutcome {
  id: number;
  name: string;
  connection?: string;
  vmid?: number;
  /**
   * offline / deleted: done; failed: stays in decommissioning with the reason; held: a step was
   * held back by the guard rails (the destroy without --allow-data-loss), so the record stays in
   * decommissioning and waits for the flag, as `sync` holds a record back; planned: plan only;
   * cancelled: not confirmed, nothing changed.
   */
  result: "offline" | "deleted" | "failed" | "held" | "planned" | "cancelled";
  /** What happened in PVE: destroyed, already absent, or the step that did not run. */
  guest: string;
  released: string[];
  errors: string[];
}

export interface DecommissionReport {
  records: DecommissionOutcome[];
  plans: Record<string, Plan>;
  ok: boolean;
}

export interface DecommissionOptions {
  config: NetboxConfig;
  netbox: NetboxClient;
  pveClient: (connection: string | undefined) => PveClient;
  selection?: SelectionFlags;
  allowDataLoss?: boolean;
  planOnly?: boolean;
  onPlan?: (connection: string, plan: Plan) => void;
  onRecord?: (outcome: DecommissionOutcome) => void;
  apply?: ApplyPlanOptions;
  /** An OpenSSH known_hosts file to remove each retired guest's names and addresses from. */
  knownHosts?: string;
  /**
   * Asked once per connection before anything is changed there, with its plan and the records
   * it would retire; false cancels that connection (its records stay as they are).
   */
  confirm?: (connection: string, plan: Plan, records: string[]) => Promise<boolean>;
}

/** The IP addresses on the record's interfaces (what release and known_hosts work on). */
async function addressesOf(netbox: NetboxClient, record: NetboxVmRecord): Promise<IPAddress[]> {
  const ifaceIds = record.interfaces.map((i) => i.id);
  return ifaceIds.length === 0 ? [] : netbox.list("ipam/ip-addresses", { vminterface_id: ifaceIds });
}

/** Every name the guest was known by to ssh: its name, its DNS names, each address. */
export function knownHostNames(record: NetboxVmRecord, ips: IPAddress[], zone: string | undefined): string[] {
  const names = new Set([record.vm.name]);
  if (zone !== undefined) names.add(dnsNameOf(record.vm.name, zone));
  for (const ip of ips) {
    names.add(hostOf(ip.address));
    if (ip.dns_name) names.add(ip.dns_name);
  }
  return [...names];
}

/** Removes from NetBox what pvectl wrote for a guest that no longer exists; idempotent. */
async function release(netbox: NetboxClient, config: NetboxConfig, record: NetboxVmRecord, ips: IPAddress[]): Promise<string[]> {
  const released: string[] = [];
  const subject = describeRecord(record.vm);
  const d = config.decommission;
  // Only the addresses pvectl allocated (sync marks them); addresses a person assigned stay.
  const ours = (ip: IPAddress) => d.releaseIps && ip.description === `pvectl: ${record.vm.name}`;
  for (const ip of ips.filter(ours)) {
    await netbox.delete("ipam/ip-addresses", ip.id, `IP ${ip.address} of ${subject}`);
    released.push(`IP ${ip.address}`);
  }
  // The DNS name pvectl wrote goes with the guest, on the addresses that stay.
  const zone = config.writeBack.dns?.zone;
  const dnsName = zone === undefined ? undefined : dnsNameOf(record.vm.name, zone);
  for (const ip of ips.filter((x) => !ours(x) && dnsName !== undefined && x.dns_name === dnsName)) {
    await netbox.patch("ipam/ip-addresses", ip.id, { dns_name: "" }, { subject: `IP ${ip.address} of ${subject}` });
    released.push(`dns_name ${dnsName}`);
  }
  if (d.releaseMacs) released.push(...(await releaseMacs(netbox, record)));
  if (d.deleteInterfaces) {
    for (const iface of record.interfaces) {
      await netbox.delete("virtualization/interfaces", iface.id, `interface ${iface.name} of ${subject}`);
      released.push(`interface ${iface.name}`);
    }
  }
  const field = config.customFields.vmid;
  if (record.vm.custom_fields?.[field] !== null && record.vm.custom_fields?.[field] !== undefined) {
    await netbox.patch("virtualization/virtual-machines", record.vm.id, { custom_fields: { [field]: null } }, { subject });
    released.push(field);
  }
  return released;
}

/**
 * The record's guest as a destroy plan names it: a container when the record's platform maps
 * to one (identity checks the kind: a VM entry never matches a container's vmid), else a VM.
 */
function goneGuest(record: NetboxVmRecord, config: NetboxConfig, node: string, vmid: number | undefined): DesiredGuest {
  const identity = { key: record.vm.name, name: record.vm.name, ...(vmid !== undefined ? { vmid } : {}), node };
  const slug = record.vm.platform?.slug ?? config.defaults.platform;
  const container = slug !== undefined && config.platforms[slug]?.container !== undefined;
  return kindOfSpec(container ? "container" : "vm").absent(identity);
}

/**
 * A guest the record names that was built for another record is not destroyed: its steps go
 * and the reason names both records (record-binding.ts).
 */
async function keepOtherRecordsGuests(
  plan: Plan,
  live: GuestSummary[],
  group: { record: NetboxVmRecord }[],
  netbox: NetboxClient,
  config: NetboxConfig,
): Promise<Plan> {
  const records = new Map(group.map((g) => [g.record.vm.name, g.record]));
  const guests = [];
  for (const g of plan.guests) {
    const record = records.get(g.key);
    const type = kindOf(g).type;
    const guest = g.steps.length > 0 ? live.find((c) => c.vmid === g.vmid && c.type === type) : undefined;
    const problem = record && guest ? await bindingProblem(netbox, config, record, guest) : undefined;
    guests.push(problem === undefined ? g : { ...g, steps: [], errors: [...g.errors, problem] });
  }
  return { ...plan, guests };
}

export async function decommissionNetbox(options: DecommissionOptions): Promise<DecommissionReport> {
  const { config, netbox } = options;
  const writeBack = new WriteBack(netbox, config);
  const records = await loadRecords(netbox, recordSelection(config, options.selection, config.decommission.status));
  const outcomes: DecommissionOutcome[] = [];
  const done = (o: DecommissionOutcome) => {
    outcomes.push(o);
    options.onRecord?.(o);
  };
  const fail = async (record: NetboxVmRecord, errors: string[], extra: Partial<DecommissionOutcome> = {}) => {
    const outcome: DecommissionOutcome = {
      id: record.vm.id,
      name: record.vm.name,
      result: "failed",
      guest: "not destroyed",
      released: [],
      errors,
      ...extra,
    };
    if (!options.planOnly) {
      try {
        await writeBack.journal(record, "danger", `pvectl netbox decommission: ${errors.join("; ")}`);
      } catch (err) {
        outcome.errors.push(`could not record the failure in NetBox: ${text(err)}`);
      }
    }
    done(outcome);
  };
  // Held back is not a failure: nothing went wrong, the record waits for the flag that releases the step.
  const hold = async (record: NetboxVmRecord, waits: string[], extra: Partial<DecommissionOutcome>) => {
    const outcome: DecommissionOutcome = {
      id: record.vm.id,
      name: record.vm.name,
      result: "held",
      guest: "not destroyed",
      released: [],
      errors: waits,
      ...extra,
    };
    try {
      await writeBack.journal(record, "warning", `pvectl netbox decommission: not decommissioned yet, ${waits.join("; ")}`);
    } catch (err) {
      outcome.errors.push(`could not record what waits in NetBox: ${text(err)}`);
    }
    done(outcome);
  };

  // Which PVE connection holds each record's guest.
  const groups = new Map<string, { record: NetboxVmRecord; desired: DesiredGuest }[]>();
  for (const record of records) {
    const cluster = record.vm.cluster?.name;
    const mapping = cluster === undefined ? undefined : config.clusters[cluster];
    const vmid = recordVmid(record, config);
    if (!mapping) {
      await fail(record, [
        cluster === undefined
          ? "has no cluster, so pvectl cannot tell which Proxmox VE cluster holds it"
          : `cluster \`${cluster}\` is not configured under \`clusters:\` in ${config.file}`,
      ]);
      continue;
    }
    if (typeof vmid === "string") {
      await fail(record, [vmid]);
      continue;
    }
    const desired = goneGuest(record, config, mapping.node ?? "", vmid);
    const key = mapping.connection ?? "";
    groups.set(key, [...(groups.get(key) ?? []), { record, desired }]);
  }

  const plans: Record<string, Plan> = {};
  for (const [connection, group] of groups) {
    const label = connection === "" ? undefined : connection;
    const conn = label ? { connection: label } : {};
    const desired = group.map((g) => g.desired);
    let plan: Plan;
    let pve: PveClient;
    try {
      pve = options.pveClient(label);
      plan = await buildDestroyPlan(pve, { desired }, { shutdownTimeoutSeconds: config.decommission.stopTimeout, forceStop: true });
      if (plan.guests.some((g) => g.steps.length > 0)) {
        // One read of the cluster serves both: the guests the records name, and the storages their archives are on.
        const cluster = await readCluster(pve);
        plan = await keepOtherRecordsGuests(plan, cluster.guests, group, netbox, config);
        plan = await noteDestroyEffects(pve, plan, cluster.storages);
      }
    } catch (err) {
      for (const g of group) await fail(g.record, [`planning failed: ${text(err)}`], conn);
      continue;
    }
    // A plan-only run says what the real one would do: a record whose guest preflight refuses fails there too.
    const isolated = isolatePreflight(plan);
    plan = isolated.plan;
    if (isolated.blockedAll.length > 0) {
      options.onPlan?.(connection, plan);
      for (const g of group) await fail(g.record, isolated.blockedAll, conn);
      continue;
    }
    plans[connection] = plan;
    options.onPlan?.(connection, plan);
    if (
      !options.planOnly &&
      options.confirm &&
      !(await options.confirm(
        connection,
        plan,
        group.map((g) => g.record.vm.name),
      ))
    ) {
      for (const { record } of group)
        done({ id: record.vm.id, name: record.vm.name, result: "cancelled", guest: "not destroyed", released: [], errors: [], ...conn });
      continue;
    }
    const guestOf = new Map(plan.guests.map((g) => [g.key, g]));
    let reports = new Map<string, GuestReport>();
    if (!options.planOnly && plan.guests.some((g) => g.steps.length > 0)) {
      try {
        // The record's status asks for the guest to go, so stopping it is intended (allowRestart);
        // destroying its disks still needs --allow-data-loss.
        const report = await applyPlan(
          pve,
          { plan, desired },
          { ...options.apply, allowRestart: true, allowDataLoss: options.allowDataLoss === true },
        );
        reports = new Map(report.guests.map((g) => [g.key, g]));
      } catch (err) {
        for (const g of group) await fail(g.record, [`apply failed: ${text(err)}`], conn);
        continue;
      }
    }
    for (const { record } of group) {
      const guest = guestOf.get(record.vm.name);
      const vmid = guest?.vmid;
      const base = { ...conn, ...(vmid !== undefined ? { vmid } : {}) };
      if (guest && guest.errors.length > 0) {
        await fail(record, guest.errors, base);
        continue;
      }
      const existed = guest !== undefined && guest.steps.length > 0;
      if (options.planOnly) {
        done({
          id: record.vm.id,
          name: record.vm.name,
          result: "planned",
          guest: existed ? `would destroy vm ${vmid}` : "already absent",
          released: [],
          errors: [],
          ...base,
        });
        continue;
      }
      const report = reports.get(record.vm.name);
      const failed = report === undefined || report.error !== undefined || report.result === "failed" || report.result === "partial";
      if (existed && !failed && report.result !== "destroyed" && whatWaits(report).length > 0) {
        await hold(record, whatWaits(report), base);
        continue;
      }
      if (existed && report?.result !== "destroyed") {
        const why =
          report?.error ?? (report?.pending.length ? report.pending.join("; ") : `the guest ended ${report?.result ?? "unknown"}`);
        await fail(record, [why], { ...base, guest: "not destroyed" });
        continue;
      }
      try {
        const clusterId = record.vm.cluster?.id;
        if (existed && vmid !== undefined && clusterId !== undefined && config.vmidQuarantineMs > 0)
          await recordFreedVmid(netbox, clusterId, vmid, record.vm.name);
        const ips = await addressesOf(netbox, record);
        const released = await release(netbox, config, record, ips);
        if (options.knownHosts !== undefined) {
          const removed = await removeFromKnownHostsFile(options.knownHosts, knownHostNames(record, ips, config.writeBack.dns?.zone));
          if (removed > 0) released.push(`${removed} known_hosts ${removed === 1 ? "entry" : "entries"}`);
        }
        const final = config.decommission.final;
        if (final === "delete") await netbox.delete("virtualization/virtual-machines", record.vm.id, describeRecord(record.vm));
        else {
          await writeBack.status(record, "offline", []);
          await writeBack.journal(
            record,
            "success",
            `pvectl decommissioned ${existed ? `vm ${vmid}` : "the guest (already absent)"}; released ${released.join(", ") || "nothing"}`,
          );
        }
        done({
          id: record.vm.id,
          name: record.vm.name,
          result: final === "delete" ? "deleted" : "offline",
          guest: existed ? "destroyed" : "already absent",
          released,
          errors: [],
          ...base,
        });
      } catch (err) {
        await fail(record, [`releasing in NetBox failed: ${text(err)}`], { ...base, guest: existed ? "destroyed" : "already absent" });
      }
    }
  }
  return { records: outcomes, plans, ok: outcomes.every((o) => o.result !== "failed" && o.result !== "cancelled") };
}
