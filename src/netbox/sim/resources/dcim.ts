// Simulated /api/dcim/: sites, platforms and (NetBox >= 4.2) MAC address objects.
import { NETBOX_ENUMS } from "../../generated/types.js";
import { addError } from "../errors.js";
import type { ResourceDef } from "../resource.js";
import { num, str } from "../resource.js";
import {
  assignedObject,
  checkAssignedObject,
  checkUniqueField,
  countWhere,
  nullComputed,
  protect,
  setNull,
  TAGS_AND_CUSTOM_FIELDS,
} from "./common.js";
import { normalizeMac } from "./virtualization.js";

export const sites: ResourceDef = {
  path: "dcim/sites",
  objectType: "dcim.site",
  lookupField: "slug",
  fields: [
    { name: "name", kind: "string", required: true, maxLength: 100 },
    { name: "slug", kind: "string", required: true, maxLength: 100 },
    { name: "status", kind: "choice", values: NETBOX_ENUMS["Site.status"] ?? ["active"], default: "active" },
    nullComputed("region"),
    nullComputed("group"),
    nullComputed("tenant"),
    { name: "facility", kind: "string", maxLength: 50 },
    { name: "time_zone", kind: "string", nullable: true },
    { name: "description", kind: "string", maxLength: 200 },
    { name: "comments", kind: "string" },
    ...TAGS_AND_CUSTOM_FIELDS,
    // NetBox's related-object counts. The simulator models no circuits, devices or racks, and
    // its prefixes carry no scope, so those are 0 (the netbox.netbox inventory reads prefix_count).
    { name: "circuit_count", kind: "computed", value: () => 0 },
    { name: "device_count", kind: "computed", value: () => 0 },
    { name: "prefix_count", kind: "computed", value: () => 0 },
    { name: "rack_count", kind: "computed", value: () => 0 },
    { name: "virtualmachine_count", kind: "computed", value: (r, ctx) => countWhere(ctx, "virtualization/virtual-machines", "site", r.id) },
    { name: "vlan_count", kind: "computed", value: (r, ctx) => countWhere(ctx, "ipam/vlans", "site", r.id) },
  ],
  brief: ["name", "slug", "description"],
  display: (r) => str(r, "name"),
  search: ["name", "slug", "description", "facility"],
  clean(row, _b, ctx, errors) {
    checkUniqueField(ctx, "dcim/sites", row, "name", "site", errors);
    checkUniqueField(ctx, "dcim/sites", row, "slug", "site", errors);
  },
  beforeDelete: (r, ctx) => protect(ctx, r, [{ path: "virtualization/virtual-machines", field: "site" }]),
};

export const platforms: ResourceDef = {
  path: "dcim/platforms",
  objectType: "dcim.platform",
  lookupField: "slug",
  fields: [
    { name: "name", kind: "string", required: true, maxLength: 100 },
    { name: "slug", kind: "string", required: true, maxLength: 100 },
    nullComputed("manufacturer"),
    nullComputed("config_template"),
    { name: "description", kind: "string", maxLength: 200 },
    ...TAGS_AND_CUSTOM_FIELDS,
    { name: "device_count", kind: "computed", value: () => 0 },
    {
      name: "virtualmachine_count",
      kind: "computed",
      value: (r, ctx) => countWhere(ctx, "virtualization/virtual-machines", "platform", r.id),
    },
  ],
  brief: ["name", "slug", "description", "device_count", "virtualmachine_count"],
  display: (r) => str(r, "name"),
  search: ["name", "slug", "description"],
  clean(row, _b, ctx, errors) {
    checkUniqueField(ctx, "dcim/platforms", row, "name", "platform", errors);
    checkUniqueField(ctx, "dcim/platforms", row, "slug", "platform", errors);
  },
  beforeDelete: (r, ctx) => setNull(ctx, "virtualization/virtual-machines", "platform", r.id),
};

const MAC_TARGETS = ["virtualization.vminterface"] as const;

export const macAddresses: ResourceDef = {
  path: "dcim/mac-addresses",
  objectType: "dcim.macaddress",
  since: 402,
  fields: [
    { name: "mac_address", kind: "string", required: true },
    {
      name: "assigned_object_type",
      kind: "choice",
      values: ["dcim.interface", "virtualization.vminterface"],
      default: null,
      nullable: true,
      plain: true,
    },
    { name: "assigned_object_id", kind: "int", nullable: true, min: 0 },
    { name: "assigned_object", kind: "computed", value: (r, ctx) => assignedObject(ctx, r) },
    { name: "description", kind: "string", maxLength: 200 },
    { name: "comments", kind: "string" },
    ...TAGS_AND_CUSTOM_FIELDS,
  ],
  brief: ["mac_address", "description"],
  display: (r) => str(r, "mac_address"),
  search: ["mac_address", "description"],
  filters: {
    vminterface_id: (r, v) => r.assigned_object_type === "virtualization.vminterface" && v.includes(String(r.assigned_object_id)),
    virtual_machine_id: (r, v, ctx) => {
      if (r.assigned_object_type !== "virtualization.vminterface") return false;
      const iface = ctx.store.get("virtualization/interfaces", num(r, "assigned_object_id") ?? 0);
      return iface !== undefined && v.includes(String(iface.virtual_machine));
    },
    mac_address: (r, v) => v.some((m) => normalizeMac(m) === r.mac_address),
  },
  clean(row, before, ctx, errors) {
    const mac = normalizeMac(str(row, "mac_address"));
    if (mac === null) addError(errors, "mac_address", "Enter a valid MAC address.");
    else row.mac_address = mac;
    checkAssignedObject(ctx, row, MAC_TARGETS, errors);
    const moved =
      before && (before.assigned_object_id !== row.assigned_object_id || before.assigned_object_type !== row.assigned_object_type);
    if (moved && ctx.store.rows("virtualization/interfaces").some((i) => i.primary_mac_address === row.id))
      addError(errors, "__all__", "Cannot unassign MAC Address while it is designated as the primary MAC for an object");
  },
  beforeDelete: (r, ctx) => setNull(ctx, "virtualization/interfaces", "primary_mac_address", r.id),
};
