// What apply says when a new API token's secret, which PVE shows only once, was lost (the
// token is removed again: nobody has its secret), and which of the step's ACL entries did not
// run: a secret reset deletes the token, makes it anew and grants its entries again, so a
// failure part-way leaves those entries to grant.
import type { ApiCall } from "../../plan/types.js";
import type { SecretLoss } from "../object-family.js";

/** The ACL entries among `calls`, for messages ("PVEVMUser on /vms/100, ..."). */
function aclEntries(calls: ApiCall[]): string {
  return calls
    .filter((c) => c.intent.kind === "object" && c.intent.object === "access-acl")
    .map((c) => `${c.body.roles} on ${c.body.path}`)
    .join(", ");
}

export const TOKEN_SECRET_LOSS: SecretLoss = {
  lost: (what, removed, rest) => {
    const entries = aclEntries(rest);
    const acl =
      entries === ""
        ? ""
        : `; its ACL entries (${entries}) were not granted again: the spec's access.acls grants those it lists, grant the others by hand`;
    return (
      (removed
        ? `${what}: PVE created it, but its answer (with the secret, shown only once) was lost; the token was removed again since nobody has its secret. Run apply again to create it anew`
        : `${what}: PVE created it, but its answer (with the secret, shown only once) was lost, and removing it failed: nobody has its secret. Delete the token (pveum user token remove) and run apply again`) +
      acl
    );
  },
  afterDelivery: (error, stepId, rest) => {
    const entries = aclEntries(rest);
    if (entries === "") return undefined;
    return `${error}; the token was made anew and its new secret written, but these ACL entries of it were not granted again: ${entries} (${stepId}). The spec's access.acls grants those it lists on the next apply; grant the others by hand`;
  },
};
