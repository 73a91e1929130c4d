// What the NetBox token of `netbox sync`, `netbox serve` and `netbox decommission` needs, as
// NetBox object permissions (an object type and actions, assigned to the token's user), by
// what those commands read and write with this config. NetBox checks each request against
// them: a list needs `view` on the object type (it answers an empty list without), a write
// `add`, `change` or `delete`. The list follows the NetBox calls in src/app/netbox/ and
// src/sources/netbox/; test/app/access-netbox-proof.test.ts compares it with the requests a
// sync and a decommission send.
import type { NetboxConfig } from "../sources/netbox/config.js";

export type NetboxAction = "view" | "add" | "change" | "delete";
export type NetboxCommand = "sync" | "serve" | "decommission";

/** One action on one object type, with which commands need it and why. */
export interface NetboxPermission {
  /** NetBox's object type, `app_label.model` (virtualization.virtualmachine). */
  objectType: string;
  action: NetboxAction;
  commands: NetboxCommand[];
  why: string;
}

const BUILD: NetboxCommand[] = ["sync", "serve"];
const ALL: NetboxCommand[] = ["sync", "serve", "decommission"];
const RETIRE: NetboxCommand[] = ["decommission"];

type Rule = [objectType: string, action: NetboxAction, commands: NetboxCommand[], why: string, applies: (c: NetboxConfig) => boolean];

const always = () => true;
const allocates = (c: NetboxConfig) => c.writeBack.primaryIp4 !== undefined;
const macObjects = (c: NetboxConfig) => c.writeBack.macs;
const releasesMacs = (c: NetboxConfig) => c.decommission.releaseMacs;

/**
 * In the order an operator grants them: the records, their parts, addresses, then NetBox's own
 * objects. One object type and action may have a rule per command set (merged in the output).
 */
const RULES: Rule[] = [
  ["virtualization.virtualmachine", "view", ALL, "the selected records, and which record a guest was built for", always],
  ["virtualization.virtualmachine", "change", BUILD, "the vmid custom field, the status, the primary IPv4", always],
  ["virtualization.virtualmachine", "change", RETIRE, "the vmid custom field cleared, status offline", always],
  [
    "virtualization.virtualmachine",
    "delete",
    RETIRE,
    "the record itself (decommission.final: delete)",
    (c) => c.decommission.final === "delete",
  ],
  ["virtualization.vminterface", "view", ALL, "the records' interfaces (NICs, VLANs, MACs)", always],
  ["virtualization.vminterface", "change", BUILD, "the MAC written back: primary_mac_address (NetBox 4.2+) or mac_address", macObjects],
  ["virtualization.vminterface", "change", RETIRE, "mac_address cleared (NetBox before 4.2; decommission.releaseMacs)", releasesMacs],
  [
    "virtualization.vminterface",
    "delete",
    RETIRE,
    "the record's interfaces (decommission.deleteInterfaces)",
    (c) => c.decommission.deleteInterfaces,
  ],
  ["virtualization.virtualdisk", "view", ALL, "the records' virtual disks (sizes, the slot each keeps)", always],
  [
    "virtualization.cluster",
    "view",
    BUILD,
    "the clusters whose freed vmids are in quarantine (vmidQuarantine)",
    (c) => c.vmidQuarantineMs > 0,
  ],
  ["ipam.ipaddress", "view", ALL, "the records' addresses and gateways; the addresses to release", always],
  ["ipam.ipaddress", "add", BUILD, "an address per interface without one (writeBack.primaryIp4)", allocates],
  ["ipam.ipaddress", "change", ALL, "dns_name written (writeBack.dns) and cleared", (c) => c.writeBack.dns !== undefined],
  ["ipam.ipaddress", "delete", BUILD, "an address another run took first (writeBack.primaryIp4)", allocates],
  ["ipam.ipaddress", "delete", RETIRE, "the addresses pvectl allocated (decommission.releaseIps)", (c) => c.decommission.releaseIps],
  ["ipam.prefix", "view", BUILD, "the prefix of an address (its gateway) and of an interface's VLAN (its free addresses)", always],
  ["extras.tag", "view", BUILD, "whether the `gateway` tag exists (a prefix's router)", always],
  ["dcim.macaddress", "view", BUILD, "MAC objects (NetBox 4.2+): the one a NIC has already (writeBack.macs)", macObjects],
  ["dcim.macaddress", "view", RETIRE, "MAC objects (NetBox 4.2+): the guest's, to release (decommission.releaseMacs)", releasesMacs],
  ["dcim.macaddress", "add", BUILD, "a MAC object per NIC (NetBox 4.2+; writeBack.macs)", macObjects],
  ["dcim.macaddress", "delete", RETIRE, "the guest's MAC objects (NetBox 4.2+; decommission.releaseMacs)", releasesMacs],
  ["extras.journalentry", "view", BUILD, "the claims other runs hold on a record; the vmids in quarantine", always],
  ["extras.journalentry", "add", BUILD, "a claim per record; what happened (writeBack.journal)", always],
  [
    "extras.journalentry",
    "add",
    RETIRE,
    "the outcome of a decommission (writeBack.journal); the vmid freed (vmidQuarantine)",
    (c) => c.writeBack.journal || c.vmidQuarantineMs > 0,
  ],
  ["extras.journalentry", "delete", BUILD, "the run's claims, released when it is done", always],
];

/** The NetBox object permissions the config's sync, serve and decommission need, one per object type and action. */
export function netboxPermissions(config: NetboxConfig): NetboxPermission[] {
  const out = new Map<string, NetboxPermission>();
  for (const [objectType, action, commands, why, applies] of RULES) {
    if (!applies(config)) continue;
    const key = `${objectType} ${action}`;
    const seen = out.get(key);
    if (seen === undefined) out.set(key, { objectType, action, commands: [...commands], why });
    else
      out.set(key, { ...seen, commands: ALL.filter((c) => seen.commands.includes(c) || commands.includes(c)), why: `${seen.why}; ${why}` });
  }
  return [...out.values()];
}
