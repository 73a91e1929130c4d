// The addresses a record's guest is configured with: its primary IPv4 and IPv6, each on the
// interface NetBox assigns it to, with the gateway of the prefix it is in (the prefix's
// gateway custom field, else the prefix's first address, the usual router address). Read
// once per sync for all records, a few requests in all, before the records are mapped.
import type { NetboxClient } from "../../netbox/client.js";
import type { IPAddress, Prefix } from "../../netbox/generated/types.js";
import { type Cidr, formatAddress, networkOf, parseCidr } from "../../netbox/ip.js";
import type { NetboxVmRecord } from "./records.js";

/** One interface's addresses, as cloud-init's ipconfigN or a container NIC's ip/gw take them. */
export interface InterfaceAddresses {
  interfaceId: number;
  ip4?: string;
  gw4?: string;
  /** Where gw4 came from, for messages (a gateway equal to the address is refused by the mapping). */
  gw4From?: string;
  ip6?: string;
  gw6?: string;
}

/** A prefix's gateway and where it came from. */
export interface Gateway {
  address: string;
  from: string;
}

const ID_CHUNK = 100;

/** The prefix's first address: what a gateway is unless the prefix says otherwise. */
function firstAddress(prefix: Cidr): string {
  return formatAddress(prefix.family, networkOf(prefix) + 1n);
}

/** The most specific prefix that holds the address, as NetBox's `contains` lists them. */
function narrowest(prefixes: Prefix[]): Prefix | undefined {
  return [...prefixes].sort((a, b) => (parseCidr(b.prefix)?.length ?? 0) - (parseCidr(a.prefix)?.length ?? 0))[0];
}

/** The prefix's gateway: its custom field `field`, else its first address. */
export function prefixGateway(prefix: Pick<Prefix, "prefix" | "custom_fields">, field: string): Gateway | undefined {
  const custom = prefix.custom_fields?.[field];
  if (typeof custom === "string" && custom.trim() !== "") return { address: custom.trim().split("/")[0]!, from: `the custom field ${field} of prefix ${prefix.prefix}` };
  const cidr = parseCidr(prefix.prefix);
  return cidr ? { address: firstAddress(cidr), from: `the first address of prefix ${prefix.prefix} (its custom field ${field} is empty)` } : undefined;
}

async function gatewayOf(client: NetboxClient, address: string, field: string): Promise<Gateway | undefined> {
  const prefix = narrowest(await client.list("ipam/prefixes", { contains: address.split("/")[0]! }));
  return prefix ? prefixGateway(prefix, field) : undefined;
}

async function primaryObjects(client: NetboxClient, records: NetboxVmRecord[]): Promise<IPAddress[]> {
  const ids = records.flatMap((r) => [r.vm.primary_ip4?.id, r.vm.primary_ip6?.id]).filter((id): id is number => id !== undefined && id > 0);
  const out: IPAddress[] = [];
  for (let i = 0; i < ids.length; i += ID_CHUNK) out.push(...(await client.list("ipam/ip-addresses", { id: ids.slice(i, i + ID_CHUNK) })));
  return out;
}

/**
 * The interface an address is assigned to; an address not in NetBox yet (plan only shows the
 * one sync would take) goes to the first interface, where sync assigns it.
 */
function interfaceOf(ip: IPAddress | undefined, record: NetboxVmRecord): number | undefined {
  if (!ip) return record.interfaces[0]?.id;
  return ip.assigned_object_type === "virtualization.vminterface" && typeof ip.assigned_object_id === "number" ? ip.assigned_object_id : undefined;
}

/** Fills each record's `addresses` from its primary IPv4/IPv6 (records without any get none). */
export async function loadGuestAddresses(client: NetboxClient, records: NetboxVmRecord[], gatewayField: string): Promise<void> {
  const objects = new Map((await primaryObjects(client, records)).map((ip) => [ip.id, ip]));
  const gateways = new Map<string, Gateway | undefined>();
  const gateway = async (address: string) => {
    if (!gateways.has(address)) gateways.set(address, await gatewayOf(client, address, gatewayField));
    return gateways.get(address);
  };
  for (const record of records) {
    const byInterface = new Map<number, InterfaceAddresses>();
    for (const [family, brief] of [["4", record.vm.primary_ip4], ["6", record.vm.primary_ip6]] as const) {
      if (!brief) continue;
      const interfaceId = interfaceOf(objects.get(brief.id), record);
      if (interfaceId === undefined) continue;
      const entry = byInterface.get(interfaceId) ?? { interfaceId };
      const gw = await gateway(brief.address);
      if (family === "4") Object.assign(entry, { ip4: brief.address, ...(gw ? { gw4: gw.address, gw4From: gw.from } : {}) });
      else Object.assign(entry, { ip6: brief.address, ...(gw ? { gw6: gw.address } : {}) });
      byInterface.set(interfaceId, entry);
    }
    record.addresses = [...byInterface.values()];
  }
}
