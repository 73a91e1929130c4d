// Writing back to NetBox what Proxmox VE decided for a record, in an order that makes a rerun
// after a crash converge: vmid first (so the next run finds the guest by vmid), then MACs and
// the interfaces' addresses with the primary IPv4 (each step first looks for what an earlier, interrupted run already wrote,
// so nothing is created twice), and the status last (only once everything else is there).
// Writes to the VM record go through its GuardedRecord (If-Match): a record edited while its
// guest was built keeps the edit; what describes the built guest (vmid, MACs, addresses) is
// still written, the status is not (the record is reported `changed`, sync.ts).
import type { NetboxClient } from "../../netbox/client.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import type { NicBinding } from "../../sources/netbox/mapping.js";
import { type InputChange, vmidInput } from "../../sources/netbox/record-inputs.js";
import { describeRecord, type NetboxVmRecord } from "../../sources/netbox/records.js";
import { GuardedRecord } from "./guarded-record.js";
import { InterfaceAddressAssigner, type IpRef } from "./interface-addresses.js";
import { macMarker } from "./mac-release.js";

export interface WriteBackInput {
  record: NetboxVmRecord;
  vmid: number;
  node: string;
  /** netN -> MAC as PVE reports it. */
  macs: Record<string, string>;
  nics: NicBinding[];
}

export interface WriteBackResult {
  wrote: string[];
  primaryIp4?: string;
  /** What changed, in the fields the build used, while the guest was built (empty: the record still asks for it). */
  changes: InputChange[];
  /** The record's status after write-back (as someone set it, when it changed). */
  status: string;
}

const VMINTERFACE = "virtualization.vminterface";

/** Statuses that say a record's guest is built: day-2 runs converge such records and keep their status. */
const BUILT_STATUSES = new Set(["staged", "active"]);

/** Whether the record is past `planned`: its guest was built (it is converged, not staged, by sync). */
export function isBuilt(record: NetboxVmRecord, config: NetboxConfig): boolean {
  const status = record.vm.status?.value ?? "";
  return BUILT_STATUSES.has(status) || status === config.writeBack.onSuccess;
}

/** The DNS name pvectl writes for a record: its name in the configured zone, lower case. */
export function dnsNameOf(name: string, zone: string): string {
  return `${name}.${zone}`.toLowerCase();
}

export class WriteBack {
  /** Addresses for interfaces; one per run, so a plan holds what it hands out (interface-addresses.ts). */
  readonly addresses: InterfaceAddressAssigner;
  private readonly guards = new Map<number, GuardedRecord>();

  constructor(
    private readonly netbox: NetboxClient,
    private readonly config: NetboxConfig,
  ) {
    this.addresses = new InterfaceAddressAssigner(netbox, config, (record) => this.guardOf(record));
  }

  /** The writes to a record's VM object, guarded against edits since the record was selected (made on first use, from the record as selected). */
  guardOf(record: NetboxVmRecord): GuardedRecord {
    const known = this.guards.get(record.vm.id);
    if (known) return known;
    const guard = new GuardedRecord(this.netbox, this.config, record);
    this.guards.set(record.vm.id, guard);
    return guard;
  }

  /**
   * vmid -> custom field; skipped when NetBox already holds it. Written even when the record
   * changed during the build: the guest exists, and the next run must find it by its vmid;
   * only a vmid someone set meanwhile is left as they set it.
   */
  async vmid(input: WriteBackInput, wrote: string[]): Promise<void> {
    const field = this.config.customFields.vmid;
    const { vm } = input.record;
    if (Number(vm.custom_fields?.[field]) === input.vmid) return;
    const { result } = await this.guardOf(input.record).write({
      body: { custom_fields: { [field]: input.vmid } },
      done: (now) => Number(now.custom_fields?.[field]) === input.vmid,
      allowed: (_now, changes) => !changes.some((c) => c.field === vmidInput(this.config)),
      sets: { field: vmidInput(this.config), value: String(input.vmid) },
    });
    if (result === "written") wrote.push(`${field}=${input.vmid}`);
  }

