// An IPv4 address for every interface of a record that has none yet, each from its own
// interface's prefix (interface-prefixes.ts), never the prefix's gateway (gateways.ts: recorded
// in NetBox, else the record is refused), the platform's gateway, or an address NetBox holds.
// The record's first interface with an address gives its primary IPv4.
//
// `plan` chooses without writing and holds each choice for the rest of the run, so a plan of
// several records shows what sync will really hand out: the second record on a prefix with
// one free address gets an error naming the prefix, not the first record's address. `assign`
// creates the IP objects; before a build it keeps off the addresses the run holds for other
// records (whose addresses are written back after their build), so the run hands out exactly
// what its plan said.
import type { NetboxClient } from "../../netbox/client.js";
import type { IPAddress, VMInterface } from "../../netbox/generated/types.js";
import { hostOf } from "../../netbox/ip.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import { missingGateway, PrefixGateways } from "../../sources/netbox/gateways.js";
import { MAX_NICS } from "../../sources/netbox/mapping-common.js";
import { describeRecord, type NetboxVmRecord } from "../../sources/netbox/records.js";
import { type AllocationRequest, allocateAddress, firstAllowedAddress, fullPrefix } from "./address-allocation.js";
import type { GuardedRecord } from "./guarded-record.js";
import { AddressRefusal, type AddressSource, InterfacePrefixes } from "./interface-prefixes.js";

const VMINTERFACE = "virtualization.vminterface";

export interface IpRef {
  id: number;
  address: string;
}

/** An address a plan would give an interface. */
export interface PlannedAddress {
  interfaceId: number;
  interfaceName: string;
  address: string;
  prefix: string;
}

/** An interface that needs an address, where from, and what it may not get. */
interface Need {
  iface: VMInterface;
  source: AddressSource;
  request: Omit<AllocationRequest, "body">;
}

interface Hold {
  recordId: number;
  why: string;
}

export class InterfaceAddressAssigner {
  /** Prefix id -> host address -> the record this run holds it for. */
  private readonly held = new Map<number, Map<string, Hold>>();
  private readonly prefixes: InterfacePrefixes;
  private readonly gateways: PrefixGateways;

  constructor(
    private readonly netbox: NetboxClient,
    private readonly config: NetboxConfig,
    /** The guarded writes to a record's VM object (writeback.ts), for its primary IPv4. */
    private readonly guardOf: (record: NetboxVmRecord) => GuardedRecord,
  ) {
    this.prefixes = new InterfacePrefixes(netbox, config);
    this.gateways = new PrefixGateways(netbox, config.customFields.gateway);
  }

  /**
   * The addresses sync would give the record's interfaces that have none, held for it for the
   * rest of the run. Nothing is written. Throws an AddressRefusal when the record's NetBox data
   * does not say where an address comes from, an Error when a prefix has no address left.
   */
  async plan(record: NetboxVmRecord): Promise<PlannedAddress[]> {
    const out: PlannedAddress[] = [];
    try {
      for (const need of await this.needs(record)) {
        // Every address held so far, this record's other interfaces' included.
        const request = this.keepingOff(need, () => true);
        const address = await firstAllowedAddress(this.netbox, need.source.prefix.id, request.forbidden);
        if (address === undefined) throw fullPrefix(request);
        this.hold(need, record, address);
        out.push({ interfaceId: need.iface.id, interfaceName: need.iface.name, address, prefix: need.source.prefix.prefix });
      }
    } catch (err) {
      // A record that gets no addresses is not built: what it held goes to the records after it.
      for (const held of this.held.values()) for (const [address, hold] of held) if (hold.recordId === record.vm.id) held.delete(address);
      throw err;
    }
    return out;
  }

