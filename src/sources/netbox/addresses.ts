// The addresses a record's guest is configured with: per interface, its IPv4 (the record's
// primary IPv4 where that is, else the interface's first IPv4 address in NetBox) and the
// primary IPv6, each with the gateway its prefix records (gateways.ts). Read once per sync
// for all records, a few requests in all, before the records are mapped.
import type { NetboxClient } from "../../netbox/client.js";
import type { IPAddress } from "../../netbox/generated/types.js";
import { type Gateway, missingGateway, PrefixGateways } from "./gateways.js";
import type { NetboxVmRecord } from "./records.js";

/** One interface's addresses, as cloud-init's ipconfigN or a container NIC's ip/gw take them. */
export interface InterfaceAddresses {
  interfaceId: number;
  ip4?: string;
  gw4?: string;
  /** Where gw4 came from, for messages (a gateway equal to the address is refused by the mapping). */
  gw4From?: string;
  /** Why ip4 has no gateway (its prefix records none): the mapping refuses such an address. */
  gw4Missing?: string;
  ip6?: string;
  gw6?: string;
}

export type { Gateway };

const ID_CHUNK = 100;
const VMINTERFACE = "virtualization.vminterface";

/** Every IP address on the records' interfaces and their primary ones (a primary may sit elsewhere). */
async function addressObjects(client: NetboxClient, records: NetboxVmRecord[]): Promise<IPAddress[]> {
  const vmIds = records.map((r) => r.vm.id);
  const out: IPAddress[] = [];
  for (let i = 0; i < vmIds.length; i += ID_CHUNK)
    out.push(...(await client.list("ipam/ip-addresses", { virtual_machine_id: vmIds.slice(i, i + ID_CHUNK) })));
  return out;
}

const interfaceOf = (ip: IPAddress): number | undefined =>
  ip.assigned_object_type === VMINTERFACE && typeof ip.assigned_object_id === "number" ? ip.assigned_object_id : undefined;

const isIpv4 = (address: string): boolean => !address.includes(":");

/**
 * Interface id -> its IPv4 address: the primary where it is assigned, else the interface's
 * first IPv4 (lowest id), else what a plan-only run would assign (`pendingIp4`).
 */
function ipv4ByInterface(record: NetboxVmRecord, objects: IPAddress[]): Map<number, string> {
  const out = new Map<number, string>();
  const primary = objects.find((ip) => ip.id === record.vm.primary_ip4?.id);
  const primaryOn = primary ? interfaceOf(primary) : undefined;
  if (primary && primaryOn !== undefined) out.set(primaryOn, primary.address);
  const ifaceIds = new Set(record.interfaces.map((i) => i.id));
  for (const ip of [...objects].sort((a, b) => a.id - b.id)) {
    const on = interfaceOf(ip);
    if (on !== undefined && ifaceIds.has(on) && isIpv4(ip.address) && !out.has(on)) out.set(on, ip.address);
  }
  for (const [on, address] of Object.entries(record.pendingIp4 ?? {})) if (!out.has(Number(on))) out.set(Number(on), address);
  return out;
}

/** Fills each record's `addresses`: every interface's IPv4 and the primary IPv6, with gateways. */
export async function loadGuestAddresses(client: NetboxClient, records: NetboxVmRecord[], gatewayField: string): Promise<void> {
  const objects = await addressObjects(client, records);
  const byId = new Map(objects.map((ip) => [ip.id, ip]));
  const gateways = new PrefixGateways(client, gatewayField);
  for (const record of records) {
    const byInterface = new Map<number, InterfaceAddresses>();
    const entry = (interfaceId: number) => byInterface.get(interfaceId) ?? byInterface.set(interfaceId, { interfaceId }).get(interfaceId)!;
    const mine = objects.filter((ip) => record.interfaces.some((i) => i.id === interfaceOf(ip)));
    for (const [interfaceId, address] of ipv4ByInterface(record, mine)) {
      const held = await gateways.containing(address);
      Object.assign(
        entry(interfaceId),
        { ip4: address },
        held?.gateway
          ? { gw4: held.gateway.address, gw4From: held.gateway.from }
          : { gw4Missing: held ? missingGateway(held.prefix, gatewayField) : `no prefix in NetBox holds ${address}, so it has no gateway` },
      );
    }
    const ip6 = record.vm.primary_ip6 ? byId.get(record.vm.primary_ip6.id) : undefined;
    const ip6On = ip6 ? interfaceOf(ip6) : undefined;
    if (ip6 && ip6On !== undefined) {
      const gw = (await gateways.containing(ip6.address))?.gateway;
      Object.assign(entry(ip6On), { ip6: ip6.address, ...(gw ? { gw6: gw.address } : {}) });
    }
    record.addresses = [...byInterface.values()];
  }
}
