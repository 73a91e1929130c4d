import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan } from "../../src/engine/plan.js";
import {
  checkSpecFiles,
  loadPlan,
  MAX_SAVED_PLAN_BYTES,
  SAVED_PLAN_FORMAT,
  type SavedPlan,
  SavedPlanError,
  type SavedPlanOptions,
  savedPlanContent,
  savePlan,
} from "../../src/engine/saved-plan.js";
import { verifySavedPlan } from "../../src/engine/saved-plan-verify.js";
import { ChangedSincePlanError } from "../../src/engine/errors.js";
import { startSimulator } from "../../src/sim/index.js";
import { PVECTL_VERSION } from "../../src/version.js";
import { clientAs, desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const SPEC = (memory: string) => `
vms:
  - vmid: 220
    name: saved1
    node: pve1
    memory: ${memory}
    disks:
      scsi0: { storage: local-lvm, size: 2G }
`;

const OPTIONS: SavedPlanOptions = { shutdownTimeoutSeconds: 120, forceStop: false, adopt: false };

describe("saved plans", () => {
  let lab: Lab;
  let dir: string;
  let n = 0;

  /** Writes the spec to a file, plans it and saves the plan; returns the plan file. */
  async function save(spec: string): Promise<{ file: string; specFile: string }> {
    n += 1;
    const specFile = join(dir, `spec${n}.yaml`);
    const file = join(dir, `plan${n}.json`);
    writeFileSync(specFile, spec);
    const built = await buildPlan(lab.client, desired(spec), OPTIONS);
    await savePlan(file, await savedPlanContent(lab.client, built, [specFile], OPTIONS, undefined));
    return { file, specFile };
  }

  function edit(file: string, change: (saved: SavedPlan) => void): void {
    const saved = JSON.parse(readFileSync(file, "utf8")) as SavedPlan;
    change(saved);
    writeFileSync(file, JSON.stringify(saved));
  }

  async function problemsOf(file: string, spec: string): Promise<string[]> {
    return (await verifySavedPlan(lab.client, await loadPlan(file), desired(spec))).problems;
  }

  before(async () => {
    lab = await startLab();
    dir = mkdtempSync(join(tmpdir(), "pvectl-plan-"));
    const { plan } = await buildPlan(lab.client, desired(SPEC("512")));
    assert.equal((await applyPlan(lab.client, plan, fastApply)).ok, true);
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await lab.close();
  });

  it("records the version, the spec files' SHA-256, the options and the cluster", async () => {
    const { file, specFile } = await save(SPEC("1024"));
    const saved = await loadPlan(file);
    assert.equal(saved.pvectlVersion, PVECTL_VERSION);
    assert.deepEqual(
      saved.specFiles.map((f) => f.path),
      [specFile],
    );
    assert.match(saved.specFiles[0]!.sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(saved.options, OPTIONS);
    assert.deepEqual(saved.cluster, { name: "simcluster", nodes: ["pve1", "pve2", "pve3"] });
    assert.equal(saved.plan.target, lab.client.origin);
    assert.match(saved.plan.target, /^http:\/\/127\.0\.0\.1:\d+$/, "the target is a full origin with its scheme");
  });

  it("applies the recomputed plan when the saved one equals it", async () => {
    const { file } = await save(SPEC("1024"));
    const { problems, plan } = await verifySavedPlan(lab.client, await loadPlan(file), desired(SPEC("1024")));
    assert.deepEqual(problems, []);
    const report = await applyPlan(lab.client, plan, fastApply);
    assert.equal(report.guests[0]!.result, "changed");
  });

  it("a plan that creates guests (one without a vmid, with a NIC and a cloud-init user) recomputes equal", async () => {
    const spec = `${SPEC("768")}  - name: fresh1
    node: pve2
    memory: 256
    nics: { net0: { bridge: vmbr0 } }
    cloudInit: { storage: local-lvm, user: ops }
`;
    const { file } = await save(spec);
    const { problems, plan } = await verifySavedPlan(lab.client, await loadPlan(file), desired(spec));
    assert.deepEqual(problems, []);
    assert.deepEqual(
      plan.guests.map((g) => [g.key, g.exists, g.steps[0]?.action]),
      [
        ["saved1", true, "config"],
        ["fresh1", false, "create"],
      ],
    );
  });

  it("refuses a saved plan when the guest's config digest changed since", async () => {
    const { file } = await save(SPEC("2048"));
    await lab.client.request("PUT", "/nodes/pve1/qemu/220/config", { description: "changed by someone else" });
    const problems = await problemsOf(file, SPEC("2048"));
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /^saved1 \(vmid 220\) changed since the plan \(config digest [0-9a-f]{12} is now [0-9a-f]{12}\)$/);
    assert.match(new SavedPlanError(file, problems).userMessage(), /Run `pvectl plan --out FILE` again/);
  });

  it("refuses edited parameters, an added step and a relabelled severity, naming the step", async () => {
    const { file } = await save(SPEC("3072"));
    edit(file, (s) => {
      s.plan.guests[0]!.steps[0]!.calls[0]!.body.memory = 16384;
    });
    assert.deepEqual(await problemsOf(file, SPEC("3072")), [
      "saved1: step saved1/1-config differs from the recomputed plan in calls[0].body.memory (saved 16384, recomputed 3072)",
    ]);

    const again = await save(SPEC("3072"));
    edit(again.file, (s) => {
      s.plan.guests[0]!.steps[0]!.severity = "read-only";
    });
    assert.deepEqual(await problemsOf(again.file, SPEC("3072")), [
      "saved1: step saved1/1-config differs from the recomputed plan in severity (saved read-only, recomputed configuration)",
    ]);

    const third = await save(SPEC("3072"));
    edit(third.file, (s) => {
      const guest = s.plan.guests[0]!;
      guest.steps.push({
        ...guest.steps[0]!,
        id: "saved1/2-destroy",
        action: "destroy",
        calls: [
          {
            method: "DELETE",
            endpoint: "/nodes/{node}/qemu/{vmid}",
            pathParams: { node: "pve1", vmid: 220 },
            body: {},
            intent: { kind: "qemu", op: "destroy" },
          },
        ],
      });
    });
    assert.deepEqual(await problemsOf(third.file, SPEC("3072")), ["saved1: step saved1/2-destroy (destroy) is not in the recomputed plan"]);
  });

  it("refuses a plan whose spec file changed since, naming the file", async () => {
    const { file, specFile } = await save(SPEC("1536"));
    assert.deepEqual(await checkSpecFiles((await loadPlan(file)).specFiles), []);
    writeFileSync(specFile, SPEC("1536").replace("saved1", "saved2"));
    assert.deepEqual(await checkSpecFiles((await loadPlan(file)).specFiles), [
      `the spec file ${specFile} changed since the plan was made (its SHA-256 differs)`,
    ]);
  });

  it("refuses a plan made by another version or in the old format", async () => {
    const { file } = await save(SPEC("1536"));
    edit(file, (s) => {
      s.pvectlVersion = "0.0.9";
    });
    await assert.rejects(loadPlan(file), (err: SavedPlanError) => {
      assert.deepEqual(err.problems, [`it was made by pvectl 0.0.9; this is pvectl ${PVECTL_VERSION}, which applies only its own plans`]);
      return true;
    });
    edit(file, (s) => {
      s.pvectlVersion = "\u001b]0;owned\u0007 1.0";
    });
    await assert.rejects(loadPlan(file), (err: SavedPlanError) => {
      assert.match(
        err.userMessage(),
        /made by pvectl \\x1b\]0;owned\\x07 1\.0;/,
        "escape sequences from the file are shown, not sent to the terminal",
      );
      assert.ok(![...err.userMessage()].some((c) => c < " " && c !== "\n"), "no control character but newlines");
      return true;
    });
    writeFileSync(file, JSON.stringify({ format: SAVED_PLAN_FORMAT, specFiles: ["a.yaml"], plan: { guests: [] } }));
    await assert.rejects(loadPlan(file), /it was made by an older pvectl; this is pvectl/);
  });

  it("refuses a plan saved in the format before typed calls (2), saying to run plan again", async () => {
    // What pvectl wrote before calls were typed: a path with `{vmid}`, a body value with `{volume:SLOT}`.
    const { file } = await save(SPEC("1536"));
    edit(file, (s) => {
      (s as { format: string }).format = "pvectl-saved-plan/2";
      const call = s.plan.guests[0]!.steps[0]!.calls[0]! as unknown as Record<string, unknown>;
      for (const key of ["endpoint", "pathParams", "body"]) delete call[key];
      Object.assign(call, { path: "/nodes/pve1/qemu/{vmid}/config", params: { scsi0: "{volume:scsi0},cache=writeback" } });
    });
    await assert.rejects(loadPlan(file), (err: SavedPlanError) => {
      assert.equal(err.problems.length, 1);
      assert.match(
        err.problems[0]!,
        /saved-plan format 2, which this pvectl .* no longer reads \(it reads format 3\); nothing was applied/,
      );
      assert.match(err.problems[0]!, /run `pvectl plan --out FILE` again/);
      return true;
    });
  });

  it("says what is wrong with a file that is not a plan, a truncated one, and a malformed one", async () => {
    await assert.rejects(loadPlan(join(dir, "missing.json")), (err: SavedPlanError) => {
      assert.match(err.userMessage(), /^the saved plan .*missing\.json cannot be applied:\n {2}- no such file\n/);
      return true;
    });
    const { file } = await save(SPEC("1536"));
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.slice(0, text.length / 2));
    await assert.rejects(loadPlan(file), (err: SavedPlanError) => {
      assert.deepEqual(err.problems, ["not a JSON plan file (it may be truncated or edited by hand)"]);
      return true;
    });
    writeFileSync(file, "[1, 2, 3]");
    await assert.rejects(loadPlan(file), /not a pvectl saved plan/);
    writeFileSync(file, Buffer.alloc(MAX_SAVED_PLAN_BYTES + 1, 0x20));
    await assert.rejects(loadPlan(file), (err: SavedPlanError) => {
      assert.deepEqual(err.problems, [`it has ${MAX_SAVED_PLAN_BYTES + 1} bytes, more than the 64 MiB a saved plan may have`]);
      return true;
    });
    writeFileSync(file, "[1, 2, 3]");
    await assert.rejects(loadPlan(file), /not a pvectl saved plan/);
    const broken = JSON.parse(text) as SavedPlan;
    (broken.plan.guests[0]!.steps[0] as unknown as Record<string, unknown>).severity = "harmless";
    (broken.plan.guests[0] as unknown as Record<string, unknown>).steps = [broken.plan.guests[0]!.steps[0], "rm -rf"];
    writeFileSync(file, JSON.stringify(broken));
    await assert.rejects(loadPlan(file), (err: SavedPlanError) => {
      assert.equal(err.problems[0], "it is not a well-formed saved plan:");
      assert.match(err.problems[1]!, /^ {2}plan\.guests\.0\.steps\.0\.severity: /);
      assert.match(err.problems[2]!, /^ {2}plan\.guests\.0\.steps\.1: /);
      return true;
    });
  });

  it("a guest the spec no longer plans, or a new one, is a difference", async () => {
    const { file } = await save(SPEC("1536"));
    const other = `${SPEC("1536")}  - { vmid: 221, name: saved3, node: pve1 }\n`;
    assert.deepEqual(await problemsOf(file, other), ["saved3 is in the spec's plan but not in the saved plan"]);
  });
});

