// A large spec (3,000 VMs, the start-up benchmark's shape) read by the fast YAML path: problems
// deep in it still name their own file:line:column, and the same spec read by the yaml library
// (an anchor sends it there) gives the very same problems.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { articleVmYaml } from "../../bench/provision-spec.js";
import { parseSpec, SpecError } from "../../src/sources/spec/index.js";
import { parseFastYaml } from "../../src/util/yaml-fast/reader.js";

const VMS = 3000;

function largeSpec(edit: (vm: string, index: number) => string, header = ""): string {
  const vms = Array.from({ length: VMS }, (_, i) =>
    edit(articleVmYaml(`vm-${String(i + 1).padStart(4, "0")}`, 1000 + i, `pve${(i % 3) + 1}`), i),
  );
  return `version: 1\n${header}vms:${vms.join("")}\n`;
}

/** The 1-based line of the first line containing `needle` at or after the line containing `after`. */
function lineOf(text: string, after: string, needle: string): number {
  const from = text.indexOf(after);
  assert.ok(from >= 0, `no ${after}`);
  return text.slice(0, text.indexOf(needle, from)).split("\n").length;
}

function issuesOf(text: string): string[] {
  try {
    parseSpec(text, "big.yaml");
  } catch (err) {
    assert.ok(err instanceof SpecError, String(err));
    return err.issues.map((i) => `${i.location?.line}:${i.location?.column}: ${i.message}`);
  }
  assert.fail("the spec was accepted");
}

describe("a 3,000-VM spec", () => {
  // VM 2,999 has a bad core count and a misspelt key; VM 3,000 repeats VM 1's vmid.
  const text = largeSpec((vm, i) => {
    if (i === 2998) return vm.replace("cores: 2", "cores: many").replace("onboot: true", "onbot: true");
    if (i === 2999) return vm.replace("vmid: 3999", "vmid: 1000");
    return vm;
  });

  it("is read by the fast path and names the lines of problems in VM 2,999 and 3,000", () => {
    assert.ok(parseFastYaml(text), "the benchmark's spec shape must take the fast path");
    const issues = issuesOf(text);
    const cores = lineOf(text, "name: vm-2999", "cores: many");
    const onbot = lineOf(text, "name: vm-2999", "onbot: true");
    const vmid = lineOf(text, "name: vm-3000", "vmid: 1000");
    assert.equal(issues.length, 3, issues.join("\n"));
    assert.match(issues[0] ?? "", new RegExp(`^${cores}:12: .*number`));
    assert.match(issues[1] ?? "", new RegExp(`^${onbot}:5: unknown key \`onbot\`; did you mean \`onboot\`\\?`));
    assert.match(
      issues[2] ?? "",
      new RegExp(`^${vmid}:11: vmid 1000 is declared twice: here \\(vm-3000\\) and at big.yaml:3:5 \\(vm-0001\\)`),
    );
    assert.ok(cores > 60_000, `line ${cores}: the error is deep in the file`);
  });

  it("gives the same problems when the yaml library reads it", () => {
    const viaLibrary = text.replace("version: 1\n", "version: 1\nx-anchor: &a 1\n");
    assert.equal(parseFastYaml(viaLibrary), undefined);
    const shifted = issuesOf(text).map((issue) =>
      issue.replace(/^(\d+)/, (line) => String(Number(line) + 1)).replace("big.yaml:3:5", "big.yaml:4:5"),
    );
    assert.deepEqual(issuesOf(viaLibrary), shifted);
  });
});
