// `pvectl plan -f SPEC`: read the live cluster, show what apply would do, step by step with
// severities; `--out FILE` saves it for `apply --plan FILE`; `--detailed-exitcode` makes the
// exit code say whether there are changes (0 none, 2 changes, 1 error).
import type { Command } from "commander";
import {
  DEFAULT_SHUTDOWN_TIMEOUT,
  PLACEMENT_MODES,
  type PlacementMode,
  type Plan,
  placementToFollow,
  planHasChanges,
  planHasErrors,
} from "../../app/plan-model.js";
import { planSpec } from "../../app/plan-spec.js";
import { type SavedPlanOptions, savedPlanContent, savePlan } from "../../app/saved-plan-file.js";
import { openSpecTarget as openTarget, type SpecTarget, specOf } from "../../app/spec-target.js";
import { type Palette, paletteFor, plainPalette, renderPlan } from "../render/plan.js";
import { renderPlacementToFollow } from "../render/placement.js";
import { renderPlanMarkdown } from "../render/plan-markdown.js";
import { createWaitProgress } from "./lock-wait.js";
import { planFormat } from "./plan-format.js";
import { UsageError } from "./usage-error.js";

export { type SpecTarget, specOf, UsageError };

export interface SpecFlags {
  file?: string[];
  connection?: string;
  allowHttp?: boolean;
  secretsDir?: string[];
  secretEnvPrefix?: string[];
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The flags of the secret policy (docs/client.md, "Threat model"), for every command that opens a spec's connection. */
export function addSecretPolicyOptions(command: Command): Command {
  return command
    .option("--allow-http", "allow plain HTTP to a host that is not this machine (credentials cross the network unencrypted)")
    .option("--secrets-dir <dir>", "a directory spec connections may read secret files from, besides the spec's own (repeatable)", collect)
    .option(
      "--secret-env-prefix <prefix>",
      "prefix of the environment variables spec connections may read secrets from (repeatable; replaces the default PROXMOX_ and PVE_)",
      collect,
    );
}

/** The spec files of a command (positional or -f), its one connection, and a client for it (app/spec-target.ts). */
export function openSpecTarget(positional: string[], flags: SpecFlags, command: string): Promise<SpecTarget> {
  return openTarget(
    {
      files: [...(flags.file ?? []), ...positional],
      ...(flags.connection !== undefined ? { connection: flags.connection } : {}),
      ...(flags.allowHttp !== undefined ? { allowHttp: flags.allowHttp } : {}),
      ...(flags.secretsDir ? { secretsDirs: flags.secretsDir } : {}),
      ...(flags.secretEnvPrefix ? { secretEnvPrefixes: flags.secretEnvPrefix } : {}),
    },
    command,
  );
}

export interface PlanFlags extends SpecFlags {
  json?: boolean;
  format?: string;
  detailedExitcode?: boolean;
  out?: string;
  shutdownTimeout?: string;
  forceStop?: boolean;
  readConcurrency?: string;
  adopt?: boolean;
  showSecret?: boolean;
  placement?: string;
  followPlacement?: boolean;
}

export function positiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a whole number of at least 1, got '${value}'`, `e.g. ${flag} 4`);
  return n;
}

/** The options that shape a plan's content (stored in a saved plan, so apply recomputes it alike). */
export function planOptions(
  flags: Pick<PlanFlags, "shutdownTimeout" | "forceStop" | "adopt" | "showSecret" | "placement">,
): SavedPlanOptions {
  const placement = placementMode(flags.placement);
  return {
    shutdownTimeoutSeconds: positiveInt(flags.shutdownTimeout, "--shutdown-timeout", DEFAULT_SHUTDOWN_TIMEOUT),
    forceStop: flags.forceStop ?? false,
    adopt: flags.adopt ?? false,
    ...(flags.showSecret ? { showSecret: true } : {}),
    ...(placement === "spec" ? { placement } : {}),
  };
}

function placementMode(value: string | undefined): PlacementMode {
  if (value === undefined) return "record";
  const mode = PLACEMENT_MODES.find((m) => m === value);
  if (mode === undefined)
    throw new UsageError(`--placement must be ${PLACEMENT_MODES.join(" or ")}, got '${value}'`, "e.g. --placement spec");
  return mode;
}

/** `--placement` and `--follow-placement`, shared by plan and apply. */
export function addPlacementOptions(command: Command): Command {
  return command
    .option(
      "--placement <mode>",
      "a guest found on another node than its spec's: record (default) migrates it only when the spec's node changed since pvectl placed it " +
        "(else it was moved by someone else: a warning, left there); spec migrates every such guest to its spec's node",
    )
    .option(
      "--follow-placement",
      "list the guests someone else moved (HA, an operator) with their spec and live node, to write the live node into the spec (changes nothing)",
    );
}

/** The `--follow-placement` list, in text or as a key of the JSON document. */
export function followPlacementText(plan: Plan, flags: Pick<PlanFlags, "followPlacement">, palette: Palette): string {
  return flags.followPlacement ? renderPlacementToFollow(placementToFollow(plan), palette) : "";
}

export function followPlacementJson(plan: Plan, flags: Pick<PlanFlags, "followPlacement">): Record<string, unknown> {
  return flags.followPlacement ? { followPlacement: placementToFollow(plan) } : {};
}

/** New API tokens without `secretFile` get their secret printed once by apply (else the plan refuses them). */
export const SHOW_SECRET_FLAG = [
  "--show-secret",
  "a new API token without secretFile in the spec: print its secret once when apply creates it (PVE shows it only then)",
] as const;

export function planExitCode(plan: Plan, detailed: boolean): number {
  if (planHasErrors(plan)) return 1;
  return detailed && planHasChanges(plan) ? 2 : 0;
}

export function registerPlanCommand(program: Command): void {
  addPlacementOptions(addSecretPolicyOptions(program.command("plan")))
    .description("show what apply would change, step by step with severities (reads the cluster, changes nothing)")
    .argument("[files...]", "spec files")
    .option("-f, --file <path...>", "spec file(s)")
    .option("--connection <name>", "only the guests of this spec connection")
    .option("--json", "the plan as JSON (same as --format json)")
    .option(
      "--format <format>",
      "text (the default), markdown (a table with collapsible details, safe to post as a pull-request comment) or json",
    )
    .option("--detailed-exitcode", "exit 0 when there is nothing to change, 2 when there are changes, 1 on errors")
    .option(
      "--out <file>",
      "save the plan for `pvectl apply --plan FILE` (with the spec files' SHA-256, the options and the cluster's identity)",
    )
    .option("--shutdown-timeout <seconds>", "graceful shutdown time of stop steps", String(DEFAULT_SHUTDOWN_TIMEOUT))
    .option("--force-stop", "stop steps force the guest off after the shutdown timeout")
    .option("--read-concurrency <n>", "config reads in parallel", "16")
    .option(
      "--adopt",
      "manage existing guests (by vmid) and objects (backup jobs, access) the spec names that pvectl did not create (adds the pvectl tag or marker); without it they are refused",
    )
    .option(...SHOW_SECRET_FLAG)
    .action(async (files: string[], flags: PlanFlags) => {
      const format = planFormat(flags);
      const target = await openSpecTarget(files, flags, "plan");
      try {
        const options = planOptions(flags);
        const readConcurrency = positiveInt(flags.readConcurrency, "--read-concurrency", 16);
        const planned = await planSpec(target.client, specOf(target), { ...options, readConcurrency, ...createWaitProgress(flags.json) });
        const { plan } = planned;
        if (flags.out) {
          await savePlan(flags.out, await savedPlanContent(target.client, planned, target.spec.files, options, target.connection));
        }
        const palette = paletteFor(process.stdout);
        if (format === "json") process.stdout.write(`${JSON.stringify({ ...plan, ...followPlacementJson(plan, flags) }, null, 2)}\n`);
        else if (format === "markdown") {
          process.stdout.write(renderPlanMarkdown(plan));
          process.stdout.write(followPlacementText(plan, flags, plainPalette));
          if (flags.out) process.stderr.write(`Saved to ${flags.out}; apply it with: pvectl apply --plan ${flags.out}\n`);
        } else {
          process.stdout.write(renderPlan(plan, palette));
          process.stdout.write(followPlacementText(plan, flags, palette));
          if (flags.out) process.stdout.write(`Saved to ${flags.out}; apply it with: pvectl apply --plan ${flags.out}\n`);
        }
        process.exitCode = planExitCode(plan, flags.detailedExitcode ?? false);
      } finally {
        await target.client.close();
      }
    });
}