describe("saved plans and the cluster's identity", () => {
  it("works for a user who may not read /cluster/status (no cluster name recorded)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pvectl-plan-id-"));
    const lab = await startLab({
      config: {
        access: {
          users: [{ userid: "deploy@pve", password: "deploy123" }],
          acl: [{ path: "/vms", roles: ["PVEVMAdmin"], users: ["deploy@pve"] }],
        },
      },
    });
    const deploy = clientAs(lab, "deploy@pve", "deploy123");
    try {
      await assert.rejects(deploy.request("GET", "/cluster/status"), /Permission check failed/);
      const file = join(dir, "plan.json");
      writeFileSync(join(dir, "s.yaml"), SPEC("512"));
      const built = await buildPlan(deploy, desired(SPEC("512")), OPTIONS);
      await savePlan(file, await savedPlanContent(deploy, built, [join(dir, "s.yaml")], OPTIONS, undefined));
      const saved = await loadPlan(file);
      assert.equal(saved.cluster.name, undefined);
      assert.deepEqual((await verifySavedPlan(deploy, saved, desired(SPEC("512")))).problems, []);
    } finally {
      await deploy.close();
      await lab.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a plan made for another cluster at the same address", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pvectl-plan-id-"));
    const first = await startLab();
    const port = first.sim.port;
    const file = join(dir, "plan.json");
    writeFileSync(join(dir, "s.yaml"), SPEC("512"));
    const built = await buildPlan(first.client, desired(SPEC("512")), OPTIONS);
    await savePlan(file, await savedPlanContent(first.client, built, [join(dir, "s.yaml")], OPTIONS, undefined));
    await first.close();
    // Another cluster now answers at the same address (a rebuilt lab, a DNS change).
    const second = await startSimulator({ port, https: false, seed: 8, config: { name: "othercluster" } });
    const client = new PveClient({ host: "127.0.0.1", port, protocol: "http", user: "root@pam", password: second.rootPassword });
    try {
      const { problems } = await verifySavedPlan(client, await loadPlan(file), desired(SPEC("512")));
      assert.deepEqual(problems, ["it was made for cluster simcluster, but the endpoint now belongs to cluster othercluster"]);
      assert.equal(built.plan.target, client.origin);
    } finally {
      await client.close();
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

it("PVE itself refuses the first write when the digest changed between the check and the write", async () => {
  const lab = await startLab();
  try {
    assert.equal((await applyPlan(lab.client, (await buildPlan(lab.client, desired(SPEC("512")))).plan, fastApply)).ok, true);
    const { plan } = await buildPlan(lab.client, desired(SPEC("4096")));
    await lab.client.request("PUT", "/nodes/pve1/qemu/220/config", { description: "changed again" });
    const report = await applyPlan(lab.client, plan, fastApply);
    const guest = report.guests[0]!;
    assert.equal(guest.result, "failed");
    assert.equal(guest.error, `change memory: ${new ChangedSincePlanError("saved1").message}`);
    const config = (await lab.client.request("GET", "/nodes/pve1/qemu/220/config")) as { memory: string | number };
    assert.equal(String(config.memory), "512", "the stale plan changed nothing");
  } finally {
    await lab.close();
  }
});
