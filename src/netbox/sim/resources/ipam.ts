// Simulated /api/ipam/: IP addresses, prefixes (with available-ips, see available-ips.ts) and VLANs.
import { NETBOX_ENUMS } from "../../generated/types.js";
import { addError } from "../errors.js";
import { contains, formatCidr, parseCidr } from "../../ip.js";
import type { ResourceDef } from "../resource.js";
import { num, str } from "../resource.js";
import type { Row } from "../store.js";
import { assignedObject, checkAssignedObject, nullComputed, setNull, TAGS_AND_CUSTOM_FIELDS } from "./common.js";

const family = (text: string): { value: number; label: string } =>
  text.includes(":") ? { value: 6, label: "IPv6" } : { value: 4, label: "IPv4" };

const IP_TARGETS = ["virtualization.vminterface"] as const;

/** NetBox's `family` filter (4 or 6) on addresses and prefixes. */
const familyFilter =
  (field: string) =>
  (r: Row, v: string[]): boolean =>
    v.includes(String(family(str(r, field)).value));

function vmOfIp(r: Row, ctx: Parameters<NonNullable<ResourceDef["beforeDelete"]>>[1]): number | null {
  if (r.assigned_object_type !== "virtualization.vminterface") return null;
  const iface = ctx.store.get("virtualization/interfaces", num(r, "assigned_object_id") ?? 0);
  return iface ? num(iface, "virtual_machine") : null;
}

export const ipAddresses: ResourceDef = {
  path: "ipam/ip-addresses",
  objectType: "ipam.ipaddress",
  lookupField: "address",
  fields: [
    { name: "family", kind: "computed", value: (r) => family(str(r, "address")) },
    { name: "address", kind: "string", required: true },
    nullComputed("vrf"),
    nullComputed("tenant"),
    { name: "status", kind: "choice", values: NETBOX_ENUMS["WritableIPAddressRequest.status"] ?? ["active"], default: "active" },
    {
      name: "role",
      kind: "choice",
      values: (NETBOX_ENUMS["WritableIPAddressRequest.role"] ?? []).filter((v) => v !== ""),
      default: null,
      nullable: true,
    },
    {
      name: "assigned_object_type",
      kind: "choice",
      values: ["dcim.interface", "virtualization.vminterface", "ipam.fhrpgroup"],
      default: null,
      nullable: true,
      plain: true,
    },
    { name: "assigned_object_id", kind: "int", nullable: true, min: 0 },
    { name: "assigned_object", kind: "computed", value: (r, ctx) => assignedObject(ctx, r) },
    nullComputed("nat_inside"),
    { name: "nat_outside", kind: "computed", value: () => [] },
    { name: "dns_name", kind: "string", maxLength: 255 },
    { name: "description", kind: "string", maxLength: 200 },
    { name: "comments", kind: "string" },
    ...TAGS_AND_CUSTOM_FIELDS,
  ],
  brief: ["family", "address", "description"],
  display: (r) => str(r, "address"),
  search: ["address", "dns_name", "description"],
  order: (a, b) => {
    const x = parseCidr(str(a, "address"));
    const y = parseCidr(str(b, "address"));
    return x && y && x.address !== y.address ? (x.address < y.address ? -1 : 1) : a.id - b.id;
  },
  filters: {
    family: familyFilter("address"),
    address: (r, v) => v.some((q) => str(r, "address").split("/")[0] === q.split("/")[0]),
    parent: (r, v) => {
      const ip = parseCidr(str(r, "address"));
      return (
        ip !== null &&
        v.some((p) => {
          const prefix = parseCidr(p);
          return prefix !== null && contains(prefix, ip);
        })
      );
    },
    vminterface_id: (r, v) => r.assigned_object_type === "virtualization.vminterface" && v.includes(String(r.assigned_object_id)),
    virtual_machine_id: (r, v, ctx) => v.includes(String(vmOfIp(r, ctx))),
    virtual_machine: (r, v, ctx) =>
      v.includes(str(ctx.store.get("virtualization/virtual-machines", vmOfIp(r, ctx) ?? 0) ?? ({} as Row), "name")),
  },
  clean(row, before, ctx, errors) {
    const cidr = parseCidr(str(row, "address"));
    if (cidr === null || !str(row, "address").includes("/")) {
      addError(errors, "address", "Enter a valid IPv4 or IPv6 address with optional mask.");
      return;
    }
    row.address = formatCidr(cidr);
    checkAssignedObject(ctx, row, IP_TARGETS, errors);
    if (!before) return;
    const oldVm = vmOfIp(before, ctx);
    const isPrimary = ctx.store
      .rows("virtualization/virtual-machines")
      .some((vm) => vm.id === oldVm && (vm.primary_ip4 === row.id || vm.primary_ip6 === row.id));
    if (isPrimary && vmOfIp(row, ctx) !== oldVm)
      addError(errors, "interface", "Cannot reassign IP address while it is designated as the primary IP for the parent object");
  },
  beforeDelete(r, ctx) {
    setNull(ctx, "virtualization/virtual-machines", "primary_ip4", r.id);
    setNull(ctx, "virtualization/virtual-machines", "primary_ip6", r.id);
  },
};

