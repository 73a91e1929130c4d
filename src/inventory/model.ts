// What the inventory knows about one guest, whatever facts level produced it.

export type FactsLevel = "basic" | "config" | "agent";

export interface AgentAddress {
  interface: string;
  mac?: string;
  address: string;
  family: "inet" | "inet6";
  prefix?: number;
}

export interface InventoryGuest {
  vmid: number;
  name: string;
  node: string;
  type: "qemu" | "lxc";
  status: string;
  template: boolean;
  tags: string[];
  pool?: string;
  maxcpu?: number;
  maxmem?: number;
  maxdisk?: number;
  uptime?: number;
  /** The guest's config with property strings left as PVE prints them (facts level config and agent). */
  config?: Record<string, string | number>;
  /** Addresses reported by the QEMU guest agent (facts level agent, running guests with the agent enabled). */
  agentAddresses?: AgentAddress[];
  /** Why a per-guest fact could not be read; the host is kept, the failure reported. */
  factErrors?: string[];
}

/** Ansible's dynamic inventory format (`--list`). */
export interface AnsibleInventory {
  _meta: { hostvars: Record<string, Record<string, unknown>> };
  [group: string]: { hosts?: string[]; children?: string[]; vars?: Record<string, unknown> } | AnsibleInventory["_meta"];
}
