// `pvectl demo`: the README's main job in one command. Starts the PVE API simulator in-process
// (HTTPS, its certificate pinned by fingerprint), plans and applies the example specs
// (examples/*.yaml that use the default connection), prints plan, progress and result, shows
// that a second plan is empty, then edits a guest by hand and shows pvectl finding and
// repairing the drift (MAC kept).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { PveClient } from "../../api/index.js";
import { applyPlan } from "../../engine/apply.js";
import type { ApplyReport, GuestReport } from "../../engine/report.js";
import { buildPlan, planData } from "../../engine/plan.js";
import { planHasChanges } from "../../engine/types.js";
import { desiredVmFromSpec } from "../../resources/vm/from-spec.js";
import { startSimulator } from "../../sim/index.js";
import { loadSpecFiles } from "../../sources/spec/index.js";
import { paletteFor, plainPalette, renderPlan } from "../render/plan.js";
import { progressLine, renderReport } from "../render/report.js";
import { UsageError } from "./plan.js";

interface Flags {
  json?: boolean;
  examples?: string;
  http?: boolean;
  timing?: "instant" | "realistic";
  timeScale?: string;
}

function defaultExamplesDir(): string {
  // src/cli/commands/demo.ts and dist/cli/commands/demo.js both sit three levels below the package root.
  return fileURLToPath(new URL("../../../examples/", import.meta.url));
}

/**
 * Changes the first created guest with a NIC behind pvectl's back, as a person in the web UI
 * would: net0 on the other bridge (MAC kept) and one more tag. Returns its name.
 */
async function driftByHand(client: PveClient, guests: GuestReport[]): Promise<string | undefined> {
  const guest = guests.find((g) => g.result === "created" && g.vmid !== undefined && g.macs.net0);
  if (!guest) return undefined;
  const path = `/nodes/${guest.node}/qemu/${guest.vmid}/config`;
  const config = (await client.request("GET", path)) as Record<string, string | number>;
  const net0 = String(config.net0);
  const bridge = /bridge=vmbr0/.test(net0) ? "vmbr1" : "vmbr0";
  await client.request("PUT", path, {
    net0: net0.replace(/bridge=[^,]+/, `bridge=${bridge}`),
    tags: `${String(config.tags ?? "")};edited-by-hand`,
  });
  return guest.key;
}

export function registerDemoCommand(program: Command): void {
  program
    .command("demo")
    .description("start the simulator in-process, plan and apply the example specs, show that a second plan is empty")
    .option("--examples <dir>", "directory of spec files (default: the package's examples/)")
    .option("--http", "plain HTTP instead of HTTPS with a pinned certificate")
    .option("--timing <profile>", "simulator task timing: instant or realistic", "realistic")
    .option("--time-scale <factor>", "realistic timing: real seconds per simulated second", "0.2")
    .option("--json", "plan, report and second plan as one JSON document")
    .action(async (flags: Flags) => {
      // With --json the readable text goes nowhere and one JSON document is printed at the end.
      const out = flags.json ? { write: (_: string) => true, isTTY: false } : process.stdout;
      const p = flags.json ? plainPalette : paletteFor(process.stdout);
      const dir = flags.examples ?? defaultExamplesDir();
      let files: string[];
      try {
        files = readdirSync(dir)
          .filter((f) => f.endsWith(".yaml") || f.endsWith(".yml"))
          .sort()
          .map((f) => join(dir, f));
      } catch {
        throw new UsageError(`cannot read the examples directory ${dir}`, "pass --examples DIR with spec files");
      }
      // Examples that name a connection describe a real cluster; the demo runs the others.
      const runnable: string[] = [];
      for (const file of files) {
        const spec = await loadSpecFiles([file]);
        if (spec.vms.some((vm) => vm.connection !== undefined)) out.write(p.dim(`(skipping ${file}: it targets a named connection)\n`));
        else runnable.push(file);
      }
      if (runnable.length === 0) throw new UsageError(`no example spec without a named connection in ${dir}`, "pass --examples DIR");

      const timeScale = Number(flags.timeScale ?? "0.2");
      const sim = await startSimulator({
        port: 0,
        https: !flags.http,
        timing: flags.timing === "instant" ? "instant" : "realistic",
        ...(Number.isFinite(timeScale) && timeScale > 0 ? { timeScale } : {}),
      });
      const url = new URL(sim.url);
      const client = new PveClient({
        host: url.hostname,
        port: Number(url.port),
        ...(flags.http ? { protocol: "http" as const } : { fingerprint: sim.fingerprint! }),
        user: "root@pam",
        password: sim.rootPassword,
      });
      try {
        out.write(
          `${p.bold("pvectl demo")}: simulator at ${sim.url} (3 nodes${flags.http ? "" : `, certificate pinned ${sim.fingerprint!.slice(0, 23)}...`})\n` +
            `specs: ${runnable.join(", ")}\n\n`,
        );
        const spec = await loadSpecFiles(runnable);
        const desired = spec.vms.map(desiredVmFromSpec);

        out.write(p.bold("1. pvectl plan\n"));
        const plan = await buildPlan(client, desired);
        out.write(renderPlan(planData(plan), p));

        out.write(p.bold("\n2. pvectl apply --yes\n"));
        const report = await applyPlan(client, planData(plan), {
          cluster: plan.context.cluster,
          onEvent: (event) => {
            const line = progressLine(event, p);
            if (line) out.write(`${line}\n`);
          },
        });
        out.write(`\n${renderReport(report, p)}`);

        out.write(p.bold("\n3. pvectl plan (again)\n"));
        const second = planData(await buildPlan(client, desired));
        out.write(renderPlan(second, p));

        const drift = await driftByHand(client, report.guests);
        let repaired: ApplyReport | undefined;
        if (drift) {
          out.write(p.bold(`\n4. someone edits ${drift} by hand (another bridge for net0, an extra tag); pvectl plan\n`));
          const driftPlan = await buildPlan(client, desired);
          out.write(renderPlan(planData(driftPlan), p));
          out.write(p.bold("\n5. pvectl apply --yes\n"));
          repaired = await applyPlan(client, planData(driftPlan), { cluster: driftPlan.context.cluster, live: driftPlan.context.live });
          out.write(renderReport(repaired, p));
          out.write(p.bold("\n6. pvectl plan\n"));
          out.write(renderPlan(planData(await buildPlan(client, desired)), p));
        }
        const stats = client.stats();
        const calls = stats.reduce((n, s) => n + s.count, 0);
        out.write(p.dim(`\n${calls} API calls in all.\n`));
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ specs: runnable, plan: planData(plan), report, secondPlan: second, apiCalls: calls }, null, 2)}\n`);
        }
        if (!report.ok || planHasChanges(second) || repaired?.ok === false) {
          out.write(p.red("The demo did not converge; see the errors above.\n"));
          process.exitCode = 1;
        }
      } finally {
        await client.close();
        await sim.close();
      }
    });
}
