// `pvectl demo`: the README's main job in one command. Starts the PVE API simulator in-process
// (HTTPS, its certificate pinned by fingerprint), plans and applies the example specs
// (examples/*.yaml that use the default connection; a template and its clone in one run: the
// clone waits for its template's steps), prints plan, progress and result, shows that a second plan is
// empty, then edits a guest by hand and shows pvectl finding and repairing the drift (MAC
// kept), and snapshots the web tier. Then the NetBox loop: a NetBox simulator holds VM records
// in status `planned`; `netbox sync` builds them, writes back vmid/MACs/IP and moves them to
// `staged`; finally the Ansible inventory of everything that now exists, with NetBox facts.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { applyPlan } from "../../app/apply-plan.js";
import type { ApplyReport } from "../../app/apply-results.js";
import type { PveClient } from "../../app/connection.js";
import { demoInventory, driftByHand, loadDemoSpec, runnableExamples, startDemoCluster, startDemoNetbox } from "../../app/demo.js";
import type { AnsibleInventory } from "../../app/inventory.js";
import { type SyncReport, syncNetbox } from "../../app/netbox/sync.js";
import { planHasChanges } from "../../app/plan-model.js";
import { planSpec } from "../../app/plan-spec.js";
import { planSnapshots } from "../../app/snapshots.js";
import { type Palette, paletteFor, plainPalette, renderPlan } from "../render/plan.js";
import { progressLine, renderReport } from "../render/report.js";
import { syncLine } from "./netbox.js";
import { UsageError } from "./plan.js";

interface Flags {
  json?: boolean;
  examples?: string;
  http?: boolean;
  timing?: "instant" | "realistic";
  timeScale?: string;
}

/** `ansible-inventory --graph`'s shape: each group with its hosts, `_meta` left out. */
function inventoryGraph(inventory: AnsibleInventory): string {
  const lines: string[] = [];
  for (const [group, value] of Object.entries(inventory)) {
    if (group === "_meta" || group === "all") continue;
    const hosts = (value as { hosts?: string[] }).hosts ?? [];
    lines.push(`  @${group}: ${hosts.join(", ")}`);
  }
  return `${lines.join("\n")}\n`;
}

function defaultExamplesDir(): string {
  // src/cli/commands/demo.ts and dist/cli/commands/demo.js both sit three levels below the package root.
  return fileURLToPath(new URL("../../../examples/", import.meta.url));
}

/**
 * `pvectl snapshot create before-upgrade --tag web`: a snapshot is an operation over many
 * guests, selected, planned, guarded and run per node like an apply. The web tier only: the
 * example database keeps a raw disk on NFS, which cannot be snapshotted (the preflight says so).
 */
async function snapshotWebTier(client: PveClient, out: { write(text: string): unknown }, p: Palette): Promise<ApplyReport | undefined> {
  const { plan, context } = await planSnapshots(client, { tags: ["web"] }, { action: "create", name: "before-upgrade" });
  if (plan.guests.length === 0) return undefined;
  out.write(p.bold("\n7. pvectl snapshot create before-upgrade --tag web\n"));
  out.write(renderPlan(plan, p));
  const report = await applyPlan(client, { plan, desired: [], context });
  out.write(renderReport(report, p));
  return report;
}

