// The CLI names each family's objects through the registry (resources/objects.ts): the words a
// plan line and `access needs` print are the families' own, and stay what they were before the
// families moved behind the registry.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderNeeds } from "../../src/cli/render/access.js";
import { idleText, objectTitle } from "../../src/cli/render/plan-objects.js";
import type { ObjectKind } from "../../src/plan/intent.js";
import type { ObjectPlan } from "../../src/plan/types.js";

const idle = (kind: ObjectKind, key: string, foreign: boolean): ObjectPlan => ({
  kind,
  key,
  exists: true,
  ...(foreign ? { foreign: true } : {}),
  steps: [],
  errors: [],
  warnings: [],
});

describe("how the CLI names each family's objects", () => {
  it("titles an object of every kind with its family's noun", () => {
    const titles = (
      [
        ["backup-job", "nightly"],
        ["access-role", "Deployer"],
        ["access-group", "ops"],
        ["access-user", "ci@pve"],
        ["access-token", "ci@pve!deploy"],
        ["access-acl", "/pool/web token:ci@pve!deploy Deployer"],
        ["access-pool", "web"],
      ] as const
    ).map(([kind, key]) => objectTitle(idle(kind, key, false)));
    assert.deepEqual(titles, [
      "backup job nightly",
      "role Deployer",
      "group ops",
      "user ci@pve",
      "API token ci@pve!deploy",
      "ACL entry /pool/web token:ci@pve!deploy Deployer",
      "pool web",
    ]);
  });

  it("says why a foreign object is not managed: the family's text for kinds without a marker, the marker otherwise", () => {
    assert.equal(idleText(idle("access-role", "Auditor", true)), "not managed (not listed; roles carry no marker; left alone)");
    assert.equal(
      idleText(idle("access-acl", "/ user:bob@pve Admin", true)),
      "not managed (its user, group or token is not pvectl's; left alone)",
    );
    assert.equal(idleText(idle("access-user", "bob@pve", true)), "not managed (no pvectl marker in its comment; left alone)");
    assert.equal(idleText(idle("backup-job", "theirs", true)), "not managed (no pvectl marker in its comment; left alone)");
    assert.equal(idleText(idle("access-pool", "web", false)), "no changes");
  });

  it("`access needs` with nothing declared names guests and every family it derives privileges for", () => {
    assert.equal(
      renderNeeds({ paths: [], notes: [], checks: [] }),
      "nothing: the specs declare no guests and no backup jobs and no HA rules\n",
    );
  });
});
