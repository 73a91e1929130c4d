// The guard rails of an apply: which steps run with the options given. data-loss-risk steps
// need allowDataLoss; host-access steps (and any step that touches a host-access key)
// allowHostAccess; secret-reset steps allowSecretReset; service-impact steps need allowRestart, or with deferRestart only the
// changes that wait for a reboot are written (the reboot itself is left to the operator).
import type { GuestPlan, Step } from "../plan/types.js";

export interface GuardRails {
  allowDataLoss?: boolean;
  /** Steps that reach the hypervisor host (host bind mounts, devices, QEMU args, hookscripts). */
  allowHostAccess?: boolean;
  /** Steps that give an API token a new secret (the old one stops working). */
  allowSecretReset?: boolean;
  allowRestart?: boolean;
  /**
   * Write changes that only take effect at the next reboot now, as PVE pending changes, and
   * leave the reboot to the operator (a maintenance window). `allowRestart` wins: it reboots.
   * Steps that disturb the running guest now (stop, a NIC hot-unplug) still need allowRestart.
   */
  deferRestart?: boolean;
}

/** The reason a reboot is left out under --defer-restart (the CLI counts these apart from refusals). */
export const DEFERRED_REBOOT = "deferred (--defer-restart): reboot the guest in your maintenance window, or run with --allow-restart";

/** Why a step will not run with these options (undefined: it runs). */
export function refusal(step: Step, options: GuardRails): string | undefined {
  if (step.severity === "data-loss-risk" && !options.allowDataLoss) return "data-loss-risk: needs --allow-data-loss";
  // Whatever else the step is, reaching the host needs its own consent as well.
  if ((step.severity === "host-access" || step.hostAccess !== undefined) && !options.allowHostAccess) {
    return `host-access (${(step.hostAccess ?? []).join(", ") || "reaches the hypervisor host"}): needs --allow-host-access`;
  }
  if (step.severity === "secret-reset" && !options.allowSecretReset) return "secret-reset: needs --allow-secret-reset";
  if (step.severity !== "service-impact" || options.allowRestart) return undefined;
  if (options.deferRestart) {
    // Written to PVE's pending section, the guest keeps running as it is until its reboot.
    if (step.pendingUntilReboot) return undefined;
    if (step.action === "reboot") return DEFERRED_REBOOT;
    return "service-impact now (not a change that waits for a reboot): needs --allow-restart";
  }
  return "service-impact: needs --allow-restart";
}

/**
 * Per step of a guest: the reason it is skipped, if it is. Destroys and stops pull their
 * companions with them, and so does a migration: every later step names the node it moves to.
 */
export function skipReasons(guest: GuestPlan, options: GuardRails): Map<string, string> {
  const reasons = new Map<string, string>();
  const destroy = guest.steps.find((s) => s.action === "destroy");
  const destroyRefused = destroy ? refusal(destroy, options) : undefined;
  let held: string | undefined;
  for (const step of guest.steps) {
    const own = refusal(step, options);
    if (destroyRefused) reasons.set(step.id, step === destroy ? destroyRefused : `not run: the destroy is refused (${destroyRefused})`);
    else if (held) reasons.set(step.id, held);
    else if (own) {
      reasons.set(step.id, own);
      if (step.action === "stop") held = `not run: the guest was not stopped (${own})`;
      if (step.action === "migrate") held = `not run: the guest was not migrated (${own})`;
    }
  }
  return reasons;
}
