// Preflight for containers: the template is checked where PVE reads it (its storage exists on
// the node, holds `vztmpl`, and lists the file), and volumes need a storage with `rootdir`.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { buildPlan } from "../../src/engine/plan.js";
import type { DesiredCt } from "../../src/resources/lxc/model.js";
import { type Lab, startLab } from "../support/engine-lab.js";

const GIB = 1024 ** 3;

function ct(ostemplate: string, rootfsStorage = "local-lvm"): DesiredCt {
  return {
    kind: "lxc",
    key: "app1",
    name: "app1",
    vmid: 320,
    node: "pve1",
    ostemplate,
    options: {},
    mounts: [{ slot: "rootfs", storage: rootfsStorage, sizeBytes: 2 * GIB, options: {} }],
    nics: [],
  };
}

describe("container preflight", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  after(async () => lab.close());

  it("accepts a template the storage lists", async () => {
    const { plan } = await buildPlan(lab.client, [ct("local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst")]);
    assert.deepEqual(plan.preflightErrors, []);
  });

  it("names a template that is not in the storage, the container, and how to fetch it", async () => {
    const { plan } = await buildPlan(lab.client, [ct("local:vztmpl/alpine-3.22-default_20250617_amd64.tar.xz")]);
    assert.deepEqual(plan.preflightErrors, [
      {
        kind: "template",
        guest: "app1",
        message:
          "container template local:vztmpl/alpine-3.22-default_20250617_amd64.tar.xz is not in storage local on node pve1; " +
          "download it there (pveam download local alpine-3.22-default_20250617_amd64.tar.xz) or fix ostemplate",
      },
    ]);
  });

  it("refuses a template on a storage that does not hold templates", async () => {
    const { plan } = await buildPlan(lab.client, [ct("local-lvm:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst")]);
    assert.deepEqual(
      plan.preflightErrors.map((p) => [p.kind, p.message]),
      [["storage", "storage local-lvm on node pve1 does not hold content type vztmpl (it holds: images, rootdir)"]],
    );
  });

  it("refuses rootfs on a storage without container volumes (rootdir)", async () => {
    const { plan } = await buildPlan(lab.client, [ct("local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst", "local")]);
    assert.deepEqual(
      plan.preflightErrors.map((p) => [p.kind, p.guest, p.message]),
      [
        [
          "storage",
          "app1",
          "storage local on node pve1 does not hold content type rootdir (it holds: backup, import, iso, snippets, vztmpl)",
        ],
      ],
    );
  });
});
