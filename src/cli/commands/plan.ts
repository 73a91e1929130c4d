// `pvectl plan -f SPEC`: read the live cluster, show what apply would do, step by step with
// severities; `--out FILE` saves it for `apply --plan FILE`; `--detailed-exitcode` makes the
// exit code say whether there are changes (0 none, 2 changes, 1 error).
import type { Command } from "commander";
import { PveClient } from "../../api/index.js";
import { planSpec, type SpecGuests } from "../../app/plan-spec.js";
import { DEFAULT_SHUTDOWN_TIMEOUT } from "../../engine/plan.js";
import { type SavedPlanOptions, savedPlanContent, savePlan } from "../../engine/saved-plan.js";
import { type Plan, planHasChanges, planHasErrors } from "../../plan/types.js";
import { resolveConnection } from "../../sources/connections.js";
import { checkContainerSecrets } from "../../sources/ct-secrets.js";
import { type SecretPolicy, SecretPolicyError, secretPolicy } from "../../sources/secret-policy.js";
import { checkTokenSecretFiles } from "../../sources/token-secret-files.js";
import {
  type AccessSpec,
  type BackupJobSpec,
  type ContainerSpec,
  loadSpecFiles,
  type SpecDocument,
  type VmSpec,
} from "../../sources/spec/index.js";
import { paletteFor, renderPlan } from "../render/plan.js";
import { renderPlanMarkdown } from "../render/plan-markdown.js";
import { createWaitProgress } from "./lock-wait.js";
import { planFormat } from "./plan-format.js";
import { UsageError } from "./usage-error.js";

export { UsageError };

export interface SpecTarget {
  spec: SpecDocument;
  files: string[];
  connection?: string;
  /** The spec's guests on this run's one connection. */
  vms: VmSpec[];
  containers: ContainerSpec[];
  /** The spec's backup jobs on this connection; absent: the spec does not manage backup jobs. */
  backupJobs?: BackupJobSpec[];
  /** The spec's access section on this connection; absent: access is not managed. */
  access?: AccessSpec;
  /** The operator's secret policy (a container's root password is read by it when the create is sent). */
  policy: SecretPolicy;
  client: PveClient;
}

/** What a command plans from its target: guests and backup jobs. */
export function specOf(target: SpecTarget): SpecGuests {
  return {
    vms: target.vms,
    containers: target.containers,
    ...(target.backupJobs ? { backupJobs: target.backupJobs } : {}),
    ...(target.access ? { access: [target.access] } : {}),
  };
}

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

function policyOf(flags: SpecFlags): SecretPolicy {
  try {
    return secretPolicy({
      allowHttp: flags.allowHttp ?? false,
      ...(flags.secretsDir ? { secretsDirs: flags.secretsDir } : {}),
      ...(flags.secretEnvPrefix ? { secretEnvPrefixes: flags.secretEnvPrefix } : {}),
    });
  } catch (err) {
    if (err instanceof SecretPolicyError) throw new UsageError(err.message, 'see docs/client.md, "Threat model: specs are untrusted"');
    throw err;
  }
}

/** The spec files of a command (positional or -f), its one connection, and a client for it. */
export async function openSpecTarget(positional: string[], flags: SpecFlags, command: string): Promise<SpecTarget> {
  const files = [...(flags.file ?? []), ...positional];
  const policy = policyOf(flags);
  if (files.length === 0) throw new UsageError("no spec file given", `usage: pvectl ${command} -f web.yaml [-f more.yaml]`);
  const spec = await loadSpecFiles(files);
  const onConnection = <G extends { connection?: string }>(guests: G[]): G[] =>
    flags.connection === undefined ? guests : guests.filter((g) => g.connection === flags.connection);
  const vms = onConnection(spec.vms);
  const containers = onConnection(spec.containers);
  const backupJobs = spec.backupJobs === undefined ? undefined : onConnection(spec.backupJobs);
  const access = onConnection(spec.access ?? []);
  const names = [
    ...new Set([...vms, ...containers, ...(backupJobs ?? []), ...access].map((g) => g.connection ?? "(PROXMOX_* environment)")),
  ];
  if (names.length > 1) {
    throw new UsageError(
      `the spec uses ${names.length} connections (${names.join(", ")}); pvectl works on one cluster at a time`,
      `add --connection NAME to pick one, e.g. pvectl ${command} --connection ${names.find((n) => !n.startsWith("(")) ?? "NAME"} ...`,
    );
  }
  const connection =
    flags.connection ?? vms[0]?.connection ?? containers[0]?.connection ?? backupJobs?.[0]?.connection ?? access[0]?.connection;
  // Refused password sources fail before any client exists: nothing is sent.
  checkContainerSecrets({ connections: spec.connections, containers }, policy);
  // So do files the spec would have written outside what the operator allows.
  checkTokenSecretFiles(access, policy);
  const client = new PveClient(resolveConnection(spec, connection, process.env, policy));
  return {
    spec,
    files,
    ...(connection !== undefined ? { connection } : {}),
    vms,
    containers,
    ...(backupJobs ? { backupJobs } : {}),
    ...(access[0] ? { access: access[0] } : {}),
    policy,
    client,
  };
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
}

export function positiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a whole number of at least 1, got '${value}'`, `e.g. ${flag} 4`);
  return n;
}

/** The options that shape a plan's content (stored in a saved plan, so apply recomputes it alike). */
export function planOptions(flags: Pick<PlanFlags, "shutdownTimeout" | "forceStop" | "adopt" | "showSecret">): SavedPlanOptions {
  return {
    shutdownTimeoutSeconds: positiveInt(flags.shutdownTimeout, "--shutdown-timeout", DEFAULT_SHUTDOWN_TIMEOUT),
    forceStop: flags.forceStop ?? false,
    adopt: flags.adopt ?? false,
    ...(flags.showSecret ? { showSecret: true } : {}),
  };
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
  addSecretPolicyOptions(program.command("plan"))
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
        if (format === "json") process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
        else if (format === "markdown") {
          process.stdout.write(renderPlanMarkdown(plan));
          if (flags.out) process.stderr.write(`Saved to ${flags.out}; apply it with: pvectl apply --plan ${flags.out}\n`);
        } else {
          process.stdout.write(renderPlan(plan, paletteFor(process.stdout)));
          if (flags.out) process.stdout.write(`Saved to ${flags.out}; apply it with: pvectl apply --plan ${flags.out}\n`);
        }
        process.exitCode = planExitCode(plan, flags.detailedExitcode ?? false);
      } finally {
        await target.client.close();
      }
    });
}
