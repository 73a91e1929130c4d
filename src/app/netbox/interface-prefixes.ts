// Which prefix an interface's address comes from: the prefix NetBox links to the interface's
// untagged VLAN (the prefix's `vlan`), so a NIC on VLAN 30 gets a VLAN 30 address and Ansible
// reaches the guest where it really is. Only an interface without a VLAN takes the configured
// fallback prefix; a VLAN without a prefix is refused rather than served from another
// network's prefix (the address would be unreachable, and NetBox would hold it as the
// guest's primary address).
import type { NetboxClient } from "../../netbox/client.js";
import type { Prefix, VMInterface } from "../../netbox/generated/types.js";
import { parseCidr } from "../../netbox/ip.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import { describeRecord, type NetboxVmRecord } from "../../sources/netbox/records.js";

/** A problem with the record's NetBox data or the config: the record is invalid, nothing is built. */
export class AddressRefusal extends Error {
  override readonly name = "AddressRefusal";
}

/** Where an interface's address comes from, and how to name that in messages. */
export interface AddressSource {
  prefix: Prefix;
  /** "VLAN 30 (storage)" or "writeBack.primaryIp4.fallbackPrefix". */
  via: string;
}

/** The VLAN whose untagged frames the interface carries (NetBox drops it for other modes). */
function untaggedVlan(iface: VMInterface): VMInterface["untagged_vlan"] {
  const mode = iface.mode?.value;
  return mode === "access" || mode === "tagged" ? iface.untagged_vlan : null;
}

const isIpv4 = (prefix: Prefix): boolean => parseCidr(prefix.prefix)?.family === 4;

export class InterfacePrefixes {
  private readonly byVlan = new Map<number, Promise<Prefix[]>>();
  private fallback: Promise<Prefix> | undefined;

  constructor(
    private readonly netbox: NetboxClient,
    private readonly config: NetboxConfig,
  ) {}

  /** The interface's prefix; undefined when it has no VLAN and no fallback is configured (no address). */
  async of(record: NetboxVmRecord, iface: VMInterface): Promise<AddressSource | undefined> {
    const vlan = untaggedVlan(iface);
    if (vlan) {
      const name = `VLAN ${vlan.vid} (${vlan.name})`;
      const prefixes = await this.prefixesOf(vlan.id);
      const where = `interface ${iface.name} of ${describeRecord(record.vm)} is on ${name}`;
      if (prefixes.length === 0)
        throw new AddressRefusal(
          `${where}, which has no active IPv4 prefix in NetBox; add one with VLAN ${vlan.vid} (${vlan.name}), or move the interface to a VLAN that has one`,
        );
      if (prefixes.length > 1)
        throw new AddressRefusal(
          `${where}, which has ${prefixes.length} active IPv4 prefixes (${prefixes.map((p) => p.prefix).join(", ")}) and pvectl will not guess which one; keep one active`,
        );
      return { prefix: prefixes[0]!, via: name };
    }
    const wanted = this.config.writeBack.primaryIp4?.fallbackPrefix;
    if (wanted === undefined) return undefined;
    this.fallback ??= this.readFallback(wanted);
    return { prefix: await this.fallback, via: "writeBack.primaryIp4.fallbackPrefix" };
  }

  private prefixesOf(vlanId: number): Promise<Prefix[]> {
    let found = this.byVlan.get(vlanId);
    if (found === undefined) {
      found = this.netbox.list("ipam/prefixes", { vlan_id: vlanId, status: "active" }).then((all) => all.filter(isIpv4));
      this.byVlan.set(vlanId, found);
    }
    return found;
  }

  private async readFallback(wanted: string): Promise<Prefix> {
    const found = await this.netbox.list("ipam/prefixes", { prefix: wanted });
    if (found.length !== 1 || !found[0])
      throw new AddressRefusal(
        `writeBack.primaryIp4.fallbackPrefix ${wanted} ${found.length === 0 ? "does not exist in NetBox" : "matches several prefixes (VRFs)"}; create it or fix ${this.config.file}`,
      );
    return found[0];
  }
}
