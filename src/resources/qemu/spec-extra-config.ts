// A VM's escape hatch: any config key of PVE's VM schema that the structured model does not own
// (rng0, spice_enhancements, args, hookscript ...), checked by the check every kind shares.
import { extraConfigChecker } from "../spec-section/extra-config.js";
import { configKeySchema, qemuConfigEndpoint } from "./spec-facts.js";
import { isNotSettable, ownedKeyHint } from "./spec-owned-keys.js";

/** Checks one escape-hatch entry; booleans become 1/0 as PVE stores them. */
export const checkExtraConfig = extraConfigChecker({
  noun: "VM",
  params: () => qemuConfigEndpoint().params,
  keySchema: configKeySchema,
  ownedKeyHint,
  notSettable: isNotSettable,
  stored: (checked, written) => (typeof checked === "string" || typeof checked === "number" ? checked : String(written)),
});
