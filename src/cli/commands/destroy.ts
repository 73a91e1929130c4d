// `pvectl destroy -f SPEC [--name NAME ...]`: destroy the spec's guests that exist, with the
// same plan, guard rails (--allow-data-loss, --allow-restart to stop running ones) and
// confirmation as apply. The plan names every volume that goes.
import type { Command } from "commander";
import { planDestroy } from "../../app/destroy.js";
import { DEFAULT_SHUTDOWN_TIMEOUT } from "../../app/plan-model.js";
import { type ApplyFlags, runApply } from "./apply-flow.js";
import { addSecretPolicyOptions, openSpecTarget, type PlanFlags, positiveInt, UsageError } from "./plan.js";
import { LOCK_WAIT_FLAG } from "./lock-wait.js";

interface Flags extends ApplyFlags, PlanFlags {
  name?: string[];
}

export function registerDestroyCommand(program: Command): void {
  addSecretPolicyOptions(program.command("destroy"))
    .description("destroy the spec's guests (all, or those named with --name), naming every volume deleted")
    .argument("[files...]", "spec files")
    .option("-f, --file <path...>", "spec file(s)")
    .option("--name <name...>", "only these guests of the spec")
    .option("--connection <name>", "only the guests of this spec connection")
    .option("--allow-data-loss", "required: destroying a guest deletes its volumes")
    .option("--allow-restart", "stop guests that are running first")
    .option("-y, --yes", "do not ask for confirmation")
    .option("--json", "the report as JSON")
    .option("--shutdown-timeout <seconds>", "graceful shutdown time before destroying a running guest", String(DEFAULT_SHUTDOWN_TIMEOUT))
    .option("--force-stop", "force a running guest off after the shutdown timeout")
    .option("--adopt", "destroy guests the spec names by vmid that pvectl did not create (without it they are refused)")
    .option(...LOCK_WAIT_FLAG)
    .action(async (files: string[], flags: Flags) => {
      const target = await openSpecTarget(files, flags, "destroy");
      try {
        let vms = target.vms;
        let containers = target.containers;
        if (flags.name) {
          const all = [...vms, ...containers];
          const unknown = flags.name.filter((n) => !all.some((guest) => guest.name === n));
          if (unknown.length > 0) {
            throw new UsageError(
              `not in the spec: ${unknown.join(", ")}`,
              `guests in the spec: ${all.map((guest) => guest.name).join(", ")}`,
            );
          }
          vms = vms.filter((vm) => flags.name!.includes(vm.name));
          containers = containers.filter((ct) => flags.name!.includes(ct.name));
        }
        const planned = await planDestroy(
          target.client,
          { vms, containers },
          {
            shutdownTimeoutSeconds: positiveInt(flags.shutdownTimeout, "--shutdown-timeout", DEFAULT_SHUTDOWN_TIMEOUT),
            forceStop: flags.forceStop ?? false,
            adopt: flags.adopt ?? false,
          },
        );
        await runApply(target.client, planned, flags, {}, "destroy");
      } finally {
        await target.client.close();
      }
    });
}
