// Writing back to NetBox what Proxmox VE decided for a record, in an order that makes a rerun
// after a crash converge: vmid first (so the next run finds the guest by vmid), then MACs and
// the primary IPv4 (each step first looks for what an earlier, interrupted run already wrote,
// so nothing is created twice), and the status last (only once everything else is there).
import type { NetboxClient } from "../../netbox/client.js";
import type { Prefix } from "../../netbox/generated/types.js";
import { prefixGateway } from "../../sources/netbox/addresses.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import type { NicBinding } from "../../sources/netbox/mapping.js";
import { describeRecord, type NetboxVmRecord } from "../../sources/netbox/records.js";
import { allocateAddress, firstAllowedAddress } from "./address-allocation.js";

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
}

const VMINTERFACE = "virtualization.vminterface";

/** Statuses that say a record's guest is built: day-2 runs converge such records and keep their status. */
const BUILT_STATUSES = new Set(["staged", "active"]);

/** Whether the record is past `planned`: its guest was built (it is converged, not staged, by sync). */
export function isBuilt(record: NetboxVmRecord, config: NetboxConfig): boolean {
  const status = record.vm.status?.value ?? "";
  return BUILT_STATUSES.has(status) || status === config.writeBack.onSuccess;
}

interface IpRef {
  id: number;
  address: string;
}

/** The DNS name pvectl writes for a record: its name in the configured zone, lower case. */
export function dnsNameOf(name: string, zone: string): string {
  return `${name}.${zone}`.toLowerCase();
}

export class WriteBack {
  private prefixRow: Prefix | undefined;

  constructor(
    private readonly netbox: NetboxClient,
    private readonly config: NetboxConfig,
  ) {}

