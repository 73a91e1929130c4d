// The objects section of a plan (backup jobs) in text and Markdown: created, changed, deleted
// and foreign jobs each said so, with severities and field changes, and in the summary.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderPlanMarkdown } from "../../src/cli/render/plan-markdown.js";
import { renderPlan } from "../../src/cli/render/plan.js";
import type { ObjectPlan, Plan } from "../../src/plan/types.js";

const intent = (op: "object-create" | "object-update" | "object-delete", key: string) => ({
  kind: "object" as const,
  object: "backup-job" as const,
  op,
  key,
});

const objects: ObjectPlan[] = [
  {
    kind: "backup-job",
    key: "nightly",
    exists: false,
    steps: [
      {
        id: "backup-job:nightly/1-object-create",
        action: "object-create",
        severity: "configuration",
        summary: "create backup job nightly",
        changes: [{ field: "schedule", after: "mon..fri 02:30" }],
        calls: [
          {
            method: "POST",
            endpoint: "/cluster/backup",
            pathParams: {},
            body: { id: "nightly" },
            intent: intent("object-create", "nightly"),
          },
        ],
      },
    ],
    errors: [],
    warnings: [],
  },
  {
    kind: "backup-job",
    key: "weekly",
    exists: true,
    steps: [
      {
        id: "backup-job:weekly/1-object-update",
        action: "object-update",
        severity: "configuration",
        summary: "update backup job weekly",
        changes: [{ field: "mode", before: "stop", after: "snapshot" }],
        calls: [
          {
            method: "PUT",
            endpoint: "/cluster/backup/{id}",
            pathParams: { id: "weekly" },
            body: { mode: "snapshot" },
            intent: intent("object-update", "weekly"),
          },
        ],
      },
    ],
    errors: [],
    warnings: [],
  },
  {
    kind: "backup-job",
    key: "old",
    exists: true,
    steps: [
      {
        id: "backup-job:old/1-object-delete",
        action: "object-delete",
        severity: "service-impact",
        summary: "delete backup job old",
        changes: [],
        calls: [
          {
            method: "DELETE",
            endpoint: "/cluster/backup/{id}",
            pathParams: { id: "old" },
            body: {},
            intent: intent("object-delete", "old"),
          },
        ],
      },
    ],
    errors: [],
    warnings: [],
  },
  { kind: "backup-job", key: "theirs", exists: true, foreign: true, steps: [], errors: [], warnings: [] },
];

const plan: Plan = {
  format: "pvectl-plan/1",
  createdAt: "2026-12-03T00:00:00Z",
  target: "https://pve:8006",
  guests: [],
  objects,
  preflightErrors: [],
};

describe("the objects section of a plan", () => {
  it("renders each job with its marker, steps, changes and severities, and counts them", () => {
    const text = renderPlan(plan);
    assert.match(text, /^\+ backup job nightly\n {4}create backup job nightly {2}\[configuration\]\n {8}schedule: mon\.\.fri 02:30$/m);
    assert.match(text, /^~ backup job weekly\n.*\n {8}mode: stop -> snapshot$/m);
    assert.match(text, /^- backup job old\n {4}delete backup job old {2}\[service-impact\]$/m);
    assert.match(text, /^= backup job theirs: not managed \(no pvectl marker in its comment; left alone\)$/m);
    assert.match(text, /^Objects: 1 to create, 1 to change, 1 to delete, 0 unchanged, 1 not managed\.$/m);
    assert.match(text, /^Steps by severity: 2 configuration, 1 service-impact\.$/m);
  });

  it("renders a Markdown table and details", () => {
    const md = renderPlanMarkdown(plan);
    assert.match(md, /\| - \| backup-job \| <code>old<\/code> \| 1 \| service-impact \|/);
    assert.match(md, /\| = \| backup-job \| <code>theirs<\/code> \| 0 \| not managed/);
    assert.match(md, /<details><summary>~ backup-job <code>weekly<\/code><\/summary>/);
  });
});
