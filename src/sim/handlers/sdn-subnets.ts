// SDN subnets: /cluster/sdn/vnets/{vnet}/subnets[/{subnet}] (pve-network
// API2/Network/SDN/Subnets.pm). A subnet's id is "<zone>-<network>-<mask>" (the CIDR with "/"
// as "-", after the vnet's zone); entries carry id, cidr, zone, network and mask as PVE's
// sdn_subnets_config adds them. No IPAM: gateways and DHCP ranges are stored, not allocated.
import { sdnState } from "../cluster/sdn.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { sim, str } from "./context.js";
import { entry, optionsOf, sdnFailure, updateSection, viewOf } from "./sdn-common.js";
import { requireVnet } from "./sdn-vnets.js";

const AUDIT = ["SDN.Audit", "SDN.Allocate"];

/** The fields PVE derives from the id. */
function derived(id: string): Record<string, string> {
  const [zone = "", network = "", mask = ""] = id.split("-");
  return { subnet: id, id, cidr: `${network}/${mask}`, zone, network, mask };
}

function listSubnets(ctx: HandlerContext): unknown[] {
  const { id: vnet } = requireVnet(ctx, AUDIT);
  const { sections, digest } = viewOf(ctx, "subnets");
  return Object.keys(sections)
    .sort()
    .filter((id) => sections[id]?.vnet === vnet)
    .map((id) => entry(sections[id] ?? {}, derived(id), digest));
}

function getSubnet(ctx: HandlerContext): unknown {
  const { id: vnet } = requireVnet(ctx, AUDIT);
  const { sections, digest } = viewOf(ctx, "subnets");
  const id = str(ctx, "subnet") ?? "";
  const section = sections[id];
  if (!section) throw new PveApiError(500, `sdn subnet '${id}' does not exist`);
  if (section.vnet !== vnet) throw new PveApiError(400, "Parameter verification failed.", { vnet: "wrong vnet" });
  return entry(section, derived(id), digest);
}

function createSubnet(ctx: HandlerContext): null {
  const { id: vnet, vnet: section } = requireVnet(ctx, ["SDN.Allocate"]);
  const subnets = sdnState(sim(ctx).state).subnets;
  const cidr = str(ctx, "subnet") ?? "";
  const id = `${String(section.zone)}-${cidr.replace("/", "-")}`;
  if (subnets[id]) throw sdnFailure("create", "subnet", `sdn subnet object ID '${id}' already defined`);
  if (section.vlanaware && Number(section.vlanaware) !== 0) {
    throw new PveApiError(400, "Parameter verification failed.", { vlanaware: "vlanaware vnet is not compatible with subnets" });
  }
  subnets[id] = { ...optionsOf(ctx), type: "subnet", vnet };
  return null;
}

function updateSubnet(ctx: HandlerContext): null {
  requireVnet(ctx, ["SDN.Allocate"]);
  const subnets = sdnState(sim(ctx).state).subnets;
  const id = str(ctx, "subnet") ?? "";
  const section = subnets[id];
  if (!section) throw sdnFailure("update", "subnet", `sdn subnet '${id}' does not exist`);
  const updated = { ...section };
  updateSection(ctx, updated, ["type", "vnet"]);
  subnets[id] = updated;
  return null;
}

/** PVE looks the subnet up without failing: deleting one that is gone succeeds. */
function deleteSubnet(ctx: HandlerContext): null {
  requireVnet(ctx, ["SDN.Allocate"]);
  delete sdnState(sim(ctx).state).subnets[str(ctx, "subnet") ?? ""];
  return null;
}

export function registerSdnSubnetHandlers(router: Router): void {
  router.add("GET", "/cluster/sdn/vnets/{vnet}/subnets", listSubnets);
  router.add("POST", "/cluster/sdn/vnets/{vnet}/subnets", createSubnet);
  router.add("GET", "/cluster/sdn/vnets/{vnet}/subnets/{subnet}", getSubnet);
  router.add("PUT", "/cluster/sdn/vnets/{vnet}/subnets/{subnet}", updateSubnet);
  router.add("DELETE", "/cluster/sdn/vnets/{vnet}/subnets/{subnet}", deleteSubnet);
}
