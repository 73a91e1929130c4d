// A container's escape hatch: any config key of PVE's container schema the structured model
// does not own (tty, cmode, hookscript, dev0 ...), checked by the check every kind shares.
import { guestConfigEndpoint, guestKeySchema } from "../../pve/guest-schema.js";
import { canonical } from "../formats.js";
import { extraConfigChecker } from "../spec-section/extra-config.js";
import { ctNotSettable, ctOwnedKeyHint } from "./spec-owned-keys.js";

/** Checks one container extraConfig entry; the value comes back as PVE stores it (booleans 1/0), canonical text. */
export const checkCtExtraConfig = extraConfigChecker({
  noun: "container",
  params: () => guestConfigEndpoint("lxc").params,
  keySchema: (key) => guestKeySchema("lxc", key),
  ownedKeyHint: ctOwnedKeyHint,
  notSettable: ctNotSettable,
  stored: (checked, written) =>
    typeof checked === "number" ? checked : canonical(typeof checked === "string" ? checked : String(written)),
});
