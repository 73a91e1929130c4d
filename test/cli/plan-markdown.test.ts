// `pvectl plan --format markdown`: a table of guests and collapsible details, under the target,
// that a hostile name or value cannot break out of (table, code, HTML, links, mentions).
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { renderPlanMarkdown } from "../../src/cli/render/plan-markdown.js";
import type { Plan } from "../../src/plan/types.js";
import type { RunningSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

const HOSTILE = "a|b`c` <img src=x onerror=alert(1)> **x** [l](https://evil.example) @octocat \x1b]0;pwn\x07\r\n| x |";

function plan(): Plan {
  return {
    format: "pvectl-plan/1",
    createdAt: "2026-12-02T10:00:00.000Z",
    target: "https://pve:8006",
    preflightErrors: [{ kind: "storage", message: `storage ${HOSTILE} does not exist`, guest: "web1" }],
    guests: [
      {
        key: "web1",
        name: "web1",
        vmid: 201,
        node: "pve1",
        exists: true,
        digest: "d",
        errors: [],
        warnings: [`warn ${HOSTILE}`],
        steps: [
          {
            id: "1",
            action: "config",
            severity: "configuration",
            summary: "change description",
            calls: [],
            changes: [{ field: "description", before: HOSTILE, after: "clean" }],
          },
          {
            id: "2",
            action: "disk-delete",
            severity: "data-loss-risk",
            summary: "delete scsi1",
            calls: [],
            changes: [],
            deletesVolumes: ["local-lvm:vm-201-disk-1"],
          },
        ],
      },
      { key: "db1", name: "db1", vmid: 301, node: "pve3", exists: true, errors: [], warnings: [], steps: [] },
    ],
  } as unknown as Plan;
}

describe("plan --format markdown", () => {
  it("starts with the target, has one table row per guest and one <details> per guest with something to show", () => {
    const md = renderPlanMarkdown(plan());
    const lines = md.split("\n");
    assert.equal(lines[0], "### pvectl plan for <code>https&#58;&#47;&#47;pve&#58;8006</code>");
    assert.ok(lines.includes("| ~ | <code>web1</code> | 201 | <code>pve1</code> | 2 | **data-loss-risk** |"), md);
    assert.ok(lines.includes("| = | <code>db1</code> | 301 | <code>pve3</code> | 0 | no changes |"), md);
    assert.equal(md.match(/<details>/g)?.length, 1);
    assert.equal(md.match(/<\/details>/g)?.length, 1);
    assert.match(md, /- delete scsi1 — \*\*data-loss-risk\*\*\n {2}- destroys volume <code>local-lvm&#58;vm-201-disk-1<\/code>/);
  });

  it("a hostile value cannot break the table or inject HTML, links, mentions or terminal escapes", () => {
    const md = renderPlanMarkdown(plan());
    for (const row of md.split("\n").filter((l) => l.startsWith("|"))) {
      assert.equal(row.replace(/\\\|/g, "").split("|").length, 8, `a table row keeps its 6 cells: ${row}`);
    }
    assert.doesNotMatch(md, /<img|onerror=alert\(/);
    assert.doesNotMatch(md, /`/);
    assert.doesNotMatch(md, /@octocat|:\/\/evil|\]\(/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
    assert.doesNotMatch(md, /[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    const html = ["<details>", "</details>", "<summary>", "</summary>", "<code>", "</code>", "<sub>", "</sub>"];
    const tags = md.match(/<\/?[a-z]+[^>]*>/g) ?? [];
    assert.deepEqual([...new Set(tags.filter((t) => !html.includes(t)))], [], "only pvectl's own HTML tags");
    // The value is still there, readable once rendered (entities are shown as the characters).
    assert.match(md, /a&#124;b&#96;c&#96; &#60;img src&#61;x onerror&#61;alert&#40;1&#41;&#62;/);
  });

  describe("through the CLI", () => {
    let lab: CliLab;
    let sim: RunningSimulator;
    let dir: string;
    let spec: string;
    before(async () => {
      lab = await startCliLab("md", { seed: 14 });
      ({ sim, dir } = lab);
      spec = join(dir, "web.yaml");
      writeFileSync(spec, "vms:\n  - vmid: 260\n    name: md1\n    node: pve1\n    memory: 512\n");
    });
    after(async () => {
      await lab.close();
    });

    it("prints the markdown plan, saves the plan with --out, and keeps --detailed-exitcode", async () => {
      const out = join(dir, "plan.json");
      const result = await pvectl(["plan", "-f", spec, "--format", "markdown", "--out", out, "--detailed-exitcode"], simEnv(sim));
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stdout, new RegExp(`^### pvectl plan for <code>https&#58;&#47;&#47;127.0.0.1&#58;${sim.port}</code>\n`));
      assert.match(result.stdout, /\| \+ \| <code>md1<\/code> \| 260 \| <code>pve1<\/code> \| 1 \| configuration \|/);
      assert.match(result.stderr, /Saved to .*plan\.json/);
    });

    it("the text plan starts with the target too", async () => {
      const result = await pvectl(["plan", "-f", spec], simEnv(sim));
      assert.match(result.stdout, new RegExp(`^Target: https://127\\.0\\.0\\.1:${sim.port}\n`));
    });

    it("--format json is --json; contradicting or unknown formats are usage errors", async () => {
      const json = await pvectl(["plan", "-f", spec, "--format", "json"], simEnv(sim));
      assert.equal(json.code, 0, json.stderr);
      assert.equal((JSON.parse(json.stdout) as { target: string }).target, `https://127.0.0.1:${sim.port}`);
      const both = await pvectl(["plan", "-f", spec, "--json", "--format", "markdown"], simEnv(sim));
      assert.equal(both.code, 1);
      assert.match(both.stderr, /--json and --format markdown contradict each other/);
      const unknown = await pvectl(["plan", "-f", spec, "--format", "yaml"], simEnv(sim));
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /--format yaml is not a plan format/);
    });
  });
});
