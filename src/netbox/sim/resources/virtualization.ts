// Simulated /api/virtualization/: cluster types, clusters, virtual machines, VM interfaces
// and virtual disks, with NetBox's model rules (site/cluster requirement, unique names,
// disk = sum of virtual disks, primary IP must belong to the VM, MAC objects from 4.2).
import { NETBOX_ENUMS } from "../../generated/types.js";
import { addError, type FieldErrors } from "../errors.js";
import type { FieldSpec, ResourceDef, SimContext, SimVersion } from "../resource.js";
import { num, str } from "../resource.js";
import type { Row } from "../store.js";
import { checkUnique, countWhere, nullComputed, protect, TAGS_AND_CUSTOM_FIELDS } from "./common.js";

const enumOf = (key: string): readonly string[] => NETBOX_ENUMS[key] ?? [];

export const clusterTypes: ResourceDef = {
  path: "virtualization/cluster-types",
  objectType: "virtualization.clustertype",
  lookupField: "slug",
  fields: [
    { name: "name", kind: "string", required: true, maxLength: 100 },
    { name: "slug", kind: "string", required: true, maxLength: 100 },
    { name: "description", kind: "string", maxLength: 200 },
    ...TAGS_AND_CUSTOM_FIELDS,
    { name: "cluster_count", kind: "computed", value: (r, ctx) => countWhere(ctx, "virtualization/clusters", "type", r.id) },
  ],
  brief: ["name", "slug", "description", "cluster_count"],
  display: (r) => str(r, "name"),
  search: ["name", "slug", "description"],
  beforeDelete: (r, ctx) => protect(ctx, r, [{ path: "virtualization/clusters", field: "type" }]),
};

function clusterSiteId(row: Row): number | null {
  return row.scope_type === "dcim.site" ? num(row, "scope_id") : null;
}

const vmsOf = (ctx: SimContext, clusterId: number): Row[] =>
  ctx.store.rows("virtualization/virtual-machines").filter((vm) => vm.cluster === clusterId);

export const clusters: ResourceDef = {
  path: "virtualization/clusters",
  objectType: "virtualization.cluster",
  lookupField: "name",
  fields: [
    { name: "name", kind: "string", required: true, maxLength: 100 },
    { name: "type", kind: "fk", target: "virtualization/cluster-types", required: true },
    nullComputed("group"),
    { name: "status", kind: "choice", values: enumOf("WritableClusterRequest.status"), default: "active" },
    nullComputed("tenant"),
    {
      name: "scope_type",
      kind: "choice",
      values: ["dcim.region", "dcim.sitegroup", "dcim.site", "dcim.location"],
      default: null,
      nullable: true,
    },
    { name: "scope_id", kind: "int", nullable: true },
    { name: "scope", kind: "computed", value: (r, ctx) => ctx.brief("dcim/sites", clusterSiteId(r)) },
    { name: "description", kind: "string", maxLength: 200 },
    { name: "comments", kind: "string" },
    ...TAGS_AND_CUSTOM_FIELDS,
    { name: "device_count", kind: "computed", value: () => 0 },
    { name: "virtualmachine_count", kind: "computed", value: (r, ctx) => vmsOf(ctx, r.id).length },
    { name: "allocated_vcpus", kind: "computed", value: (r, ctx) => vmsOf(ctx, r.id).reduce((s, vm) => s + (num(vm, "vcpus") ?? 0), 0) },
    { name: "allocated_memory", kind: "computed", value: (r, ctx) => vmsOf(ctx, r.id).reduce((s, vm) => s + (num(vm, "memory") ?? 0), 0) },
    { name: "allocated_disk", kind: "computed", value: (r, ctx) => vmsOf(ctx, r.id).reduce((s, vm) => s + (num(vm, "disk") ?? 0), 0) },
  ],
  brief: ["name", "description", "virtualmachine_count"],
  display: (r) => str(r, "name"),
  search: ["name", "description", "comments"],
  filters: {
    site_id: (r, values) => values.includes(String(clusterSiteId(r))),
    site: (r, values, ctx) => values.includes(str(ctx.store.get("dcim/sites", clusterSiteId(r) ?? 0) ?? ({} as Row), "slug")),
  },
  clean(row, _before, ctx, errors) {
    if (row.scope_type === "dcim.site" && !ctx.store.get("dcim/sites", num(row, "scope_id") ?? 0))
      addError(errors, "scope", `Related object not found using the provided numeric ID: ${String(row.scope_id)}`);
    checkUnique(ctx, "virtualization/clusters", row, ["name"], "A cluster with this name already exists.", errors);
  },
  beforeDelete: (r, ctx) => protect(ctx, r, [{ path: "virtualization/virtual-machines", field: "cluster" }]),
};

