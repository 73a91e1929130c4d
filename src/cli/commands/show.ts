// `pvectl show -f SPEC`: the spec's guests as they are live, written in the spec's own shape
// (YAML, or --json), so a person can compare them with what the spec says.
import type { Command } from "commander";
import { showSpec } from "../../app/show.js";
import { safeText } from "../../util/safe-text.js";
import { specYaml } from "../render/spec-yaml.js";
import { addSecretPolicyOptions, openSpecTarget, type SpecFlags, specOf } from "./plan.js";

interface Flags extends SpecFlags {
  json?: boolean;
}

export function registerShowCommand(program: Command): void {
  addSecretPolicyOptions(program.command("show"))
    .description("print the spec's guests as they are live, in the spec's shape")
    .argument("[files...]", "spec files")
    .option("-f, --file <path...>", "spec file(s)")
    .option("--connection <name>", "only the guests of this spec connection")
    .option("--json", "JSON instead of YAML")
    .action(async (files: string[], flags: Flags) => {
      const target = await openSpecTarget(files, flags, "show");
      try {
        const shown = await showSpec(target.client, specOf(target));
        const { version: _version, ...sections } = shown.spec;
        if (flags.json) process.stdout.write(`${JSON.stringify({ ...sections, missing: shown.missing }, null, 2)}\n`);
        else {
          process.stdout.write(specYaml(shown.spec));
          for (const line of shown.missing) process.stderr.write(`not live: ${safeText(line)}\n`);
        }
      } finally {
        await target.client.close();
      }
    });
}
