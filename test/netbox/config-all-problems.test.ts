// The NetBox config reports every problem in one run: the checks across keys (a connection or
// platform named, a range, a duration, a platform's keys) still run on every section and entry
// whose own shape is valid when zod refused another, and a name whose entry has a shape problem
// still counts as defined. Sorted by position, without stack traces.
import assert from "node:assert/strict";
import { test } from "node:test";
import { formatIssue } from "../../src/sources/spec/errors.js";
import { NetboxConfigError, parseNetboxConfig } from "../../src/sources/netbox/config.js";

test("shape problems and the checks across keys are reported together", () => {
  const text = [
    "connections:",
    "  lab: { host: pve1.example.com, colour: red }",
    "clusters:",
    "  a: { connection: lab, vmidRange: [300, 200] }",
    "  b: { nodes: pve1 }",
    "platforms:",
    '  deb: { ostype: l26, iso: "local:iso/d.iso", image: "local:import/d.qcow2" }',
    "  bad: { ostype: linux }",
    "defaults: { platform: bad }",
    "vmidQuarantine: soon",
    "",
  ].join("\n");
  const err = (() => {
    try {
      parseNetboxConfig(text, "nb.yaml");
    } catch (e) {
      return e;
    }
    return assert.fail("accepted");
  })();
  assert.ok(err instanceof NetboxConfigError);
  assert.deepEqual(err.issues.map(formatIssue), [
    "nb.yaml:2:34: connections.lab.colour: unknown key `colour`",
    "nb.yaml:4:36: clusters.a.vmidRange: the range starts above its end (300 > 200); write [low, high]",
    "nb.yaml:5:8: clusters.b.nodes: unknown key `nodes`; did you mean `node`?",
    "nb.yaml:7:47: platforms.deb: give either `iso` (install from a CD-ROM) or `image` (first disk imported from an image), not both",
    "nb.yaml:8:18: platforms.bad.ostype: `linux` is not one of other, wxp, w2k, w2k3, w2k8, wvista, win7, win8, win10, win11, l24, l26, solaris",
    "nb.yaml:10:17: vmidQuarantine: `soon` is not a duration; write e.g. 30m, 24h or 7d (0: no quarantine)",
  ]);
  assert.doesNotMatch(err.userMessage(), /\n\s+at /);
});