function vmClean(row: Row, _before: Row | undefined, ctx: SimContext, errors: FieldErrors): void {
  const clusterId = num(row, "cluster");
  const siteId = num(row, "site");
  if (clusterId === null && siteId === null && num(row, "device") === null) {
    addError(errors, "cluster", "A virtual machine must be assigned to a site and/or cluster.");
  }
  const cluster = clusterId === null ? undefined : ctx.store.get("virtualization/clusters", clusterId);
  if (cluster && siteId !== null) {
    const clusterSite = clusterSiteId(cluster);
    if (clusterSite !== null && clusterSite !== siteId) {
      const site = ctx.store.get("dcim/sites", siteId);
      addError(
        errors,
        "cluster",
        `The selected cluster (${str(cluster, "name")}) is not assigned to this site (${site ? str(site, "name") : siteId}).`,
      );
    }
  }
  checkUnique(
    ctx,
    "virtualization/virtual-machines",
    row,
    ["name", "cluster", "tenant"],
    "Virtual machine name must be unique per cluster.",
    errors,
  );
  const disks = ctx.store.rows("virtualization/virtual-disks").filter((d) => d.virtual_machine === row.id);
  if (row.id !== 0 && disks.length > 0) {
    const total = disks.reduce((s, d) => s + (num(d, "size") ?? 0), 0);
    if (row.disk !== null && row.disk !== total)
      addError(
        errors,
        "disk",
        `The specified disk size (${String(row.disk)}) must match the aggregate size of assigned virtual disks (${total}).`,
      );
  }
  for (const [field, family] of [
    ["primary_ip4", 4],
    ["primary_ip6", 6],
  ] as const) {
    const ipId = num(row, field);
    if (ipId === null) continue;
    const ip = ctx.store.get("ipam/ip-addresses", ipId);
    if (!ip) continue;
    const address = str(ip, "address");
    if ((address.includes(":") ? 6 : 4) !== family) {
      addError(errors, field, `${address} is not an IPv${family} address.`);
      continue;
    }
    const iface =
      ip.assigned_object_type === "virtualization.vminterface"
        ? ctx.store.get("virtualization/interfaces", num(ip, "assigned_object_id") ?? 0)
        : undefined;
    if (!iface || iface.virtual_machine !== row.id)
      addError(errors, field, `The specified IP address (${address}) is not assigned to this VM.`);
  }
}

function primaryIp(row: Row, ctx: SimContext): Record<string, unknown> | null {
  return ctx.brief("ipam/ip-addresses", num(row, "primary_ip6") ?? num(row, "primary_ip4"));
}

export function virtualMachines(version: SimVersion): ResourceDef {
  const statuses = [...enumOf("WritableVirtualMachineWithConfigContextRequest.status"), ...(version.n >= 402 ? ["paused"] : [])];
  return {
    path: "virtualization/virtual-machines",
    objectType: "virtualization.virtualmachine",
    lookupField: "name",
    fields: [
      { name: "name", kind: "string", required: true, maxLength: 64 },
      { name: "status", kind: "choice", values: statuses, default: "active" },
      { name: "site", kind: "fk", target: "dcim/sites", nullable: true },
      { name: "cluster", kind: "fk", target: "virtualization/clusters", nullable: true },
      nullComputed("device"),
      { name: "serial", kind: "string", maxLength: 50 },
      nullComputed("role"),
      nullComputed("tenant"),
      { name: "platform", kind: "fk", target: "dcim/platforms", nullable: true },
      { name: "primary_ip", kind: "computed", value: primaryIp },
      { name: "primary_ip4", kind: "fk", target: "ipam/ip-addresses", nullable: true },
      { name: "primary_ip6", kind: "fk", target: "ipam/ip-addresses", nullable: true },
      { name: "vcpus", kind: "number", nullable: true, min: 0.01, max: 9999.99 },
      { name: "memory", kind: "int", nullable: true, min: 0, max: 2147483647 },
      { name: "disk", kind: "int", nullable: true, min: 0, max: 2147483647 },
      { name: "description", kind: "string", maxLength: 200 },
      { name: "comments", kind: "string" },
      nullComputed("config_template"),
      { name: "local_context_data", kind: "json", nullable: true },
      ...TAGS_AND_CUSTOM_FIELDS,
      { name: "config_context", kind: "computed", value: () => ({}) },
      {
        name: "interface_count",
        kind: "computed",
        value: (r, ctx) => countWhere(ctx, "virtualization/interfaces", "virtual_machine", r.id),
      },
      {
        name: "virtual_disk_count",
        kind: "computed",
        value: (r, ctx) => countWhere(ctx, "virtualization/virtual-disks", "virtual_machine", r.id),
      },
    ],
    brief: ["name", "description"],
    display: (r) => str(r, "name"),
    search: ["name", "description", "comments", "serial"],
    order: (a, b) => str(a, "name").localeCompare(str(b, "name")) || a.id - b.id,
    filters: {
      has_primary_ip: (r, values) => values.includes(String(r.primary_ip4 !== null || r.primary_ip6 !== null)),
      cluster_type_id: (r, values, ctx) => values.includes(String(ctx.store.get("virtualization/clusters", num(r, "cluster") ?? 0)?.type)),
      mac_address: (r, values, ctx) =>
        ctx.store
          .rows("virtualization/interfaces")
          .filter((i) => i.virtual_machine === r.id)
          .some((i) => values.some((v) => v.toUpperCase() === interfaceMac(i, ctx, version))),
    },
    clean: vmClean,
    beforeDelete(row, ctx) {
      for (const path of ["virtualization/interfaces", "virtualization/virtual-disks"]) {
        for (const child of ctx.store.rows(path)) if (child.virtual_machine === row.id) ctx.remove(path, child.id);
      }
      for (const j of ctx.store.rows("extras/journal-entries"))
        if (j.assigned_object_type === "virtualization.virtualmachine" && j.assigned_object_id === row.id)
          ctx.remove("extras/journal-entries", j.id);
    },
  };
}