export const prefixes: ResourceDef = {
  path: "ipam/prefixes",
  objectType: "ipam.prefix",
  lookupField: "prefix",
  fields: [
    { name: "family", kind: "computed", value: (r) => family(str(r, "prefix")) },
    { name: "prefix", kind: "string", required: true },
    nullComputed("vrf"),
    { name: "scope_type", kind: "computed", value: () => null },
    { name: "scope_id", kind: "computed", value: () => null },
    nullComputed("scope"),
    nullComputed("tenant"),
    { name: "vlan", kind: "fk", target: "ipam/vlans", nullable: true },
    { name: "status", kind: "choice", values: NETBOX_ENUMS["WritablePrefixRequest.status"] ?? ["active"], default: "active" },
    nullComputed("role"),
    { name: "is_pool", kind: "bool", default: false },
    { name: "mark_utilized", kind: "bool", default: false },
    { name: "description", kind: "string", maxLength: 200 },
    { name: "comments", kind: "string" },
    ...TAGS_AND_CUSTOM_FIELDS,
    { name: "children", kind: "computed", value: () => 0 },
    { name: "_depth", kind: "computed", value: () => 0 },
  ],
  brief: ["family", "prefix", "description", "_depth"],
  display: (r) => str(r, "prefix"),
  search: ["prefix", "description"],
  filters: {
    family: familyFilter("prefix"),
    prefix: (r, v) => v.includes(str(r, "prefix")),
    // The VLAN by its number (`vlan_id` is the VLAN object's id).
    vlan_vid: (r, v, ctx) => {
      const vlan = ctx.store.get("ipam/vlans", num(r, "vlan") ?? 0);
      return vlan !== undefined && v.includes(String(vlan.vid));
    },
    contains: (r, v) => {
      const p = parseCidr(str(r, "prefix"));
      return (
        p !== null &&
        v.some((q) => {
          const ip = parseCidr(q);
          return ip !== null && contains(p, ip);
        })
      );
    },
  },
  clean(row, _b, _ctx, errors) {
    const cidr = parseCidr(str(row, "prefix"));
    if (cidr === null || !str(row, "prefix").includes("/")) {
      addError(errors, "prefix", "Enter a valid IPv4 or IPv6 address with a mask.");
      return;
    }
    // NetBox stores the network address: 10.0.0.5/24 becomes 10.0.0.0/24.
    const host = BigInt((cidr.family === 4 ? 32 : 128) - cidr.length);
    row.prefix = formatCidr({ ...cidr, address: (cidr.address >> host) << host });
  },
};

export const vlans: ResourceDef = {
  path: "ipam/vlans",
  objectType: "ipam.vlan",
  lookupField: "vid",
  fields: [
    { name: "site", kind: "fk", target: "dcim/sites", nullable: true },
    nullComputed("group"),
    { name: "vid", kind: "int", required: true, min: 1, max: 4094 },
    { name: "name", kind: "string", required: true, maxLength: 64 },
    nullComputed("tenant"),
    { name: "status", kind: "choice", values: NETBOX_ENUMS["WritableVLANRequest.status"] ?? ["active"], default: "active" },
    nullComputed("role"),
    { name: "description", kind: "string", maxLength: 200 },
    nullComputed("qinq_role"),
    nullComputed("qinq_svlan"),
    { name: "comments", kind: "string" },
    nullComputed("l2vpn_termination"),
    ...TAGS_AND_CUSTOM_FIELDS,
  ],
  brief: ["vid", "name", "description"],
  display: (r) => `${str(r, "name")} (${String(r.vid)})`,
  search: ["name", "description"],
  beforeDelete(r, ctx) {
    setNull(ctx, "virtualization/interfaces", "untagged_vlan", r.id);
    for (const i of ctx.store.rows("virtualization/interfaces"))
      if (Array.isArray(i.tagged_vlans)) i.tagged_vlans = i.tagged_vlans.filter((id) => id !== r.id);
  },
};
