// `pvectl plan -f SPEC`: read the live cluster, show what apply would do, step by step with
// severities; `--out FILE` saves it for `apply --plan FILE`; `--detailed-exitcode` makes the
// exit code say whether there are changes (0 none, 2 changes, 1 error).
import type { Command } from "commander";
import { PveClient } from "../../api/index.js";
import { buildPlan, DEFAULT_SHUTDOWN_TIMEOUT, planData } from "../../engine/plan.js";
import { savePlan } from "../../engine/saved-plan.js";
import { planHasChanges, planHasErrors, type Plan } from "../../engine/types.js";
import { desiredVmFromSpec } from "../../resources/vm/from-spec.js";
import type { DesiredVm } from "../../resources/vm/model.js";
import { resolveConnection } from "../../sources/connections.js";
import { loadSpecFiles, type SpecDocument } from "../../sources/spec/index.js";
import { paletteFor, renderPlan } from "../render/plan.js";
import { createWaitProgress } from "./lock-wait.js";

export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
  userMessage(): string {
    return `${this.message}\n  ${this.hint}`;
  }
}

export interface SpecTarget {
  spec: SpecDocument;
  files: string[];
  connection?: string;
  desired: DesiredVm[];
  client: PveClient;
}

export interface SpecFlags {
  file?: string[];
  connection?: string;
}

/** The spec files of a command (positional or -f), its one connection, and a client for it. */
export async function openSpecTarget(positional: string[], flags: SpecFlags, command: string): Promise<SpecTarget> {
  const files = [...(flags.file ?? []), ...positional];
  if (files.length === 0) throw new UsageError("no spec file given", `usage: pvectl ${command} -f web.yaml [-f more.yaml]`);
  const spec = await loadSpecFiles(files);
  let vms = spec.vms;
  if (flags.connection !== undefined) vms = vms.filter((vm) => vm.connection === flags.connection);
  const names = [...new Set(vms.map((vm) => vm.connection ?? "(PROXMOX_* environment)"))];
  if (names.length > 1) {
    throw new UsageError(
      `the spec uses ${names.length} connections (${names.join(", ")}); pvectl works on one cluster at a time`,
      `add --connection NAME to pick one, e.g. pvectl ${command} --connection ${names.find((n) => !n.startsWith("(")) ?? "NAME"} ...`,
    );
  }
  const connection = flags.connection ?? vms[0]?.connection;
  const client = new PveClient(resolveConnection(spec, connection));
  return { spec, files, ...(connection !== undefined ? { connection } : {}), desired: vms.map(desiredVmFromSpec), client };
}

export interface PlanFlags extends SpecFlags {
  json?: boolean;
  detailedExitcode?: boolean;
  out?: string;
  shutdownTimeout?: string;
  forceStop?: boolean;
  readConcurrency?: string;
}

export function positiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a whole number of at least 1, got '${value}'`, `e.g. ${flag} 4`);
  return n;
}

export function planExitCode(plan: Plan, detailed: boolean): number {
  if (planHasErrors(plan)) return 1;
  return detailed && planHasChanges(plan) ? 2 : 0;
}

export function registerPlanCommand(program: Command): void {
  program
    .command("plan")
    .description("show what apply would change, step by step with severities (reads the cluster, changes nothing)")
    .argument("[files...]", "spec files")
    .option("-f, --file <path...>", "spec file(s)")
    .option("--connection <name>", "only the guests of this spec connection")
    .option("--json", "the plan as JSON")
    .option("--detailed-exitcode", "exit 0 when there is nothing to change, 2 when there are changes, 1 on errors")
    .option("--out <file>", "save the plan for `pvectl apply --plan FILE`")
    .option("--shutdown-timeout <seconds>", "graceful shutdown time of stop steps", String(DEFAULT_SHUTDOWN_TIMEOUT))
    .option("--force-stop", "stop steps force the guest off after the shutdown timeout")
    .option("--read-concurrency <n>", "config reads in parallel", "16")
    .action(async (files: string[], flags: PlanFlags) => {
      const target = await openSpecTarget(files, flags, "plan");
      try {
        const plan = planData(
          await buildPlan(target.client, target.desired, {
            shutdownTimeoutSeconds: positiveInt(flags.shutdownTimeout, "--shutdown-timeout", DEFAULT_SHUTDOWN_TIMEOUT),
            forceStop: flags.forceStop ?? false,
            readConcurrency: positiveInt(flags.readConcurrency, "--read-concurrency", 16),
            ...createWaitProgress(flags.json),
          }),
        );
        if (flags.out) {
          await savePlan(flags.out, { ...(target.connection !== undefined ? { connection: target.connection } : {}), specFiles: target.files, plan });
        }
        if (flags.json) process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
        else {
          process.stdout.write(renderPlan(plan, paletteFor(process.stdout)));
          if (flags.out) process.stdout.write(`Saved to ${flags.out}; apply it with: pvectl apply --plan ${flags.out}\n`);
        }
        process.exitCode = planExitCode(plan, flags.detailedExitcode ?? false);
      } finally {
        await target.client.close();
      }
    });
}
