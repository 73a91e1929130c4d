// A guest's host variables: pvectl's own at the basic, config and agent levels, the community
// plugin's at the plugin level (plugin-facts.ts), without placement when so configured, and
// with any fact-gathering failure at every level.
import type { InventoryConfig } from "./config.js";
import type { InventoryGuest } from "./model.js";
import { dropPlacement } from "./placement.js";
import { pluginHostVars } from "./plugin-facts.js";

/** pvectl's own variables at the basic, config and agent levels. */
function levelFacts(guest: InventoryGuest, prefix: string): Record<string, unknown> {
  const facts: Record<string, unknown> = {
    [`${prefix}vmid`]: guest.vmid,
    [`${prefix}name`]: guest.name,
    [`${prefix}node`]: guest.node,
    [`${prefix}vmtype`]: guest.type,
    [`${prefix}status`]: guest.status,
    [`${prefix}template`]: guest.template,
    [`${prefix}tags`]: guest.tags.join(";"),
    [`${prefix}tags_parsed`]: guest.tags,
  };
  if (guest.pool) facts[`${prefix}pool`] = guest.pool;
  if (guest.maxcpu !== undefined) facts[`${prefix}maxcpu`] = guest.maxcpu;
  if (guest.maxmem !== undefined) facts[`${prefix}maxmem`] = guest.maxmem;
  for (const [key, value] of Object.entries(guest.config ?? {})) {
    // PVE's own keys never collide with the fixed facts above except `name`, `tags` and `template`, which agree.
    if (facts[`${prefix}${key}`] === undefined) facts[`${prefix}${key}`] = value;
  }
  if (guest.agentAddresses) facts[`${prefix}agent_addresses`] = guest.agentAddresses;
  return facts;
}

/** A guest's host variables for the configured facts level and placement choice, plus any fact-gathering failure. */
export function hostFacts(guest: InventoryGuest, config: InventoryConfig): Record<string, unknown> {
  const prefix = config.factsPrefix;
  const facts = config.facts === "plugin" ? pluginHostVars(guest, { prefix }) : levelFacts(guest, prefix);
  if (!config.placementFacts) dropPlacement(facts, prefix);
  if (guest.factErrors) {
    facts[`${prefix}fact_gathering_failed`] = true;
    facts[`${prefix}fact_errors`] = guest.factErrors;
  }
  return facts;
}
