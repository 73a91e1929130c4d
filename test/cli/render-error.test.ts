// Each error class names its own `--json` kind (the CLI keeps no table of class names), and
// the simulator's errors for the person starting it are still shown as written.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PveError } from "../../src/api/index.js";
import { NothingImportedError } from "../../src/cli/commands/import.js";
import { NetboxSetupError } from "../../src/cli/commands/netbox-setup.js";
import { UsageError } from "../../src/cli/commands/plan.js";
import { SimFlagError } from "../../src/cli/commands/sim.js";
import { errorExitCode, errorJson, errorKind, renderError } from "../../src/cli/render-error.js";
import { ChangedSincePlanError, PreflightFailedError } from "../../src/engine/errors.js";
import { SavedPlanError } from "../../src/engine/saved-plan.js";
import { InventoryError } from "../../src/inventory/errors.js";
import { NetboxConfigError } from "../../src/sources/netbox/config.js";
import { NetboxConnectionError, NetboxError } from "../../src/netbox/errors.js";
import { PveFormatError } from "../../src/pve/errors.js";
import { StateDirError } from "../../src/sim/index.js";
import { ConnectionError } from "../../src/sources/connections.js";
import { SecretPolicyError } from "../../src/sources/secret-policy.js";
import { SpecError } from "../../src/sources/spec/errors.js";
import { PvectlError } from "../../src/util/errors.js";

const issue = { path: ["vms", 0, "memory"], message: "expected a size", location: { file: "web.yaml", line: 4, column: 13 } };

describe("error kinds", () => {
  it("come from the error classes themselves", () => {
    const cases: Array<[PvectlError, string]> = [
      [new PveError({ kind: "permission", status: 403, message: "refused" }), "permission"],
      [new PveFormatError("disk size", "12Q", "unable to parse size", "Use 32G."), "error"],
      [new NetboxError({ status: 404, method: "GET", path: "/api/x/", body: {} }), "netbox"],
      [new NetboxConnectionError("https://netbox", "ECONNREFUSED"), "netbox-connection"],
      [new NetboxConfigError([issue]), "netbox-config"],
      [new NetboxSetupError("no NetBox URL"), "netbox-config"],
      [new InventoryError("no host", "list them"), "inventory"],
      [new SavedPlanError("plan.json", ["no such file"]), "saved-plan"],
      [new PreflightFailedError(["storage x does not exist"]), "preflight"],
      [new ChangedSincePlanError("pve1/web1"), "changed-since-plan"],
      [new SpecError([issue]), "spec"],
      [new ConnectionError("connection `lab`: no host"), "connection-config"],
      [new SecretPolicyError("--secrets-dir /nope does not exist"), "error"],
      [new NothingImportedError([]), "nothing-imported"],
      [new SimFlagError("--port", "'x' is not a whole number", "Example: --port 1"), "usage"],
      [new UsageError("no spec file given", "usage: pvectl plan -f web.yaml"), "usage"],
    ];
    for (const [err, kind] of cases) {
      assert.ok(err instanceof PvectlError, err.name);
      assert.equal(errorKind(err), kind, err.name);
      assert.equal(errorJson(err).error.kind, kind, err.name);
      assert.equal(errorExitCode(err), 1, err.name);
    }
    assert.equal(errorKind(new Error("a bug")), "internal");
  });

  it("show the simulator's start errors as written, with kind `error`", () => {
    const err = new StateDirError("/srv/none", "it does not exist");
    assert.equal(
      renderError(err),
      "error: Cannot use /srv/none as the simulator's state directory: it does not exist. Create the directory or give another --state-dir.",
    );
    assert.deepEqual(errorJson(err).error, {
      kind: "error",
      message:
        "Cannot use /srv/none as the simulator's state directory: it does not exist. Create the directory or give another --state-dir.",
    });
  });
});