export function registerDemoCommand(program: Command): void {
  program
    .command("demo")
    .description(
      "start the simulators in-process: plan and apply the example specs, show that a second plan is empty, build NetBox's planned VMs, print the inventory",
    )
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
      const { runnable, skipped } = await runnableExamples(files);
      for (const file of skipped) out.write(p.dim(`(skipping ${file}: it targets a named connection)\n`));
      if (runnable.length === 0) throw new UsageError(`no example spec without a named connection in ${dir}`, "pass --examples DIR");

      const timeScale = Number(flags.timeScale ?? "0.2");
      const cluster = await startDemoCluster({
        ...(flags.http ? { http: true } : {}),
        timing: flags.timing === "instant" ? "instant" : "realistic",
        ...(Number.isFinite(timeScale) && timeScale > 0 ? { timeScale } : {}),
      });
      const { sim, client } = cluster;
      try {
        out.write(
          `${p.bold("pvectl demo")}: simulator at ${sim.url} (3 nodes${flags.http ? "" : `, certificate pinned ${sim.fingerprint!.slice(0, 23)}...`})\n` +
            `specs: ${runnable.join(", ")}\n\n`,
        );
        const spec = await loadDemoSpec(runnable);

        out.write(p.bold("1. pvectl plan\n"));
        const planned = await planSpec(client, spec);
        const { plan } = planned;
        out.write(renderPlan(plan, p));

        out.write(p.bold("\n2. pvectl apply --yes\n"));
        const report = await applyPlan(client, planned, {
          onEvent: (event) => {
            const line = progressLine(event, p);
            if (line) out.write(`${line}\n`);
          },
        });
        out.write(`\n${renderReport(report, p)}`);

        out.write(p.bold("\n3. pvectl plan (again)\n"));
        const { plan: second } = await planSpec(client, spec);
        out.write(renderPlan(second, p));

        const drift = await driftByHand(client, report.guests);
        let repaired: ApplyReport | undefined;
        if (drift) {
          out.write(p.bold(`\n4. someone edits ${drift} by hand (another bridge for net0, an extra tag); pvectl plan\n`));
          const driftPlan = await planSpec(client, spec);
          out.write(renderPlan(driftPlan.plan, p));
          out.write(p.bold("\n5. pvectl apply --yes\n"));
          repaired = await applyPlan(client, driftPlan);
          out.write(renderReport(repaired, p));
          out.write(p.bold("\n6. pvectl plan\n"));
          out.write(renderPlan((await planSpec(client, spec)).plan, p));
        }
        const snapshot = await snapshotWebTier(client, out, p);
        // The NetBox loop: planned records -> built VMs -> staged -> inventory.
        // The mapping fits the NetBox simulator's demo records, whatever specs --examples names.
        const demoNetbox = await startDemoNetbox(join(defaultExamplesDir(), "netbox", "netbox.yaml"));
        const { netbox, config } = demoNetbox;
        let sync: SyncReport | undefined;
        let rerun: SyncReport | undefined;
        let inventory: AnsibleInventory | undefined;
        try {
          out.write(
            p.bold(
              `\n8. NetBox at ${demoNetbox.sim.url} holds ${demoNetbox.planned.length} VM records in status planned: ${demoNetbox.planned.join(", ")}\n`,
            ),
          );
          out.write(p.bold("   pvectl netbox sync\n"));
          sync = await syncNetbox({
            config,
            netbox,
            pveClient: () => client,
            onPlan: (_, plan) => out.write(renderPlan(plan, p)),
            onEvent: (event) => {
              const line = progressLine(event, p);
              if (line) out.write(`${line}\n`);
            },
            onRecord: (outcome) => out.write(`${syncLine(outcome, p)}\n`),
          });
          rerun = await syncNetbox({ config, netbox, pveClient: () => client });
          out.write(p.bold(`\n9. pvectl netbox sync (again): ${rerun.records.length} record(s) selected, nothing to do\n`));

          out.write(p.bold("\n10. pvectl inventory (what ansible-inventory --graph shows, with NetBox facts)\n"));
          inventory = await demoInventory(client, demoNetbox);
          out.write(inventoryGraph(inventory));
          for (const [host, vars] of Object.entries(inventory._meta.hostvars)) {
            if (vars.ansible_host) out.write(p.dim(`  ${host}: ansible_host=${String(vars.ansible_host)}\n`));
          }
        } finally {
          await demoNetbox.sim.close();
        }

        const stats = client.stats();
        const calls = stats.reduce((n, s) => n + s.count, 0);
        out.write(p.dim(`\n${calls} API calls in all.\n`));
        if (flags.json) {
          process.stdout.write(
            `${JSON.stringify({ specs: runnable, plan, report, secondPlan: second, netbox: sync?.records, inventory, apiCalls: calls }, null, 2)}\n`,
          );
        }
        const netboxDone = sync?.ok === true && sync.records.every((r) => r.result === "staged") && rerun?.records.length === 0;
        if (!report.ok || planHasChanges(second) || repaired?.ok === false || snapshot?.ok === false || !netboxDone) {
          out.write(p.red("The demo did not converge; see the errors above.\n"));
          process.exitCode = 1;
        }
      } finally {
        await cluster.close();
      }
    });
}
