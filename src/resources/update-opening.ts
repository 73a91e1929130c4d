// How every kind opens the plan of a guest that exists, before its own keys and devices are
// compared: what it notes of the live guest (placement, lock, detached volumes, the template it
// is or is to be), and the steps that come first (adoption, pool, a stop that was asked for or
// that a template conversion needs). Kind-neutral: each kind passes its calls and its noun.
import type { StepDraft } from "../plan/types.js";
import { adoptStep, type GuestStepCalls, stopStep } from "./guest-steps.js";
import type { PowerState, UpdateOptions } from "./kind.js";
import { OWNERSHIP_TAG } from "./ownership.js";
import { unusedRemoval } from "./unused-removal.js";
import { poolDrafts } from "./pool-steps.js";
import { converts, liveTemplateErrors, templateWishErrors } from "./template.js";

interface DesiredLike {
  node: string;
  pool?: string | undefined;
  power?: PowerState | undefined;
  template?: boolean | undefined;
}

interface LiveLike {
  vmid: number;
  node: string;
  name?: string;
  tags: string[];
  status: PowerState;
  lock?: string;
  template: boolean;
  unused: Record<string, string>;
  pool?: string | undefined;
}

export interface UpdateOpening {
  errors: string[];
  warnings: string[];
  drafts: StepDraft[];
  /** The guest takes the ownership tag in this plan. */
  adopting: boolean;
  /** Whether the guest still runs once the opening steps ran (the rest of the plan applies to that state). */
  running: boolean;
  /** The plan converts the guest to a template (its last step). */
  converting: boolean;
}

/** `noun`: how messages name the guest ("VM", "container"). */
export function openUpdate(
  calls: GuestStepCalls,
  desired: DesiredLike,
  live: LiveLike,
  options: UpdateOptions,
  noun: "VM" | "container",
): UpdateOpening {
  const errors = [...templateWishErrors(desired), ...liveTemplateErrors(desired, live, noun)];
  const warnings: string[] = [];
  if (live.node !== desired.node) {
    warnings.push(`runs on ${live.node}, the spec says ${desired.node}: placement is PVE's (HA, migration); changes apply on ${live.node}`);
  }
  if (live.lock) warnings.push(`${noun === "VM" ? "guest" : "container"} is locked (${live.lock}); apply waits and retries`);
  for (const [slot, volume] of Object.entries(live.unused)) {
    warnings.push(
      `${slot} holds ${volume}, attached to nothing (the source of a move made without --allow-data-loss, or a detached disk); ` +
        `pvectl leaves it: to destroy it, run ${unusedRemoval(noun, live.node, live.vmid, slot)}`,
    );
  }
  const drafts: StepDraft[] = [];
  const adopting = options.adopt === true && !live.tags.includes(OWNERSHIP_TAG);
  if (adopting) drafts.push(adoptStep(calls, live));
  drafts.push(...poolDrafts(desired, live));
  let running = live.status === "running";
  const converting = converts(desired, live);
  if ((desired.power === "stopped" || converting) && running) {
    // PVE converts only a stopped guest: the stop comes first, and every change after it applies at once.
    drafts.push(stopStep(calls, live, options, converting ? "before converting it to a template " : ""));
    running = false;
  }
  return { errors, warnings, drafts, adopting, running, converting };
}