  /**
   * Creates an address for each of the record's interfaces without one and makes the first
   * interface's address its primary IPv4 when it has none; the primary, if any. With
   * `keepOffHeld`, addresses the run holds for other records are not taken.
   */
  async assign(record: NetboxVmRecord, wrote: string[], keepOffHeld: boolean): Promise<IpRef | undefined> {
    const { vm } = record;
    const others = (hold: Hold) => keepOffHeld && hold.recordId !== vm.id;
    const existing = await this.existing(record);
    for (const need of await this.needs(record, existing)) {
      const ip = await allocateAddress(this.netbox, {
        ...this.keepingOff(need, others),
        body: {
          assigned_object_type: VMINTERFACE,
          assigned_object_id: need.iface.id,
          status: (this.config.writeBack.primaryIp4?.status ?? "active") as "active",
          description: `pvectl: ${vm.name}`,
        },
      });
      existing.set(need.iface.id, ip);
      wrote.push(`${need.iface.name} IPv4 ${ip.address} (${need.source.via})`);
    }
    if (vm.primary_ip4) return { id: vm.primary_ip4.id, address: vm.primary_ip4.address };
    const first = record.interfaces.map((i) => existing.get(i.id)).find((ip) => ip !== undefined);
    if (!first) return undefined;
    // The address is the guest's whatever else changed; a primary IPv4 someone set meanwhile is theirs.
    const { result, vm: now } = await this.guardOf(record).write({
      body: { primary_ip4: first.id },
      done: (latest) => latest.primary_ip4?.id === first.id,
      allowed: (latest) => !latest.primary_ip4,
    });
    const primary = now.primary_ip4 ?? {
      id: first.id,
      url: "",
      display: first.address,
      family: { value: "4", label: "IPv4" },
      address: first.address,
    };
    vm.primary_ip4 = primary;
    if (result === "written") wrote.push(`primary IPv4 ${first.address}`);
    return { id: primary.id, address: primary.address };
  }

  /** The IPv4 objects on the record's interfaces: interface id -> its first one. */
  private async existing(record: NetboxVmRecord): Promise<Map<number, IPAddress>> {
    const ids = new Set(record.interfaces.map((i) => i.id));
    const out = new Map<number, IPAddress>();
    const all = await this.netbox.list("ipam/ip-addresses", { virtual_machine_id: record.vm.id, family: 4 });
    for (const ip of all.sort((a, b) => a.id - b.id)) {
      const on = ip.assigned_object_type === VMINTERFACE ? ip.assigned_object_id : null;
      if (typeof on === "number" && ids.has(on) && !out.has(on)) out.set(on, ip);
    }
    return out;
  }

  /** The record's interfaces without an IPv4 that have a prefix to take one from. */
  private async needs(record: NetboxVmRecord, existing?: Map<number, IPAddress>): Promise<Need[]> {
    const have = existing ?? (await this.existing(record));
    const out: Need[] = [];
    for (const iface of record.interfaces.slice(0, MAX_NICS)) {
      if (have.has(iface.id)) continue;
      const source = await this.prefixes.of(record, iface);
      if (source === undefined) continue;
      const subject = `interface ${iface.name} of ${describeRecord(record.vm)}`;
      const gateway = await this.gateways.of(source.prefix);
      if (gateway === undefined)
        throw new AddressRefusal(
          `${subject} (${source.via}) gets its address from ${missingGateway(source.prefix, this.config.customFields.gateway)}`,
        );
      const forbidden = new Map<string, string>([[gateway.address, `the gateway: ${gateway.from}`]]);
      const platformGw = this.platformGateway(record);
      if (platformGw !== undefined) forbidden.set(platformGw.address, platformGw.why);
      out.push({ iface, source, request: { prefix: source.prefix, forbidden, subject } });
    }
    return out;
  }

  /** The need's request, also keeping off the addresses held in this run that `keepOff` picks. */
  private keepingOff(need: Need, keepOff: (hold: Hold) => boolean): Need["request"] {
    const forbidden = new Map(need.request.forbidden);
    for (const [address, hold] of this.held.get(need.source.prefix.id) ?? []) if (keepOff(hold)) forbidden.set(address, hold.why);
    return { ...need.request, forbidden };
  }

  private hold(need: Need, record: NetboxVmRecord, address: string): void {
    const prefix = need.source.prefix.id;
    const held = this.held.get(prefix) ?? this.held.set(prefix, new Map()).get(prefix)!;
    held.set(hostOf(address), { recordId: record.vm.id, why: `chosen for ${describeRecord(record.vm)} in this run` });
  }

  /** The gateway the record's platform configures into its guests: no guest may have it either. */
  private platformGateway(record: NetboxVmRecord): { address: string; why: string } | undefined {
    const slug = record.vm.platform?.slug ?? this.config.defaults.platform ?? "";
    const platform = this.config.platforms[slug];
    const gw = platform?.cloudInit?.gw ?? platform?.container?.gw;
    return gw === undefined ? undefined : { address: gw, why: `the gateway of platform ${slug}` };
  }
}