/** The interface's MAC as NetBox reports it: the primary MAC object's address from 4.2 on. */
function interfaceMac(row: Row, ctx: SimContext, version: SimVersion): string | null {
  if (version.n < 402) return typeof row.mac_address === "string" ? row.mac_address : null;
  const mac = ctx.store.get("dcim/mac-addresses", num(row, "primary_mac_address") ?? 0);
  return mac ? str(mac, "mac_address") : null;
}

function macsOf(ctx: SimContext, row: Row): Row[] {
  return ctx.store
    .rows("dcim/mac-addresses")
    .filter((m) => m.assigned_object_type === "virtualization.vminterface" && m.assigned_object_id === row.id);
}

export function vmInterfaces(version: SimVersion): ResourceDef {
  const macFields: FieldSpec[] =
    version.n >= 402
      ? [
          { name: "mac_address", kind: "computed", value: (r, ctx) => interfaceMac(r, ctx, version) },
          { name: "primary_mac_address", kind: "fk", target: "dcim/mac-addresses", nullable: true },
          { name: "mac_addresses", kind: "computed", value: (r, ctx) => macsOf(ctx, r).map((m) => ctx.brief("dcim/mac-addresses", m.id)) },
        ]
      : [{ name: "mac_address", kind: "string", nullable: true }];
  const def: ResourceDef = {
    path: "virtualization/interfaces",
    objectType: "virtualization.vminterface",
    lookupField: "name",
    fields: [
      { name: "virtual_machine", kind: "fk", target: "virtualization/virtual-machines", required: true },
      { name: "name", kind: "string", required: true, maxLength: 64 },
      { name: "enabled", kind: "bool", default: true },
      { name: "parent", kind: "fk", target: "virtualization/interfaces", nullable: true },
      { name: "bridge", kind: "fk", target: "virtualization/interfaces", nullable: true },
      { name: "mtu", kind: "int", nullable: true, min: 1, max: 65536 },
      ...macFields,
      { name: "description", kind: "string", maxLength: 200 },
      { name: "mode", kind: "choice", values: ["access", "tagged", "tagged-all", "q-in-q"], default: null, nullable: true },
      { name: "untagged_vlan", kind: "fk", target: "ipam/vlans", nullable: true },
      { name: "tagged_vlans", kind: "fkList", target: "ipam/vlans" },
      nullComputed("qinq_svlan"),
      nullComputed("vlan_translation_policy"),
      nullComputed("vrf"),
      nullComputed("l2vpn_termination"),
      ...TAGS_AND_CUSTOM_FIELDS,
      {
        name: "count_ipaddresses",
        kind: "computed",
        value: (r, ctx) =>
          ctx.store
            .rows("ipam/ip-addresses")
            .filter((ip) => ip.assigned_object_type === "virtualization.vminterface" && ip.assigned_object_id === r.id).length,
      },
      { name: "count_fhrp_groups", kind: "computed", value: () => 0 },
    ],
    brief: ["virtual_machine", "name", "description"],
    display: (r) => str(r, "name"),
    search: ["name", "description"],
    order: (a, b) => (num(a, "virtual_machine") ?? 0) - (num(b, "virtual_machine") ?? 0) || str(a, "name").localeCompare(str(b, "name")),
    filters: {
      mac_address: (r, values, ctx) => values.some((v) => v.toUpperCase() === interfaceMac(r, ctx, version)),
    },
    clean(row, _before, ctx, errors) {
      checkUnique(
        ctx,
        "virtualization/interfaces",
        row,
        ["virtual_machine", "name"],
        "Virtual machine and name must make a unique set.",
        errors,
      );
      // NetBox drops VLAN assignments that the 802.1Q mode does not allow.
      if (row.mode === null) row.untagged_vlan = null;
      if (row.mode !== "tagged") row.tagged_vlans = [];
      checkUntaggedVlanSite(ctx, row, errors);
      const macId = num(row, "primary_mac_address");
      if (version.n >= 402 && macId !== null) {
        const mac = ctx.store.get("dcim/mac-addresses", macId);
        if (mac && !(mac.assigned_object_type === "virtualization.vminterface" && mac.assigned_object_id === row.id))
          addError(errors, "primary_mac_address", `MAC address ${str(mac, "mac_address")} is not assigned to this interface.`);
      }
      if (version.n < 402 && typeof row.mac_address === "string") {
        const normal = normalizeMac(row.mac_address);
        if (normal === null) addError(errors, "mac_address", "Enter a valid MAC address.");
        else row.mac_address = normal;
      }
    },
    beforeDelete(row, ctx) {
      for (const m of macsOf(ctx, row)) ctx.remove("dcim/mac-addresses", m.id);
      for (const ip of ctx.store.rows("ipam/ip-addresses"))
        if (ip.assigned_object_type === "virtualization.vminterface" && ip.assigned_object_id === row.id)
          ctx.remove("ipam/ip-addresses", ip.id);
    },
  };
  return def;
}

