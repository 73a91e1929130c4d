// SDN vnets: /cluster/sdn/vnets[/{vnet}] (pve-network API2/Network/SDN/Vnets.pm). Access is
// per vnet on /sdn/zones/<zone>/<vnet>, as PVE checks it.
import { sdnState } from "../cluster/sdn.js";
import type { SdnSection } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { sim, str } from "./context.js";
import { entry, optionsOf, sdnFailure, updateSection, viewOf } from "./sdn-common.js";

const AUDIT = ["SDN.Audit", "SDN.Allocate"];

/** The edited vnet, or PVE's error; checks `privs` on its zone path (check_vnet_access). */
export function requireVnet(ctx: HandlerContext, privs: string[]): { id: string; vnet: SdnSection } {
  const id = str(ctx, "vnet") ?? "";
  const vnet = sdnState(sim(ctx).state).vnets[id];
  if (!vnet) throw new PveApiError(500, `sdn vnet '${id}' does not exist`);
  ctx.checkPermission(`/sdn/zones/${String(vnet.zone)}/${id}`, privs, true);
  return { id, vnet };
}

function hasSubnets(ctx: HandlerContext, vnet: string): boolean {
  return Object.values(sdnState(sim(ctx).state).subnets).some((s) => s.vnet === vnet);
}

function listVnets(ctx: HandlerContext): unknown[] {
  const { sections, digest } = viewOf(ctx, "vnets");
  return Object.keys(sections)
    .sort()
    .filter((id) => {
      const s = sections[id] as { zone?: unknown; pending?: { zone?: unknown } };
      const zone = s.zone ?? s.pending?.zone;
      return ctx.hasPermission(`/sdn/zones/${String(zone)}/${id}`, AUDIT, true);
    })
    .map((id) => entry(sections[id] ?? {}, { vnet: id }, digest));
}

function getVnet(ctx: HandlerContext): unknown {
  const { id } = requireVnet(ctx, AUDIT);
  const { sections, digest } = viewOf(ctx, "vnets");
  const section = sections[id];
  if (!section) throw new PveApiError(500, `sdn vnet '${id}' does not exist`);
  return entry(section, { vnet: id }, digest);
}

function createVnet(ctx: HandlerContext): null {
  const sdn = sdnState(sim(ctx).state);
  const id = str(ctx, "vnet") ?? "";
  if (sdn.vnets[id]) throw sdnFailure("create", "vnet", `sdn vnet object ID '${id}' already defined`);
  const section: SdnSection = { type: "vnet", ...optionsOf(ctx, ["type"]), zone: str(ctx, "zone") ?? "" };
  // the zone plugin's vnet hook is looked up by the zone's type: an unknown zone has none
  if (!sdn.zones[String(section.zone)]) throw sdnFailure("create", "vnet", "unknown section type ''");
  if (section.vlanaware && hasSubnets(ctx, id)) {
    throw new PveApiError(400, "Parameter verification failed.", { vlanaware: "vlanaware vnet is not compatible with subnets" });
  }
  sdn.vnets[id] = section;
  return null;
}

function updateVnet(ctx: HandlerContext): null {
  const { id, vnet } = requireVnet(ctx, ["SDN.Allocate"]);
  const updated = { ...vnet };
  updateSection(ctx, updated, ["type"]);
  if (!updated.zone) throw new PveApiError(400, "Parameter verification failed.", { zone: "cannot delete zone" });
  if (updated.zone !== vnet.zone && hasSubnets(ctx, id)) {
    throw new PveApiError(400, "Parameter verification failed.", { zone: "can't change zone if subnets exist" });
  }
  if (updated.vlanaware && Number(updated.vlanaware) !== 0 && hasSubnets(ctx, id)) {
    throw new PveApiError(400, "Parameter verification failed.", { vlanaware: "vlanaware vnet is not compatible with subnets" });
  }
  sdnState(sim(ctx).state).vnets[id] = updated;
  return null;
}

function deleteVnet(ctx: HandlerContext): null {
  const { id } = requireVnet(ctx, ["SDN.Allocate"]);
  if (hasSubnets(ctx, id)) throw new PveApiError(400, "Parameter verification failed.", { vnet: "Can't delete vnet if subnets exists" });
  delete sdnState(sim(ctx).state).vnets[id];
  return null;
}

export function registerSdnVnetHandlers(router: Router): void {
  router.add("GET", "/cluster/sdn/vnets", listVnets);
  router.add("POST", "/cluster/sdn/vnets", createVnet);
  router.add("GET", "/cluster/sdn/vnets/{vnet}", getVnet);
  router.add("PUT", "/cluster/sdn/vnets/{vnet}", updateVnet);
  router.add("DELETE", "/cluster/sdn/vnets/{vnet}", deleteVnet);
}