  /** MACs: MAC objects + primary_mac_address on NetBox >= 4.2, the interface's mac_address before. */
  async macs(input: WriteBackInput, wrote: string[]): Promise<void> {
    if (!this.config.writeBack.macs) return;
    const macObjects = await this.netbox.atLeast(4, 2);
    for (const nic of input.nics) {
      const mac = input.macs[nic.slot]?.toUpperCase();
      if (!mac) continue;
      const iface = input.record.interfaces.find((i) => i.id === nic.interfaceId);
      if (iface?.mac_address?.toUpperCase() === mac) continue;
      const subject = `interface ${nic.interfaceName} of ${describeRecord(input.record.vm)}`;
      if (!macObjects) {
        await this.netbox.request("PATCH", `virtualization/interfaces/${nic.interfaceId}/`, { body: { mac_address: mac }, subject });
      } else {
        const existing = await this.netbox.list("dcim/mac-addresses", {
          assigned_object_type: VMINTERFACE,
          assigned_object_id: nic.interfaceId,
          mac_address: mac,
        });
        const object =
          existing[0] ??
          (await this.netbox.create(
            "dcim/mac-addresses",
            // The marker is what tells decommission this MAC object is pvectl's (mac-release.ts).
            {
              mac_address: mac,
              assigned_object_type: VMINTERFACE,
              assigned_object_id: nic.interfaceId,
              description: macMarker(input.record.vm.name),
            },
            subject,
          ));
        await this.netbox.patch("virtualization/interfaces", nic.interfaceId, { primary_mac_address: object.id }, { subject });
      }
      wrote.push(`${nic.interfaceName} MAC ${mac}`);
    }
  }

  /**
   * Addresses for the record's interfaces without one (interface-addresses.ts), the first as
   * its primary IPv4 when it has none; reuses what an earlier, interrupted run created.
   */
  async interfaceAddresses(input: WriteBackInput, wrote: string[]): Promise<IpRef | undefined> {
    const { vm } = input.record;
    if (!this.config.writeBack.primaryIp4) return vm.primary_ip4 ? { id: vm.primary_ip4.id, address: vm.primary_ip4.address } : undefined;
    return this.addresses.assign(input.record, wrote, false);
  }

  /** `<name>.<zone>` as the `dns_name` of the record's primary addresses (what NetBox's DNS plugins read). */
  async dnsName(input: WriteBackInput, primaryIp4: IpRef | undefined, wrote: string[]): Promise<void> {
    const zone = this.config.writeBack.dns?.zone;
    if (zone === undefined) return;
    const { vm } = input.record;
    // The name the record has now: a rename during the build is NetBox's word, not the guest's.
    const name = dnsNameOf((await this.guardOf(input.record).latest()).name, zone);
    const ids = [primaryIp4?.id, vm.primary_ip6?.id].filter((id): id is number => id !== undefined);
    if (ids.length === 0) return;
    for (const ip of await this.netbox.list("ipam/ip-addresses", { id: ids })) {
      if (ip.dns_name === name) continue;
      await this.netbox.patch("ipam/ip-addresses", ip.id, { dns_name: name }, { subject: `IP ${ip.address} of ${describeRecord(vm)}` });
      wrote.push(`dns_name ${name} on ${ip.address}`);
    }
  }

  /** The record's status, whatever it is now (decommission: the guest is gone, whatever the record says). */
  async status(record: NetboxVmRecord, status: string, wrote: string[]): Promise<void> {
    if (record.vm.status?.value === status) return;
    await this.netbox.patch(
      "virtualization/virtual-machines",
      record.vm.id,
      { status: status as "staged" },
      { subject: describeRecord(record.vm) },
    );
    wrote.push(`status ${status}`);
  }

  /**
   * The record's status, only while nothing the build used changed since it was selected (a
   * status someone set meanwhile is theirs, and `staged` over a record edited during the build
   * would say its guest is what it asks for). The status the record has afterwards.
   */
  async statusUnlessChanged(record: NetboxVmRecord, status: string, wrote: string[]): Promise<string> {
    if (record.vm.status?.value === status) return status;
    const { result, vm } = await this.guardOf(record).write({
      body: { status: status as "staged" },
      done: (now) => now.status?.value === status,
      allowed: (_now, changes) => changes.length === 0,
      sets: { field: "status", value: status },
    });
    if (result === "written") wrote.push(`status ${status}`);
    return vm.status?.value ?? "";
  }

  /** A journal entry on the VM (NetBox's own change notes), when enabled. */
  async journal(record: NetboxVmRecord, kind: "info" | "success" | "warning" | "danger", text: string): Promise<void> {
    if (!this.config.writeBack.journal) return;
    await this.netbox.create("extras/journal-entries", {
      assigned_object_type: "virtualization.virtualmachine",
      assigned_object_id: record.vm.id,
      kind,
      comments: text,
    });
  }

  /** Everything for a record whose own steps succeeded, then the status. */
  async succeed(input: WriteBackInput): Promise<WriteBackResult> {
    const wrote: string[] = [];
    await this.vmid(input, wrote);
    await this.macs(input, wrote);
    const primaryIp4 = await this.interfaceAddresses(input, wrote);
    await this.dnsName(input, primaryIp4, wrote);
    if (!isBuilt(input.record, this.config)) await this.statusUnlessChanged(input.record, this.config.writeBack.onSuccess, wrote);
    const guard = this.guardOf(input.record);
    const changes = await guard.changes();
    const status = (await guard.latest()).status?.value ?? "";
    return { wrote, changes, status, ...(primaryIp4 !== undefined ? { primaryIp4: primaryIp4.address } : {}) };
  }
}
