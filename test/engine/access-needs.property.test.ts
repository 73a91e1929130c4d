// `access needs` and preflight cannot disagree: for random spec entries (any subset of keys,
// with or without a vmid, in a pool or not, VMs and containers), a token holding exactly the
// grants `access needs --format spec` writes passes the permission preflight of the entry's
// create plan (every step's privileges and the reads), evaluated on the permission dump PVE
// would give that token before the guest exists.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { accessSpec, specAccessNeeds } from "../../src/app/access.js";
import { desiredOf } from "../../src/app/plan-spec.js";
import { missingPrivileges, type PermissionDump, stepNeeds } from "../../src/engine/privileges.js";
import { planReadNeeds } from "../../src/engine/read-needs.js";
import { kindOf } from "../../src/resources/index.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { stringify } from "yaml";
import { specEntry } from "../resources/left-out-model.js";

/** The dump PVE gives a subject whose only ACL entries are `acls` (no pool members yet). */
function dumpOf(spec: ReturnType<typeof accessSpec>): PermissionDump {
  const dump: PermissionDump = {};
  for (const acl of spec.acls) {
    if (acl.token === undefined) continue;
    const role = spec.roles.find((r) => r.id === acl.role)!;
    const entry = dump[acl.path] ?? {};
    dump[acl.path] = entry;
    for (const p of role.privileges) entry[p] = acl.propagate ? 1 : (entry[p] ?? 0);
  }
  return dump;
}

const container = fc.record({
  hostname: fc.constant("cache"),
  node: fc.constant("pve2"),
  ostemplate: fc.constant("local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"),
  power: fc.constantFrom("running", "stopped"),
  cores: fc.integer({ min: 1, max: 4 }),
  rootfs: fc.constant({ storage: "local-lvm", size: "4G" }),
  mounts: fc.constantFrom({}, { mp0: { storage: "shared", size: "2G", mountpoint: "/data" } }),
  nics: fc.constantFrom({}, { net0: { bridge: "vmbr1", ip: "dhcp" } }),
});

describe("access needs covers what preflight demands", () => {
  it("for random VMs and containers, with or without vmid and pool", () => {
    fc.assert(
      fc.property(specEntry, container, fc.boolean(), fc.constantFrom(undefined, "team"), (vm, ct, withVmid, pool) => {
        const entry: Record<string, unknown> = { ...vm, ...(pool !== undefined ? { pool } : {}) };
        if (!withVmid) delete entry.vmid;
        if (entry.pool === "") delete entry.pool;
        const text = stringify({ vms: [entry], containers: [{ ...ct, vmid: 301, ...(pool !== undefined ? { pool } : {}) }] });
        const spec = parseSpec(text, "random.yaml");
        const granted = accessSpec(specAccessNeeds(spec).paths, "Deploy", { token: "deploy@pve!ci" });
        const dump = dumpOf(granted);
        for (const guest of desiredOf(spec)) {
          const plan = kindOf(guest).plan.create(guest);
          const missing = missingPrivileges(dump, [...stepNeeds(plan.steps), ...planReadNeeds([plan])]);
          assert.deepEqual(
            missing.map((m) => `${m.path} ${m.privilege}`),
            [],
            `${text}\n${stringify(granted)}`,
          );
        }
      }),
      { seed: 808, numRuns: 150 },
    );
  });
});
