// `pvectl validate FILE...`: checks spec files offline — no cluster, no credentials — with the
// same loader plan and apply use. For CI and pre-commit hooks; exit 0 valid, 1 invalid.
import type { Command } from "commander";
import { describeCt, describeVm, formatPath, type SpecDocument, type SpecError, validateSpecFiles } from "../../app/validate.js";
import { safeLine } from "../../util/safe-text.js";
import { UsageError } from "./usage-error.js";

interface ValidateFlags {
  file?: string[];
  json?: boolean;
}

/** The readable report of valid files. */
export function validateSummary(spec: SpecDocument): string {
  const vms = spec.vms.length;
  const cts = spec.containers.length;
  const connections = Object.keys(spec.connections).length;
  const counted = [
    `${vms} VM${vms === 1 ? "" : "s"}`,
    ...(cts > 0 ? [`${cts} container${cts === 1 ? "" : "s"}`] : []),
    `${connections} connection${connections === 1 ? "" : "s"}`,
  ];
  const lines = [`ok: ${safeLine(spec.files.join(", "))}: ${counted.join(", ")}`];
  const guests = [
    ...spec.vms.map((vm) => ({ guest: vm, text: describeVm(vm) })),
    ...spec.containers.map((ct) => ({ guest: ct, text: describeCt(ct) })),
  ];
  for (const { guest, text } of guests) {
    const where = `${guest.node}${guest.connection !== undefined ? ` via ${guest.connection}` : ""}`;
    lines.push(`  ${safeLine(`${text} on ${where}`)}${guest.state === "absent" ? " (absent: to be destroyed)" : ""}`);
  }
  return lines.join("\n");
}

/** The --json report: the VMs of valid files, or the issues of invalid ones. */
export function validateJson(spec: SpecDocument | undefined, files: string[], error: SpecError | undefined): string {
  return JSON.stringify(
    {
      valid: error === undefined,
      files,
      vms: (spec?.vms ?? []).map((vm) => ({
        vmid: vm.vmid ?? null,
        name: vm.name,
        node: vm.node,
        connection: vm.connection ?? null,
        state: vm.state,
        source: vm.source,
      })),
      containers: (spec?.containers ?? []).map((ct) => ({
        vmid: ct.vmid ?? null,
        hostname: ct.name,
        node: ct.node,
        connection: ct.connection ?? null,
        state: ct.state,
        source: ct.source,
      })),
      connections: Object.keys(spec?.connections ?? {}).sort(),
      issues: (error?.issues ?? []).map((issue) => ({
        file: issue.location?.file ?? null,
        line: issue.location?.line ?? null,
        column: issue.location?.column ?? null,
        path: formatPath(issue.path),
        message: issue.message,
      })),
    },
    null,
    2,
  );
}

export function registerValidateCommand(program: Command): void {
  program
    .command("validate")
    .description("check spec files offline (no cluster contacted): every problem with file:line:column")
    .argument("[files...]", "spec files")
    .option("-f, --file <path...>", "spec file(s)")
    .option("--json", "the result as JSON ({ valid, vms, containers, issues })")
    .action(async (positional: string[], flags: ValidateFlags) => {
      const files = [...(flags.file ?? []), ...positional];
      if (files.length === 0) throw new UsageError("no spec file given", "usage: pvectl validate web.yaml [more.yaml ...]");
      const result = await validateSpecFiles(files);
      if (result.valid)
        process.stdout.write(`${flags.json ? validateJson(result.spec, files, undefined) : validateSummary(result.spec)}\n`);
      else {
        if (!flags.json) throw result.error;
        process.stdout.write(`${validateJson(undefined, files, result.error)}\n`);
        process.exitCode = 1;
      }
    });
}