/** NetBox's rule: an interface's untagged VLAN is global or of its virtual machine's site. */
function checkUntaggedVlanSite(ctx: SimContext, row: Row, errors: FieldErrors): void {
  const vlan = ctx.store.get("ipam/vlans", num(row, "untagged_vlan") ?? 0);
  const vlanSite = vlan ? num(vlan, "site") : null;
  if (!vlan || vlanSite === null) return;
  const vm = ctx.store.get("virtualization/virtual-machines", num(row, "virtual_machine") ?? 0);
  if (vm && num(vm, "site") !== vlanSite)
    addError(
      errors,
      "untagged_vlan",
      `The untagged VLAN (${ctx.def("ipam/vlans").display(vlan, ctx)}) must belong to the same site as the interface's parent virtual machine, or it must be global.`,
    );
}

/** NetBox stores MACs as EUI-48 in upper-case colon form. */
export function normalizeMac(value: string): string | null {
  const hex = value.replace(/[:\-.]/g, "");
  if (!/^[0-9a-fA-F]{12}$/.test(hex)) return null;
  return hex.toUpperCase().match(/../g)?.join(":") ?? null;
}

function syncVmDisk(ctx: SimContext, vmId: number): void {
  const vm = ctx.store.get("virtualization/virtual-machines", vmId);
  if (!vm) return;
  const disks = ctx.store.rows("virtualization/virtual-disks").filter((d) => d.virtual_machine === vmId);
  vm.disk = disks.length === 0 ? vm.disk : disks.reduce((s, d) => s + (num(d, "size") ?? 0), 0);
}

export const virtualDisks: ResourceDef = {
  path: "virtualization/virtual-disks",
  objectType: "virtualization.virtualdisk",
  lookupField: "name",
  fields: [
    { name: "virtual_machine", kind: "fk", target: "virtualization/virtual-machines", required: true },
    { name: "name", kind: "string", required: true, maxLength: 64 },
    { name: "description", kind: "string", maxLength: 200 },
    { name: "size", kind: "int", required: true, min: 0, max: 2147483647 },
    ...TAGS_AND_CUSTOM_FIELDS,
  ],
  brief: ["virtual_machine", "name", "description", "size"],
  display: (r) => str(r, "name"),
  search: ["name", "description"],
  clean(row, _before, ctx, errors) {
    checkUnique(
      ctx,
      "virtualization/virtual-disks",
      row,
      ["virtual_machine", "name"],
      "Virtual machine and name must make a unique set.",
      errors,
    );
  },
  afterWrite(row, before, ctx) {
    syncVmDisk(ctx, num(row, "virtual_machine") ?? 0);
    if (before && before.virtual_machine !== row.virtual_machine) syncVmDisk(ctx, num(before, "virtual_machine") ?? 0);
  },
  beforeDelete(row, ctx) {
    const vm = ctx.store.get("virtualization/virtual-machines", num(row, "virtual_machine") ?? 0);
    if (!vm) return;
    const rest = ctx.store.rows("virtualization/virtual-disks").filter((d) => d.virtual_machine === vm.id && d.id !== row.id);
    vm.disk = rest.length === 0 ? null : rest.reduce((s, d) => s + (num(d, "size") ?? 0), 0);
  },
};
