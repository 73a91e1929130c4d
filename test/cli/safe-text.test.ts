// Control characters from the cluster or a spec (ANSI/OSC escapes, \r, C1) never reach the
// terminal raw: plans, reports, progress lines and errors show them as visible escapes.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { OWNERSHIP_TAG } from "../../src/resources/qemu/model.js";
import type { ApplyReport } from "../../src/engine/report.js";
import type { Plan } from "../../src/plan/types.js";
import { colourPalette, renderPlan } from "../../src/cli/render/plan.js";
import { progressLine, renderReport } from "../../src/cli/render/report.js";
import { safeLine, safeText } from "../../src/util/safe-text.js";
import { syncLine } from "../../src/cli/commands/netbox.js";
import { renderError } from "../../src/cli/render-error.js";
import type { RunningSimulator } from "../../src/sim/index.js";
import { ConnectionError } from "../../src/sources/connections.js";
import { pvectl, simEnv } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

const OSC_TITLE = "\x1b]0;pwn\x07";
const CLEAR = "\x1b[2J";
const HOSTILE = `${OSC_TITLE}web${CLEAR}\r\x9b`;
/** What may reach a terminal besides text: newlines, tabs, and pvectl's own SGR colour codes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
const withoutColour = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");

function hostilePlan(): Plan {
  const step = { action: "config", severity: "configuration", calls: [] };
  return {
    format: "pvectl-plan/1",
    createdAt: "2026-12-02T10:00:00.000Z",
    target: "https://pve:8006",
    preflightErrors: [{ message: `storage ${HOSTILE} is missing`, guest: HOSTILE }],
    guests: [
      {
        key: HOSTILE,
        name: HOSTILE,
        vmid: 201,
        node: "pve1",
        exists: true,
        digest: "d",
        errors: [`bad ${HOSTILE}`],
        warnings: [`warn ${HOSTILE}`],
        steps: [
          {
            ...step,
            id: "1",
            summary: `rename to ${HOSTILE}`,
            changes: [{ field: "name", before: HOSTILE, after: `${CLEAR}x` }],
            deletesVolumes: [HOSTILE],
          },
        ],
      },
    ],
  } as unknown as Plan;
}

describe("control characters in human output", () => {
  it("safeText escapes OSC, CSI, CR and C1 but keeps newlines; safeLine escapes newlines too", () => {
    assert.equal(safeText(`a${OSC_TITLE}b\n${CLEAR}\r\x9b`), "a\\x1b]0;pwn\\x07b\n\\x1b[2J\\r\\x9b");
    assert.equal(safeLine("a\nb\tc\u202e"), "a\\nb\\tc\\u202e");
  });

  it("a plan with a hostile name, values and messages has no raw control character, even in colour", () => {
    const text = renderPlan(hostilePlan(), colourPalette);
    assert.doesNotMatch(withoutColour(text), RAW_CONTROL);
    assert.match(withoutColour(text), /\\x1b\]0;pwn\\x07web\\x1b\[2J\\r\\x9b \(vmid 201\)/);
  });

  it("the apply report and the progress lines escape them too", () => {
    const report = {
      ok: false,
      elapsedSeconds: 1,
      guests: [
        {
          key: HOSTILE,
          result: "failed",
          vmid: 201,
          node: "pve1",
          macs: { net0: HOSTILE },
          volumes: {},
          warnings: [HOSTILE],
          pending: [HOSTILE],
          error: `x${HOSTILE}\nmore ${CLEAR}`,
        },
      ],
    } as unknown as ApplyReport;
    assert.doesNotMatch(renderReport(report), RAW_CONTROL);
    const guest = hostilePlan().guests[0]!;
    const step = guest.steps[0]!;
    for (const event of [
      { type: "step-start", guest, step },
      { type: "step-failed", guest, step, error: HOSTILE },
      { type: "step-skipped", guest, step, reason: HOSTILE },
      { type: "retry", guest, step, attempt: 1, delayMs: 5, reason: HOSTILE },
    ]) {
      assert.doesNotMatch(progressLine(event as never) ?? "", RAW_CONTROL, event.type);
    }
  });

  it("NetBox sync lines escape a hostile record name and error", () => {
    for (const result of ["failed", "planned", "staged", "changed"]) {
      const outcome = {
        name: HOSTILE,
        id: 7,
        result,
        errors: [HOSTILE],
        changes: [`name web -> ${HOSTILE}`],
        status: "planned",
        vmid: 300,
        node: "pve1",
        guestResult: "created",
        wrote: [],
      };
      assert.doesNotMatch(withoutColour(syncLine(outcome as never, colourPalette)), RAW_CONTROL, result);
    }
  });

  it("errors are escaped", () => {
    assert.equal(renderError(new Error(`no guest ${OSC_TITLE}`)), "error: no guest \\x1b]0;pwn\\x07");
    assert.equal(renderError(new ConnectionError(`x${CLEAR}`)), "error: x\\x1b[2J");
  });

  describe("through the CLI", () => {
    let lab: CliLab;
    let sim: RunningSimulator;
    let dir: string;
    before(async () => {
      lab = await startCliLab("safe", { seed: 12 });
      ({ sim, dir } = lab);
      const client = new PveClient({
        host: "127.0.0.1",
        port: sim.port,
        user: "root@pam",
        password: sim.rootPassword,
        fingerprint: sim.fingerprint as string,
      });
      try {
        const upid = await client.request("POST", "/nodes/pve1/qemu", {
          vmid: 310,
          name: "web1",
          memory: 512,
          tags: OWNERSHIP_TAG,
          description: `hi${OSC_TITLE}${CLEAR}`,
        });
        await client.waitForTask(String(upid));
      } finally {
        await client.close();
      }
    });
    after(async () => {
      await lab.close();
    });

    it("plan shows a hostile live description escaped", async () => {
      const spec = join(dir, "web.yaml");
      writeFileSync(spec, "vms:\n  - vmid: 310\n    name: web1\n    node: pve1\n    description: clean\n");
      const result = await pvectl(["plan", "-f", spec], simEnv(sim));
      assert.doesNotMatch(result.stdout + result.stderr, RAW_CONTROL);
      assert.match(result.stdout + result.stderr, /hi\\x1b\]0;pwn\\x07\\x1b\[2J/);
    });

    it("a spec error quoting a hostile name is escaped", async () => {
      const spec = join(dir, "bad.yaml");
      writeFileSync(spec, `vms:\n  - name: "web\\e]0;pwn\\a\\e[2J"\n    node: pve1\n`);
      const result = await pvectl(["plan", "-f", spec], simEnv(sim));
      assert.equal(result.code, 1);
      assert.doesNotMatch(result.stdout + result.stderr, RAW_CONTROL);
      assert.match(result.stderr, /\\x1b\]0;pwn\\x07/);
    });
  });
});
