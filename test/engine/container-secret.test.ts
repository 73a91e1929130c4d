// A container's root password is a reference in the plan (`password: (from env NAME)`): its
// value is never in a plan, a saved plan, the rendered plan, the report or progress events,
// and PVE receives it when the create call is sent.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { applyPlan as applyThroughApp, secretResolver } from "../../src/app/apply-plan.js";
import { renderPlan } from "../../src/cli/render/plan.js";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan } from "../../src/engine/plan.js";
import { savePlan } from "../../src/engine/saved-plan.js";
import type { DesiredCt, SecretRef } from "../../src/resources/lxc/model.js";
import { fastApply, type Lab, startLab } from "../support/engine-lab.js";

const GIB = 1024 ** 3;
const PASSWORD = "correct-Horse-battery-9";

function ct(vmid: number, password: SecretRef): DesiredCt {
  return {
    kind: "lxc",
    key: `sec${vmid}`,
    name: `sec${vmid}`,
    vmid,
    node: "pve1",
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
    options: {},
    mounts: [{ slot: "rootfs", storage: "local-lvm", sizeBytes: 1 * GIB, options: {} }],
    nics: [],
    password,
  };
}

describe("a container's root password", () => {
  let lab: Lab;
  let dir: string;
  /** The parameters of every create call the client sent. */
  const sent: Array<Record<string, unknown>> = [];
  before(async () => {
    lab = await startLab();
    dir = await mkdtemp(join(tmpdir(), "pvectl-secret-"));
    const request = lab.client.request.bind(lab.client);
    lab.client.request = (async (method: string, path: string, params?: Record<string, unknown>) => {
      if (method === "POST" && path === "/nodes/pve1/lxc") sent.push({ ...params });
      return request(method as never, path as never, params as never);
    }) as typeof lab.client.request;
  });
  after(async () => {
    await lab.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("stays out of the plan, the saved plan, the rendered plan, the report and events, and reaches PVE", async () => {
    const { plan } = await buildPlan(lab.client, [ct(330, { env: "PVE_CT_ROOT_PASSWORD" })]);
    const rendered = renderPlan(plan);
    assert.match(rendered, /\(from env PVE_CT_ROOT_PASSWORD\)/);
    const file = join(dir, "plan.json");
    await savePlan(file, {
      specFiles: [],
      options: { shutdownTimeoutSeconds: 60, forceStop: false, adopt: false },
      cluster: { nodes: ["pve1"] },
      plan,
    });
    const events: unknown[] = [];
    const resolveSecret = secretResolver(undefined, { PVE_CT_ROOT_PASSWORD: PASSWORD });
    const report = await applyPlan(lab.client, plan, { ...fastApply, resolveSecret, onEvent: (e) => events.push(e) });
    assert.equal(report.guests[0]!.result, "created", JSON.stringify(report.guests[0]));
    assert.equal(sent.at(-1)!.password, PASSWORD, "PVE receives the password");
    for (const [what, text] of [
      ["plan JSON", JSON.stringify(plan)],
      ["saved plan", await readFile(file, "utf8")],
      ["rendered plan", rendered],
      ["report", JSON.stringify(report)],
      ["events", JSON.stringify(events)],
    ] as const) {
      assert.ok(!text.includes(PASSWORD), `the password is not in the ${what}`);
    }
  });

  it("pvectl apply's resolver names a variable that is not set", async () => {
    const { plan, context } = await buildPlan(lab.client, [ct(333, { env: "PVE_CT_ROOT_PASSWORD_UNSET" })]);
    delete process.env.PVE_CT_ROOT_PASSWORD_UNSET;
    const report = await applyThroughApp(lab.client, { plan, desired: [], context }, fastApply);
    assert.equal(report.guests[0]!.result, "failed");
    assert.match(report.guests[0]!.error ?? "", /environment variable PVE_CT_ROOT_PASSWORD_UNSET is not set/);
  });

  it("reads a password file without its final newline", async () => {
    const file = join(dir, "root.pw");
    await writeFile(file, `${PASSWORD}\n`);
    const { plan } = await buildPlan(lab.client, [ct(331, { file })]);
    assert.ok(JSON.stringify(plan).includes(`(from file ${file})`));
    const report = await applyPlan(lab.client, plan, { ...fastApply, resolveSecret: secretResolver() });
    assert.equal(report.guests[0]!.result, "created", JSON.stringify(report.guests[0]));
    assert.equal(sent.at(-1)!.password, PASSWORD);
  });

  it("fails the create with a clear error, and no value, when apply has no way to read secrets", async () => {
    const { plan } = await buildPlan(lab.client, [ct(332, { env: "PVE_CT_ROOT_PASSWORD" })]);
    const report = await applyPlan(lab.client, plan, fastApply);
    assert.equal(report.guests[0]!.result, "failed");
    assert.match(
      report.guests[0]!.error ?? "",
      /password comes from environment variable PVE_CT_ROOT_PASSWORD, but this apply was given no way to read secrets/,
    );
  });
});
