// Datacenter network configuration: security groups, SDN (zones, vnets, subnets and applying
// them with PUT /cluster/sdn) and query-url-metadata. One registration for index.ts.
import { commitSdn } from "../cluster/sdn.js";
import type { HandlerContext, Router } from "../contract.js";
import { sim } from "./context.js";
import { registerFirewallGroupHandlers } from "./firewall-groups.js";
import { registerSdnSubnetHandlers } from "./sdn-subnets.js";
import { registerSdnVnetHandlers } from "./sdn-vnets.js";
import { registerSdnZoneHandlers } from "./sdn-zones.js";
import { registerUrlMetadataHandler } from "./url-metadata.js";

/**
 * PUT /cluster/sdn (pve-network API2/Network/SDN.pm `reload`): the edited config becomes the
 * running one at once (commit_config runs before the worker), then a `reloadnetworkall` task
 * reloads every node's network.
 */
function applySdn(ctx: HandlerContext): string {
  const model = sim(ctx);
  const version = commitSdn(model.state);
  const nodes = model.state.nodes.filter((n) => n.online).map((n) => n.name);
  return ctx.tasks.start({
    node: nodes[0] ?? "pve1",
    type: "reloadnetworkall",
    id: "",
    kind: "config",
    work: (task) => {
      for (const node of nodes) task.log(`${node}: reloading network config`);
      task.log(`sdn config version ${version}`);
    },
  });
}

export function registerNetworkConfigHandlers(router: Router): void {
  registerFirewallGroupHandlers(router);
  registerSdnZoneHandlers(router);
  registerSdnVnetHandlers(router);
  registerSdnSubnetHandlers(router);
  router.add("PUT", "/cluster/sdn", applySdn);
  registerUrlMetadataHandler(router);
}
