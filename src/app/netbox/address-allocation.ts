// Taking the next free address of writeBack.primaryIp4's prefix for a record. NetBox's own
// allocation (POST available-ips) hands out the first address no IP object holds, and that is
// the gateway of a prefix whose router is not recorded in NetBox (10.20.0.1 of 10.20.0.0/24):
// the first guest would get the router's address and every later guest would route through
// it. So the address is chosen here, skipping the addresses no guest may have (the gateway;
// NetBox itself already leaves out the network and broadcast addresses and every address an
// IP object holds, `reserved` ones included), and created as an IP object of its own.
//
// Two runs (two `netbox serve`, serve and a timer sync) may choose the same address at once.
// NetBox refuses the second object only when it enforces unique addresses (ENFORCE_GLOBAL_UNIQUE
// or the VRF's enforce_unique), so the outcome is read back either way: of the objects holding
// the address, the oldest (lowest id) keeps it; a run whose object is not that one deletes it
// and chooses again.
import type { NetboxClient } from "../../netbox/client.js";
import { NetboxError } from "../../netbox/errors.js";
import type { IPAddress, Prefix, WritableIPAddressRequest } from "../../netbox/generated/types.js";
import { hostOf } from "../../netbox/ip.js";

/** Attempts before giving up when other runs keep taking the addresses chosen. */
const MAX_ATTEMPTS = 10;

export interface AllocationRequest {
  prefix: Pick<Prefix, "id" | "prefix" | "vrf">;
  /** Host addresses (no mask) this guest may not have, each with why: "the gateway (...)", "planned for ... in this run". */
  forbidden: Map<string, string>;
  /** The rest of the IP object: assignment, status, description. */
  body: Omit<WritableIPAddressRequest, "address">;
  subject: string;
}

/** The first free address of the prefix that is not forbidden (undefined: none is left). */
export async function firstAllowedAddress(
  netbox: NetboxClient,
  prefixId: number,
  forbidden: Map<string, string>,
): Promise<string | undefined> {
  // Forbidden addresses are few, and each is free at most once among the first candidates.
  const candidates = await netbox.availableIps(prefixId, forbidden.size + 1);
  return candidates.find((c) => !forbidden.has(hostOf(c.address)))?.address;
}

/** NetBox's answer when it enforces unique addresses and the address is taken. */
function isDuplicate(err: unknown): boolean {
  return err instanceof NetboxError && err.status === 400 && /duplicate/i.test(JSON.stringify(err.body));
}

export function fullPrefix(request: Omit<AllocationRequest, "body">): Error {
  const skipped = [...request.forbidden].map(([address, why]) => `${address} (${why})`).join(", ");
  return new Error(
    `prefix ${request.prefix.prefix} has no free address left for ${request.subject}${skipped ? ` other than ${skipped}` : ""}; widen the prefix or free addresses in NetBox`,
  );
}

/** Creates the IP object for the first allowed free address; the object this run keeps. */
export async function allocateAddress(netbox: NetboxClient, request: AllocationRequest): Promise<IPAddress> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const address = await firstAllowedAddress(netbox, request.prefix.id, request.forbidden);
    if (address === undefined) throw fullPrefix(request);
    let created: IPAddress;
    try {
      created = await netbox.create("ipam/ip-addresses", { ...request.body, address }, `${address} for ${request.subject}`);
    } catch (err) {
      if (isDuplicate(err)) continue;
      throw err;
    }
    const holders = await netbox.list("ipam/ip-addresses", {
      address: hostOf(address),
      parent: request.prefix.prefix,
      vrf_id: request.prefix.vrf?.id ?? "null",
    });
    const oldest = holders.reduce((a, b) => (b.id < a.id ? b : a), created);
    if (oldest.id === created.id) return created;
    // Another run took the address first: give it back and choose again.
    await netbox.delete("ipam/ip-addresses", created.id, `${address} (taken by another run first) for ${request.subject}`);
  }
  throw new Error(
    `could not take an address of prefix ${request.prefix.prefix} for ${request.subject} in ${MAX_ATTEMPTS} attempts: other runs kept taking the same ones; run again`,
  );
}
