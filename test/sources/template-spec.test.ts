// `template:` in spec files, for VMs and containers: a boolean that reaches the engine as is
// (absent stays absent: not managed), and `power: running` beside `template: true` refused
// where it is written, since PVE never starts a template.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { desiredOf } from "../../src/app/plan-spec.js";
import { parseSpec, SpecError } from "../../src/sources/spec/index.js";

const lines = (...rows: string[]): string => `${rows.join("\n")}\n`;

function problems(text: string): string[] {
  try {
    parseSpec(text, "tpl.yaml");
  } catch (err) {
    assert.ok(err instanceof SpecError, `expected a SpecError, got ${String(err)}`);
    return err.issues.map((i) => `${i.location?.line}:${i.location?.column}: ${i.message}`);
  }
  assert.fail("the spec was accepted");
}

const CT = "    ostemplate: local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

describe("template in a spec", () => {
  it("reaches the engine as written for a VM and a container; left out, it is not managed", () => {
    const spec = parseSpec(
      lines(
        "vms:",
        "  - { name: base, node: pve1, template: true }",
        "  - { name: web, node: pve1, template: false }",
        "  - { name: db, node: pve1 }",
        "containers:",
        "  - hostname: ctbase",
        "    node: pve1",
        "    template: true",
        CT,
      ),
      "tpl.yaml",
    );
    assert.deepEqual(
      desiredOf(spec).map((g) => [g.key, g.template]),
      [
        ["base", true],
        ["web", false],
        ["db", undefined],
        ["ctbase", true],
      ],
    );
  });

  it("`power: running` with `template: true` is refused at the power key, for both kinds", () => {
    const found = problems(
      lines(
        "vms:",
        "  - name: base",
        "    node: pve1",
        "    template: true",
        "    power: running",
        "containers:",
        "  - hostname: ctbase",
        "    node: pve1",
        "    power: running",
        "    template: true",
        CT,
      ),
    );
    assert.equal(found.length, 2);
    assert.match(found[0]!, /^5:5: `power: running` with `template: true`: PVE never starts a template; drop `power`/);
    assert.match(found[1]!, /^9:5: `power: running` with `template: true`/);
  });

  it("`power: stopped` with `template: true` is accepted (a template is stopped)", () => {
    assert.doesNotThrow(() => parseSpec(lines("vms:", "  - { name: base, node: pve1, template: true, power: stopped }"), "tpl.yaml"));
  });

  it("is a boolean: `template: 1` is refused with what to write", () => {
    const found = problems(lines("vms:", "  - { name: base, node: pve1, template: 1 }"));
    assert.equal(found.length, 1);
    assert.match(found[0]!, /^2:41: expected true or false, got number 1/);
  });

  it("under extraConfig, points to the entry's own `template` field", () => {
    const vm = problems(lines("vms:", "  - name: base", "    node: pve1", "    extraConfig: { template: 1 }"));
    assert.deepEqual(vm, [
      "4:20: `template` has a place of its own in the spec: write it as the VM's own `template` field, not under extraConfig",
    ]);
    const ct = problems(lines("containers:", "  - hostname: base", "    node: pve1", "    extraConfig: { template: 1 }", CT));
    assert.match(ct.join("\n"), /^4:20: `template` has a place of its own in the spec: write it as the container's own `template` field/);
  });
});
