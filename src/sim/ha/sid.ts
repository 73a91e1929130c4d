// HA resource ids (PVE::HA::Config::parse_sid) and the guests behind them. The simulator keeps
// an HA resource on its guest (`hastate`, `haOptions`): a resource without a guest cannot exist
// here, which PVE allows after a manual config removal.
import type { SimCluster } from "../cluster/model.js";
import type { GuestState } from "../cluster/types.js";
import { PveApiError } from "../contract.js";

export type HaType = "vm" | "ct";

export function haTypeOf(guest: GuestState): HaType {
  return guest.type === "qemu" ? "vm" : "ct";
}

export function sidOf(guest: GuestState): string {
  return `${haTypeOf(guest)}:${guest.vmid}`;
}

/** `vm:100`, `ct:101`, or a bare VMID that must name an existing guest (parse_sid's messages). */
export function parseSid(model: SimCluster, sid: string): { sid: string; type: string; name: string } {
  const bare = /^(\d+)$/.exec(sid);
  if (bare) {
    const guest = model.guest(Number(bare[1]));
    if (!guest) throw new PveApiError(500, `unable to detect SID from VMID - VM/CT ${bare[1]} does not exist`);
    return { sid: sidOf(guest), type: haTypeOf(guest), name: String(guest.vmid) };
  }
  const m = /^(\S+):(\S+)$/.exec(sid);
  if (!m) throw new PveApiError(500, `unable to parse service id '${sid}'`);
  return { sid, type: m[1] as string, name: m[2] as string };
}

/** The guest an HA resource id names, when it exists and is of the sid's type. */
export function guestOfSid(model: SimCluster, sid: string): GuestState | undefined {
  const m = /^(vm|ct):(\d+)$/.exec(sid);
  if (!m) return undefined;
  const guest = model.guest(Number(m[2]));
  return guest && haTypeOf(guest) === m[1] ? guest : undefined;
}

/** Configured as an HA resource (any state, `ignored` included: service_is_configured). */
export function isConfigured(model: SimCluster, sid: string): boolean {
  return guestOfSid(model, sid)?.hastate !== undefined;
}

/** The requested state with PVE's defaults (`enabled` is `started`). */
export function requestedState(guest: GuestState): string {
  const state = guest.hastate ?? "started";
  return state === "enabled" ? "started" : state;
}

/** Managed by HA (service_is_ha_managed): configured and not `ignored`. */
export function haManaged(guest: GuestState): boolean {
  return guest.hastate !== undefined && guest.hastate !== "ignored";
}

/** Every configured HA resource's guest, by sid. */
export function haGuests(model: SimCluster): GuestState[] {
  return model.state.guests.filter((g) => g.hastate !== undefined).sort((a, b) => sidOf(a).localeCompare(sidOf(b)));
}
