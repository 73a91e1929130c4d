// SDN zones: /cluster/sdn/zones[/{zone}] (pve-network API2/Network/SDN/Zones.pm). Zones are
// stored and listed; only their effect on vnets (which nodes get the bridge) is modelled.
import { sdnState } from "../cluster/sdn.js";
import type { SdnSection } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { sim, str } from "./context.js";
import { entry, optionsOf, sdnFailure, updateSection, viewOf } from "./sdn-common.js";

/** Options a zone type cannot do without (each plugin's `optional => 0` options). */
const REQUIRED: Record<string, string[]> = {
  vlan: ["bridge"],
  qinq: ["bridge", "tag"],
  vxlan: ["peers"],
  evpn: ["controller", "vrf-vxlan"],
};

function missing(type: string, section: SdnSection): void {
  const errors: Record<string, string> = {};
  for (const key of REQUIRED[type] ?? []) {
    if (section[key] === undefined) errors[key] = "property is missing and it is not optional";
  }
  if (Object.keys(errors).length > 0) throw new PveApiError(400, "Parameter verification failed.", errors);
}

function listZones(ctx: HandlerContext): unknown[] {
  const { sections, digest } = viewOf(ctx, "zones");
  const type = str(ctx, "type");
  return Object.keys(sections)
    .sort()
    .filter((id) => ctx.hasPermission(`/sdn/zones/${id}`, ["SDN.Audit", "SDN.Allocate"], true))
    .filter((id) => type === undefined || sections[id]?.type === type)
    .map((id) => entry(sections[id] ?? {}, { zone: id }, digest));
}

function getZone(ctx: HandlerContext): unknown {
  const { sections, digest } = viewOf(ctx, "zones");
  const id = str(ctx, "zone") ?? "";
  const section = sections[id];
  if (!section) throw new PveApiError(500, `sdn '${id}' does not exist`);
  return entry(section, { zone: id }, digest);
}

function createZone(ctx: HandlerContext): null {
  const zones = sdnState(sim(ctx).state).zones;
  const id = str(ctx, "zone") ?? "";
  const section = optionsOf(ctx);
  missing(String(section.type), section);
  if (zones[id]) throw sdnFailure("create", "zone", `sdn zone object ID '${id}' already defined`);
  zones[id] = section;
  return null;
}

function updateZone(ctx: HandlerContext): null {
  const zones = sdnState(sim(ctx).state).zones;
  const id = str(ctx, "zone") ?? "";
  const section = zones[id];
  if (!section) throw sdnFailure("update", "zone", `sdn '${id}' does not exist`);
  const updated = { ...section };
  updateSection(ctx, updated, ["type"]);
  missing(String(updated.type), updated);
  zones[id] = updated;
  return null;
}

function deleteZone(ctx: HandlerContext): null {
  const sdn = sdnState(sim(ctx).state);
  const id = str(ctx, "zone") ?? "";
  if (!sdn.zones[id]) throw sdnFailure("delete", "zone", `sdn '${id}' does not exist`);
  const user = Object.keys(sdn.vnets)
    .sort()
    .find((vnet) => sdn.vnets[vnet]?.zone === id);
  if (user) throw sdnFailure("delete", "zone", `zone ${id} is used by vnet ${user}`);
  delete sdn.zones[id];
  return null;
}

export function registerSdnZoneHandlers(router: Router): void {
  router.add("GET", "/cluster/sdn/zones", listZones);
  router.add("POST", "/cluster/sdn/zones", createZone);
  router.add("GET", "/cluster/sdn/zones/{zone}", getZone);
  router.add("PUT", "/cluster/sdn/zones/{zone}", updateZone);
  router.add("DELETE", "/cluster/sdn/zones/{zone}", deleteZone);
}