  /** vmid -> custom field; skipped when NetBox already holds it. */
  async vmid(input: WriteBackInput, wrote: string[]): Promise<void> {
    const field = this.config.customFields.vmid;
    const { vm } = input.record;
    if (Number(vm.custom_fields?.[field]) === input.vmid) return;
    await this.netbox.patch("virtualization/virtual-machines", vm.id, { custom_fields: { [field]: input.vmid } }, { subject: describeRecord(vm) });
    wrote.push(`${field}=${input.vmid}`);
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
        const existing = await this.netbox.list("dcim/mac-addresses", { assigned_object_type: VMINTERFACE, assigned_object_id: nic.interfaceId, mac_address: mac });
        const object =
          existing[0] ??
          (await this.netbox.create("dcim/mac-addresses", { mac_address: mac, assigned_object_type: VMINTERFACE, assigned_object_id: nic.interfaceId }, subject));
        await this.netbox.patch("virtualization/interfaces", nic.interfaceId, { primary_mac_address: object.id }, { subject });
      }
      wrote.push(`${nic.interfaceName} MAC ${mac}`);
    }
  }

  private async prefix(): Promise<Prefix | undefined> {
    const wanted = this.config.writeBack.primaryIp4?.prefix;
    if (!wanted) return undefined;
    if (this.prefixRow === undefined) {
      const found = await this.netbox.list("ipam/prefixes", { prefix: wanted });
      if (found.length !== 1 || !found[0])
        throw new Error(`writeBack.primaryIp4.prefix ${wanted} ${found.length === 0 ? "does not exist in NetBox" : "matches several prefixes (VRFs)"}; create it or fix ${this.config.file}`);
      this.prefixRow = found[0];
    }
    return this.prefixRow;
  }

  /**
   * Addresses no guest of the record may take, with why: the prefix's gateway (its custom
   * field, else its first address) and the gateway the record's platform names.
   */
  private forbiddenFor(prefix: Prefix, record: NetboxVmRecord | undefined): Map<string, string> {
    const out = new Map<string, string>();
    const gateway = prefixGateway(prefix, this.config.customFields.gateway);
    if (gateway) out.set(gateway.address, `the gateway: ${gateway.from}`);
    const slug = record?.vm.platform?.slug ?? this.config.defaults.platform ?? "";
    const platform = this.config.platforms[slug];
    const platformGw = platform?.cloudInit?.gw ?? platform?.container?.gw;
    if (platformGw !== undefined) out.set(platformGw, `the gateway of platform ${slug}`);
    return out;
  }

  /** Primary IPv4 from the configured prefix, on the first interface; reuses an address an earlier run assigned. */
  async primaryIp4(input: WriteBackInput, wrote: string[]): Promise<IpRef | undefined> {
    const { vm } = input.record;
    if (vm.primary_ip4) return { id: vm.primary_ip4.id, address: vm.primary_ip4.address };
    const first = input.nics[0];
    if (!first) return undefined;
    return this.assignPrimaryIp4(input.record, first.interfaceId, wrote);
  }

  /**
   * The record's primary IPv4 assigned before its guest is built, so the address goes into the
   * guest (cloud-init ipconfig, a container's NIC): the same allocation as at write-back, made
   * earlier; the record is updated in place. A build that then fails leaves the address on
   * the interface, and the next run uses it again.
   */
  async primaryIp4BeforeBuild(record: NetboxVmRecord, wrote: string[]): Promise<void> {
    const first = record.interfaces[0];
    if (record.vm.primary_ip4 || !first) return;
    const ip = await this.assignPrimaryIp4(record, first.id, wrote);
    if (ip) record.vm.primary_ip4 = { id: ip.id, url: "", display: ip.address, family: { value: "4", label: "IPv4" }, address: ip.address };
  }

  /** The first free address of the configured prefix a guest may have, without taking it (plan only: what sync would assign). */
  async nextFreeIp4(record?: NetboxVmRecord): Promise<string | undefined> {
    const prefix = await this.prefix();
    if (prefix === undefined) return undefined;
    return firstAllowedAddress(this.netbox, prefix.id, this.forbiddenFor(prefix, record));
  }

  private async assignPrimaryIp4(record: NetboxVmRecord, interfaceId: number, wrote: string[]): Promise<IpRef | undefined> {
    const prefix = await this.prefix();
    if (prefix === undefined) return undefined;
    const { vm } = record;
    const subject = describeRecord(vm);
    const assigned = await this.netbox.list("ipam/ip-addresses", { vminterface_id: interfaceId, parent: prefix.prefix });
    const ip =
      assigned[0] ??
      (await allocateAddress(this.netbox, {
        prefix,
        forbidden: this.forbiddenFor(prefix, record),
        body: {
          assigned_object_type: VMINTERFACE,
          assigned_object_id: interfaceId,
          status: (this.config.writeBack.primaryIp4?.status ?? "active") as "active",
          description: `pvectl: ${vm.name}`,
        },
        subject,
      }));
    await this.netbox.patch("virtualization/virtual-machines", vm.id, { primary_ip4: ip.id }, { subject });
    wrote.push(`primary IPv4 ${ip.address}`);
    return { id: ip.id, address: ip.address };
  }

  /** `<name>.<zone>` as the `dns_name` of the record's primary addresses (what NetBox's DNS plugins read). */
  async dnsName(input: WriteBackInput, primaryIp4: IpRef | undefined, wrote: string[]): Promise<void> {
    const zone = this.config.writeBack.dns?.zone;
    if (zone === undefined) return;
    const { vm } = input.record;
    const name = dnsNameOf(vm.name, zone);
    const ids = [primaryIp4?.id, vm.primary_ip6?.id].filter((id): id is number => id !== undefined);
    if (ids.length === 0) return;
    for (const ip of await this.netbox.list("ipam/ip-addresses", { id: ids })) {
      if (ip.dns_name === name) continue;
      await this.netbox.patch("ipam/ip-addresses", ip.id, { dns_name: name }, { subject: `IP ${ip.address} of ${describeRecord(vm)}` });
      wrote.push(`dns_name ${name} on ${ip.address}`);
    }
  }

  async status(record: NetboxVmRecord, status: string, wrote: string[]): Promise<void> {
    if (record.vm.status?.value === status) return;
    await this.netbox.patch("virtualization/virtual-machines", record.vm.id, { status: status as "staged" }, { subject: describeRecord(record.vm) });
    wrote.push(`status ${status}`);
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
    const primaryIp4 = await this.primaryIp4(input, wrote);
    await this.dnsName(input, primaryIp4, wrote);
    if (!isBuilt(input.record, this.config)) await this.status(input.record, this.config.writeBack.onSuccess, wrote);
    return { wrote, ...(primaryIp4 !== undefined ? { primaryIp4: primaryIp4.address } : {}) };
  }
}
