// The gateway of a NetBox prefix, as NetBox records it: the prefix's gateway custom field
// (`customFields.gateway`), else the one IP address inside the prefix tagged `gateway` (the
// router's address, as many teams record it). Nothing else: a prefix's first address is the
// router on many networks and not on others (.254, an FHRP address), and a guest configured
// with the wrong gateway, or handed the router's address, breaks quietly. So a prefix that
// records no gateway has none here, and the callers refuse instead of guessing.
import type { NetboxClient } from "../../netbox/client.js";
import type { Prefix } from "../../netbox/generated/types.js";
import { hostOf, parseCidr } from "../../netbox/ip.js";

/** The tag that marks the router's IP address in NetBox. */
export const GATEWAY_TAG = "gateway";

/** A prefix's gateway and where it came from (for messages). */
export interface Gateway {
  address: string;
  from: string;
}

/** The gateway the prefix's custom field `field` names, if it names one. */
export function customFieldGateway(prefix: Pick<Prefix, "prefix" | "custom_fields">, field: string): Gateway | undefined {
  const custom = prefix.custom_fields?.[field];
  if (typeof custom !== "string" || custom.trim() === "") return undefined;
  return { address: hostOf(custom.trim()), from: `the custom field ${field} of prefix ${prefix.prefix}` };
}

/** What to do about a prefix that records no gateway (the end of a refusal). */
export function missingGateway(prefix: Pick<Prefix, "prefix">, field: string): string {
  return `prefix ${prefix.prefix} records no gateway in NetBox (its custom field ${field} is empty and no IP address in it is tagged ${GATEWAY_TAG}), and pvectl will not guess one; set the custom field to the router's address, or tag the router's IP address ${GATEWAY_TAG}`;
}

/** The most specific prefix that holds an address, as NetBox's `contains` lists them. */
function narrowest(prefixes: Prefix[]): Prefix | undefined {
  return [...prefixes].sort((a, b) => (parseCidr(b.prefix)?.length ?? 0) - (parseCidr(a.prefix)?.length ?? 0))[0];
}

/** Gateways of prefixes, read once per prefix for a whole run. */
export class PrefixGateways {
  private readonly byPrefix = new Map<number, Promise<Gateway | undefined>>();
  private tagExists: Promise<boolean> | undefined;

  constructor(
    private readonly netbox: NetboxClient,
    /** The custom field on ipam.prefix that holds the gateway. */
    readonly field: string,
  ) {}

  /** The prefix's recorded gateway (undefined: it records none). */
  of(prefix: Prefix): Promise<Gateway | undefined> {
    let found = this.byPrefix.get(prefix.id);
    if (found === undefined) {
      found = this.read(prefix);
      this.byPrefix.set(prefix.id, found);
    }
    return found;
  }

  /** The most specific prefix holding the address, with its recorded gateway. */
  async containing(address: string): Promise<{ prefix: Prefix; gateway?: Gateway } | undefined> {
    const prefix = narrowest(await this.netbox.list("ipam/prefixes", { contains: hostOf(address) }));
    if (!prefix) return undefined;
    const gateway = await this.of(prefix);
    return { prefix, ...(gateway ? { gateway } : {}) };
  }

  private async read(prefix: Prefix): Promise<Gateway | undefined> {
    const custom = customFieldGateway(prefix, this.field);
    if (custom) return custom;
    // NetBox refuses a filter on a tag that does not exist (400), so ask only when it does.
    this.tagExists ??= this.netbox.list("extras/tags", { slug: GATEWAY_TAG }).then((tags) => tags.length > 0);
    if (!(await this.tagExists)) return undefined;
    const tagged = await this.netbox.list("ipam/ip-addresses", {
      parent: prefix.prefix,
      tag: GATEWAY_TAG,
      vrf_id: prefix.vrf?.id ?? "null",
    });
    if (tagged.length > 1)
      throw new Error(
        `prefix ${prefix.prefix} has ${tagged.length} IP addresses tagged ${GATEWAY_TAG} (${tagged.map((ip) => ip.address).join(", ")}); keep the tag on the router's address only`,
      );
    const ip = tagged[0];
    return ip
      ? { address: hostOf(ip.address), from: `the IP address ${ip.address} tagged ${GATEWAY_TAG} in prefix ${prefix.prefix}` }
      : undefined;
  }
}
