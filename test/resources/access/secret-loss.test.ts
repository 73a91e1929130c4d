// What apply says when a token's one-time secret is lost, as the access family words it for the
// engine (resources/access/secret-loss.ts, reached through the registry): the operator reads
// whether the token is gone or must be deleted by hand, and which of the step's ACL entries were
// not granted again.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ApiCall } from "../../../src/plan/types.js";
import { afterSecretDeliveredText, lostSecretText } from "../../../src/resources/objects.js";
import { aclCall, tokenCreateCall } from "../../../src/resources/access/steps.js";

const create: ApiCall = {
  ...tokenCreateCall("deploy@pve", "ci", { privsep: 1 }, { file: "/tmp/ci.token" }),
  intent: { kind: "object", object: "access-token", op: "object-create", key: "deploy@pve!ci" },
};
const grant = (path: string, role: string): ApiCall => ({
  ...aclCall({ path, type: "token", ugid: "deploy@pve!ci", role, propagate: true }, false),
  intent: { kind: "object", object: "access-acl", op: "object-create", key: `${path}:${role}` },
});

describe("a token's lost secret, as apply says it", () => {
  it("says the token was removed, or that it must be deleted by hand, and which ACL entries were not granted again", () => {
    const rest = [grant("/vms/100", "PVEVMUser"), grant("/pool/web", "PVEPoolUser")];
    const removed = lostSecretText(create, "create API token deploy@pve!ci", true, rest);
    assert.match(removed, /^create API token deploy@pve!ci: PVE created it, but its answer .* was lost; the token was removed again/);
    assert.match(removed, /its ACL entries \(PVEVMUser on \/vms\/100, PVEPoolUser on \/pool\/web\) were not granted again/);
    const stuck = lostSecretText(create, "create API token deploy@pve!ci", false, []);
    assert.match(stuck, /removing it failed: nobody has its secret\. Delete the token \(pveum user token remove\) and run apply again$/);
  });

  it("after the secret was delivered, names the ACL entries left to grant, and adds nothing when none is left", () => {
    const text = afterSecretDeliveredText(create, "500 timeout", "access-token:deploy@pve!ci/1-object-update", [
      grant("/vms/100", "PVEVMUser"),
    ]);
    assert.match(
      text ?? "",
      /^500 timeout; the token was made anew and its new secret written, but these ACL entries of it were not granted again: PVEVMUser on \/vms\/100 \(access-token:deploy@pve!ci\/1-object-update\)/,
    );
    assert.equal(afterSecretDeliveredText(create, "500 timeout", "x", []), undefined);
  });
});
