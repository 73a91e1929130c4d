// `pvectl show` and `pvectl import` write each guest in its own section of the spec: VMs
// under `vms:`, containers under `containers:` (and no empty `containers:` for VMs only).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { specGuests, specSections } from "../../src/app/show.js";
import { liveToSpecCt } from "../../src/resources/lxc/to-spec.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { stringify } from "yaml";

const ct = liveToSpecCt({
  kind: "lxc",
  vmid: 200,
  node: "pve1",
  pendingKeys: [],
  name: "ct1",
  status: "running",
  template: false,
  options: { hostname: "ct1", unprivileged: "1", memory: "1024" },
  tags: ["pvectl"],
  mounts: { rootfs: { slot: "rootfs", volume: "local-lvm:vm-200-disk-0", storage: "local-lvm", sizeBytes: 8 * 1024 ** 3, options: {} } },
  nics: {},
  unused: {},
});
const vm = { vmid: 100, name: "vm1", node: "pve1" };

describe("spec sections of shown and imported guests", () => {
  it("puts containers under `containers:` and VMs under `vms:`, in a spec that loads", () => {
    const spec = specSections([vm, ct]);
    assert.deepEqual(spec, { version: 1, vms: [vm], containers: [ct] });
    assert.deepEqual(specGuests(spec), [vm, ct]);
    const loaded = parseSpec(stringify(spec), "imported.yaml");
    assert.deepEqual(
      loaded.containers.map((c) => [c.vmid, c.name, c.options.memory, c.rootfs?.sizeBytes]),
      [[200, "ct1", "1024", 8 * 1024 ** 3]],
    );
    assert.deepEqual(
      loaded.vms.map((v) => v.name),
      ["vm1"],
    );
  });

  it("writes no `containers:` when there are none", () => {
    assert.deepEqual(specSections([vm]), { version: 1, vms: [vm] });
  });
});
