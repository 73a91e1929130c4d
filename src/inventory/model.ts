// What the inventory knows about one guest, whatever facts level produced it.

/**
 * basic: one listing; config: + each guest's config; agent: + the guest agent's addresses;
 * plugin: the host variables of community.general's inventory plugin with `want_facts: true`
 * (config, qmpstatus, snapshots, agent interfaces), see plugin-facts.ts.
 */
export type FactsLevel = "basic" | "config" | "agent" | "plugin";

/** An interface as the community plugin reports it in `proxmox_agent_interfaces`. */
export interface PluginAgentInterface {
  name: string;
  "mac-address": string;
  /** `address/prefix` */
  "ip-addresses": string[];
}

/** A hypervisor, for the `<group_prefix>nodes` group. */
export interface InventoryNode {
  name: string;
  online: boolean;
  /** The node's cluster address (GET /cluster/status `ip`), read only when asked for. */
  address?: string;
}

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
  /** The guest's config with property strings left as PVE prints them (facts levels config, agent, plugin); `lxc` holds [key, value] pairs. */
  config?: Record<string, unknown>;
  /** QEMU's own run state (running, paused, prelaunch, suspended ...; stopped when not running), facts level plugin. */
  qmpstatus?: string;
  /** Snapshot names, oldest first, without `current` (facts level plugin). */
  snapshots?: string[];
  /** The agent's interfaces in the community plugin's shape (facts level plugin). */
  agentInterfaces?: PluginAgentInterface[];
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
