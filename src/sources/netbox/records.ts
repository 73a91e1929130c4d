// Reads the NetBox records a sync or decommission works on: the selected virtual machines
// with their interfaces and virtual disks, fetched in a few paged requests (not one per VM).
import type { Filters, NetboxClient } from "../../netbox/client.js";
import type { VirtualDisk, VirtualMachineWithConfigContext, VMInterface } from "../../netbox/generated/types.js";
import type { InterfaceAddresses } from "./addresses.js";

export interface NetboxVmRecord {
  vm: VirtualMachineWithConfigContext;
  /** Sorted by name the way NetBox sorts interface names (eth2 before eth10). */
  interfaces: VMInterface[];
  /** Sorted by id (creation order). */
  disks: VirtualDisk[];
  /** The primary addresses per interface, with gateways, when loaded (loadGuestAddresses). */
  addresses?: InterfaceAddresses[];
  /** Plan only: interface id -> the IPv4 address sync would assign to it (nothing is written). */
  pendingIp4?: Record<number, string>;
}

export interface RecordSelection {
  /** Absent: every status (netbox diff reads them all). */
  status?: string | string[];
  clusters?: string[];
  sites?: string[];
  tags?: string[];
  /** Only these VM names (CLI `--name`). */
  names?: string[];
  /** Only these NetBox ids (`netbox serve`: the records webhooks named). */
  ids?: number[];
}

const ID_CHUNK = 100;

export const naturalCompare = (a: string, b: string): number => a.localeCompare(b, "en", { numeric: true });

/** "virtual machine web-01 (NetBox id 3)" */
export function describeRecord(vm: Pick<VirtualMachineWithConfigContext, "id" | "name">): string {
  return `virtual machine ${vm.name} (NetBox id ${vm.id})`;
}

async function childrenOf<T extends { virtual_machine: { id: number } }>(
  ids: number[],
  fetch: (filters: Filters) => Promise<T[]>,
): Promise<Map<number, T[]>> {
  const out = new Map<number, T[]>();
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    for (const item of await fetch({ virtual_machine_id: ids.slice(i, i + ID_CHUNK) })) {
      const list = out.get(item.virtual_machine.id) ?? [];
      list.push(item);
      out.set(item.virtual_machine.id, list);
    }
  }
  return out;
}

export async function loadRecords(client: NetboxClient, selection: RecordSelection): Promise<NetboxVmRecord[]> {
  const filters: Filters = {};
  if (selection.status !== undefined) filters.status = selection.status;
  if (selection.clusters?.length) filters.cluster = selection.clusters;
  if (selection.sites?.length) filters.site = selection.sites;
  if (selection.tags?.length) filters.tag = selection.tags;
  if (selection.names?.length) filters.name = selection.names;
  if (selection.ids?.length) filters.id = selection.ids;
  const vms = await client.list("virtualization/virtual-machines", filters);
  return attachChildren(client, vms);
}

export async function attachChildren(client: NetboxClient, vms: VirtualMachineWithConfigContext[]): Promise<NetboxVmRecord[]> {
  const ids = vms.map((v) => v.id);
  const [interfaces, disks] = await Promise.all([
    childrenOf(ids, (f) => client.list("virtualization/interfaces", f)),
    childrenOf(ids, (f) => client.list("virtualization/virtual-disks", f)),
  ]);
  return vms.map((vm) => ({
    vm,
    interfaces: [...(interfaces.get(vm.id) ?? [])].sort((a, b) => naturalCompare(a.name, b.name)),
    disks: [...(disks.get(vm.id) ?? [])].sort((a, b) => a.id - b.id),
  }));
}
