// `pvectl inventory --graph` lays out groups as Ansible's loader does: groups in the order
// the JSON gives them, nested children, parentless groups under all, ungrouped hosts.
// (The expected trees are what Debian's ansible-inventory 2.14 printed for this JSON.)
import assert from "node:assert/strict";
import { test } from "node:test";
import { renderGraph } from "../../src/inventory/graph.js";
import type { AnsibleInventory } from "../../src/inventory/model.js";

test("the graph nests children, keeps the JSON's order and puts hosts of `all` only in ungrouped", () => {
  const inventory = {
    _meta: { hostvars: {} },
    zeta: { hosts: ["h2", "h1"] },
    by_tag: { children: ["tag_web"] },
    tag_web: { hosts: ["h1"] },
    all: { hosts: ["lonely"], children: ["ungrouped", "zeta"] },
  } as AnsibleInventory;
  assert.equal(
    renderGraph(inventory),
    [
      "@all:",
      "  |--@ungrouped:",
      "  |  |--lonely",
      "  |--@zeta:",
      "  |  |--h2",
      "  |  |--h1",
      "  |--@by_tag:",
      "  |  |--@tag_web:",
      "  |  |  |--h1",
    ].join("\n"),
  );
  assert.equal(renderGraph(inventory, "by_tag"), ["@by_tag:", "  |--@tag_web:", "  |  |--h1"].join("\n"));
  assert.equal(renderGraph(inventory, "nope"), undefined);
});
