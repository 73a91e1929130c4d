// Properties of the container diff: a plan touches only what the spec names (keys it leaves
// out, and sections it does not write, are never changed), and a spec written from a live
// container plans nothing. Live configs are random PVE 9 container configs.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { Step } from "../../../src/plan/types.js";
import { planUpdateCt } from "../../../src/resources/lxc/diff.js";
import type { DesiredCt, LiveCt } from "../../../src/resources/lxc/model.js";
import { liveCtFromConfig } from "../../../src/resources/lxc/read.js";
import { power } from "./fixture.js";

const SEED = 1313;

const optionValues = {
  cores: fc.integer({ min: 1, max: 8 }).map(String),
  memory: fc.constantFrom("256", "512", "2048"),
  swap: fc.constantFrom("0", "512", "1024"),
  cpulimit: fc.constantFrom("0", "1", "2.5"),
  onboot: fc.constantFrom("0", "1"),
  nameserver: fc.constantFrom("10.0.0.53", "1.1.1.1 9.9.9.9"),
  searchdomain: fc.constantFrom("example.org", "lab.example.org"),
  timezone: fc.constantFrom("UTC", "Europe/Berlin"),
  features: fc.constantFrom("nesting=1", "keyctl=1,nesting=1"),
  description: fc.constantFrom("made elsewhere", "web tier"),
  protection: fc.constantFrom("0", "1"),
};
type OptionKey = keyof typeof optionValues;
const optionKeys = Object.keys(optionValues) as OptionKey[];

const liveConfig = fc
  .record({
    options: fc.record(optionValues, { requiredKeys: [] }),
    mps: fc.subarray([0, 1, 2, 3]),
    nics: fc.subarray([0, 1, 2]),
    tags: fc.constantFrom("pvectl", "pvectl;web", "db;pvectl"),
    unprivileged: fc.constantFrom(0, 1),
  })
  .map(({ options, mps, nics, tags, unprivileged }) => {
    const config: Record<string, string | number> = {
      hostname: "ct1",
      tags,
      unprivileged,
      rootfs: "local-lvm:vm-200-disk-0,size=4G",
      ...options,
    };
    for (const i of mps) config[`mp${i}`] = `local-lvm:vm-200-disk-${i + 1},mp=/mnt/m${i},size=${i + 1}G`;
    for (const i of nics)
      config[`net${i}`] = `name=eth${i},bridge=vmbr0,hwaddr=BC:24:11:00:00:0${i},ip=dhcp,type=veth${i === 1 ? ",tag=20" : ""}`;
    return config;
  });

const liveCt = fc
  .tuple(liveConfig, fc.constantFrom("running", "stopped") as fc.Arbitrary<"running" | "stopped">)
  .map(([config, status]) => liveCtFromConfig({ vmid: 200, node: "pve1", status }, config));

/** The config keys (and the container's run state) a step's calls write or delete. */
function touched(step: Step): string[] {
  const keys: string[] = [];
  for (const call of step.calls) {
    const intent = call.intent;
    if (intent.op === "configure") keys.push(...intent.writes.map((w) => w.key), ...intent.deletes);
    else if (intent.op === "resize" || intent.op === "move-volume") keys.push(intent.slot);
    else if (intent.op === "power") keys.push("status");
    else keys.push(`(${intent.op})`);
  }
  return keys;
}

/** The spec of a live container exactly as it is (only keys with a spec field). */
function specOf(live: LiveCt): DesiredCt {
  const options: Record<string, string> = {};
  for (const key of [...optionKeys, "unprivileged"]) if (live.options[key] !== undefined) options[key] = live.options[key]!;
  return {
    kind: "lxc",
    key: "ct1",
    name: live.name ?? "ct1",
    vmid: live.vmid,
    node: live.node,
    options,
    tags: live.tags.filter((t) => t !== "pvectl"),
    mounts: Object.values(live.mounts).map((m) => ({
      slot: m.slot,
      storage: m.storage!,
      sizeBytes: m.sizeBytes!,
      ...(m.mountpoint !== undefined ? { mountpoint: m.mountpoint } : {}),
      options: m.options,
    })),
    nics: Object.values(live.nics).map((n) => ({ slot: n.slot, name: n.name!, bridge: n.bridge!, options: { ...n.options } })),
  };
}

describe("container plans touch only what the spec names (property)", () => {
  it("a spec written from the live container plans nothing", () => {
    fc.assert(
      fc.property(liveCt, (live) => {
        const plan = planUpdateCt(specOf(live), live, power);
        assert.deepEqual(plan.errors, []);
        assert.deepEqual(plan.steps, []);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it("keys and sections the spec leaves out are never written or deleted", () => {
    const partialSpec = fc.record({
      options: fc.record(optionValues, { requiredKeys: [] }),
      mounts: fc.boolean(),
      nics: fc.boolean(),
      tags: fc.option(fc.constantFrom<string[][]>([], ["web"], ["db", "web"]), { nil: undefined }),
    });
    fc.assert(
      fc.property(liveCt, partialSpec, (live, partial) => {
        const full = specOf(live);
        const ct: DesiredCt = {
          ...full,
          options: partial.options,
          mounts: partial.mounts ? full.mounts : [],
          nics: partial.nics ? full.nics : [],
          unmanaged: [...(partial.mounts ? [] : (["mounts"] as const)), ...(partial.nics ? [] : (["nics"] as const))],
          ...(partial.tags !== undefined ? { tags: partial.tags } : {}),
        };
        if (partial.tags === undefined) delete ct.tags;
        const allowed = new Set<string>(["hostname", "status", ...Object.keys(partial.options)]);
        if (partial.tags !== undefined) allowed.add("tags");
        for (const step of planUpdateCt(ct, live, power).steps) {
          const outside = touched(step).filter((k) => !allowed.has(k));
          assert.deepEqual(outside, [], `step "${step.summary}" touches ${outside.join(", ")}, which the spec leaves out`);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
