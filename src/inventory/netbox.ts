// NetBox facts for the inventory: each guest is matched to its NetBox virtual machine (by the
// vmid custom field pvectl writes back, else by a unique name) and gains `netbox_*` variables,
// usable in keyed groups (e.g. key netbox_role) and as the source of `ansible_host`.
import type { NetboxClient, ReadOf } from "../netbox/client.js";
import type { InventoryGuest } from "./model.js";

export interface NetboxFactsOptions {
  /** Custom field holding the PVE vmid; default proxmox_vmid. */
  vmidField: string;
}

type NetboxVm = ReadOf<"virtualization/virtual-machines">;

function slugOrName(value: { slug?: string; name?: string } | null | undefined): string | undefined {
  return value?.slug ?? value?.name ?? undefined;
}

function factsOf(vm: NetboxVm): Record<string, unknown> {
  const facts: Record<string, unknown> = {
    netbox_id: vm.id,
    netbox_name: vm.name,
    netbox_status: vm.status?.value,
    netbox_tags: (vm.tags ?? []).map((t) => t.slug ?? t.name),
    netbox_custom_fields: vm.custom_fields ?? {},
  };
  const named: [string, { slug?: string; name?: string } | null | undefined][] = [
    ["netbox_site", vm.site],
    ["netbox_cluster", vm.cluster],
    ["netbox_role", vm.role],
    ["netbox_tenant", vm.tenant],
    ["netbox_platform", vm.platform],
  ];
  for (const [key, value] of named) {
    const v = slugOrName(value);
    if (v !== undefined) facts[key] = v;
  }
  if (vm.primary_ip4?.address) facts.netbox_primary_ip4 = vm.primary_ip4.address;
  if (vm.primary_ip6?.address) facts.netbox_primary_ip6 = vm.primary_ip6.address;
  return facts;
}

/** Facts per guest; guests without a NetBox record get none. One paginated list call in all. */
export async function netboxFacts(
  netbox: Pick<NetboxClient, "list">,
  guests: readonly InventoryGuest[],
  options: NetboxFactsOptions,
): Promise<Map<InventoryGuest, Record<string, unknown>>> {
  const vms = await netbox.list("virtualization/virtual-machines", {});
  const byVmid = new Map<number, NetboxVm>();
  const byName = new Map<string, NetboxVm[]>();
  for (const vm of vms) {
    const vmid = Number(vm.custom_fields?.[options.vmidField]);
    if (Number.isInteger(vmid) && vmid > 0) byVmid.set(vmid, vm);
    byName.set(vm.name, [...(byName.get(vm.name) ?? []), vm]);
  }
  const result = new Map<InventoryGuest, Record<string, unknown>>();
  for (const guest of guests) {
    const sameName = byName.get(guest.name);
    // A name only identifies a record when exactly one record carries it.
    const vm = byVmid.get(guest.vmid) ?? (sameName?.length === 1 ? sameName[0] : undefined);
    if (vm) result.set(guest, factsOf(vm));
  }
  return result;
}

/** `ansible_host` from NetBox: the primary IPv4 (else IPv6) without its prefix length. */
export function netboxAddress(facts: Record<string, unknown> | undefined): string | undefined {
  const address = facts?.netbox_primary_ip4 ?? facts?.netbox_primary_ip6;
  return typeof address === "string" ? address.split("/")[0] : undefined;
}
