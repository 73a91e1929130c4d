// The per-guest reads behind the facts levels: the config (config, agent, plugin), the guest
// agent's interfaces (agent, plugin) and the snapshot list (plugin). A read that fails leaves
// the guest in the inventory with the failure in `factErrors`.
// The endpoint modules one by one, not their index (which loads all of them): start-up time.
import type { ApiReader } from "../api/endpoints/call.js";
import { getLxcConfig } from "../api/endpoints/lxc.js";
import { type AgentInterface, getQemuAgentInterfaces, getQemuConfig } from "../api/endpoints/qemu.js";
import { getGuestSnapshots } from "../api/endpoints/snapshots.js";
import type { AgentAddress, FactsLevel, InventoryGuest, PluginAgentInterface } from "./model.js";

export function describe(err: unknown): string {
  if (typeof err === "object" && err !== null && "pveMessage" in err && typeof err.pveMessage === "string") return err.pveMessage;
  return err instanceof Error ? err.message : String(err);
}

function addError(guest: InventoryGuest, message: string): void {
  guest.factErrors = [...(guest.factErrors ?? []), message];
}

/** PVE's reading of the `agent` option: the first field (or `enabled=`) as a boolean. */
export function agentEnabled(config: Record<string, unknown> | undefined): boolean {
  const agent = config?.agent;
  if (agent === undefined) return false;
  const first = String(agent).split(",")[0] ?? "";
  const enabled = first.startsWith("enabled=") ? first.slice("enabled=".length) : first;
  return ["1", "on", "yes", "true"].includes(enabled);
}

function toAddresses(list: AgentInterface[]): AgentAddress[] {
  const addresses: AgentAddress[] = [];
  for (const iface of list) {
    for (const ip of iface["ip-addresses"] ?? []) {
      if (!ip["ip-address"]) continue;
      const entry: AgentAddress = {
        interface: iface.name ?? "",
        address: ip["ip-address"],
        family: ip["ip-address-type"] === "ipv6" ? "inet6" : "inet",
      };
      if (iface["hardware-address"]) entry.mac = iface["hardware-address"];
      if (ip.prefix !== undefined) entry.prefix = ip.prefix;
      addresses.push(entry);
    }
  }
  return addresses;
}

/** The community plugin's shape: every interface, its MAC ('' when unknown) and `address/prefix` strings. */
function toPluginInterfaces(list: AgentInterface[]): PluginAgentInterface[] {
  return list.map((iface) => ({
    name: iface.name ?? "",
    "mac-address": iface["hardware-address"] ?? "",
    "ip-addresses": (iface["ip-addresses"] ?? []).map((ip) => `${ip["ip-address"]}/${ip.prefix}`),
  }));
}

/** An agent that is not up (yet), or a VM that is not running, is a state, not a failure: the plugin shows nothing then either. */
const AGENT_ABSENT = /not running|no qemu guest agent configured/i;

async function readAgent(api: ApiReader, guest: InventoryGuest, level: FactsLevel): Promise<void> {
  try {
    const list = await getQemuAgentInterfaces(api, guest.node, guest.vmid);
    guest.agentAddresses = toAddresses(list);
    if (level === "plugin") guest.agentInterfaces = toPluginInterfaces(list);
  } catch (err) {
    if (level === "plugin" && AGENT_ABSENT.test(describe(err))) return;
    addError(guest, `agent: ${describe(err)}`);
  }
}

/**
 * Snapshot names without `current`. Only a guest whose config names a `parent` is asked: PVE
 * sets `parent` when a snapshot is taken or rolled back to, and removes it only when the
 * snapshot it named is deleted and had no parent itself. The one case this misses (snapshots
 * left only on a branch the current state no longer descends from) is in docs/inventory.md;
 * `exact` reads every guest's list.
 */
async function readSnapshots(api: ApiReader, guest: InventoryGuest, exact: boolean): Promise<void> {
  if (!exact && guest.config?.parent === undefined) {
    guest.snapshots = [];
    return;
  }
  try {
    const listed = await getGuestSnapshots(api, guest.type, guest.node, guest.vmid);
    guest.snapshots = listed.filter((s) => s.name !== "current").map((s) => s.name);
  } catch (err) {
    addError(guest, `snapshots: ${describe(err)}`);
  }
}

export interface GuestReadOptions {
  /** Plugin level: every guest's snapshot list, not only where the config names a parent. */
  exactSnapshots?: boolean;
}

/** The reads of one guest for `level` (not basic); each adds what it learned to `guest`. */
export async function readGuestFacts(
  api: ApiReader,
  guest: InventoryGuest,
  level: FactsLevel,
  options: GuestReadOptions = {},
): Promise<void> {
  try {
    guest.config = await (guest.type === "qemu" ? getQemuConfig : getLxcConfig)(api, guest.node, guest.vmid);
  } catch (err) {
    addError(guest, `config: ${describe(err)}`);
    return;
  }
  const wantsAgent = level === "agent" || level === "plugin";
  const reads: Promise<void>[] = [];
  if (wantsAgent && guest.type === "qemu" && guest.status === "running" && agentEnabled(guest.config))
    reads.push(readAgent(api, guest, level));
  if (level === "plugin") reads.push(readSnapshots(api, guest, options.exactSnapshots ?? false));
  await Promise.all(reads);
}
